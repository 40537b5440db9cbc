import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { DEFAULT_HEARTBEAT_CONFIG } from '../config/heartbeat-config-schema.js';
import { renderCostAlert, renderWorkFound, type WorkFoundInput } from './render-messages.js';
import { intlTimestamp } from '../../test/support/intl-timestamp.js';
import { createFinding, COBUILDER_CATEGORIES } from '../../test/support/cobuilder-categories.js';

const at = new Date('2026-02-19T14:50:00Z');
const findingArb = fc.record({
  category: fc.constantFrom(...COBUILDER_CATEGORIES),
  subject: fc.string({ minLength: 1, maxLength: 20 }),
  line: fc.string({ minLength: 1, maxLength: 320 }),
  action: fc.string({ minLength: 1, maxLength: 120 }),
});
const findingsArb = fc
  .array(findingArb, { minLength: 1, maxLength: 120 })
  .map((xs) => xs.map((x, i) => createFinding({ ...x, subject: `${x.subject}-${i}`, short: x.subject })));
const input = (findings: WorkFoundInput['findings'], budgetTokens: number): WorkFoundInput => ({
  findings,
  cycle: 7,
  at,
  timeZone: 'UTC',
  budgetTokens,
});

describe('renderWorkFound and the message budget', () => {
  it('stays within the budget whenever the "+N more" cut can get there, and never cuts what fits', () => {
    fc.assert(
      fc.property(findingsArb, fc.integer({ min: 50, max: 12_000 }), (findings, budget) => {
        const rendered = renderWorkFound(input(findings, budget));
        // The most the cut can do: one finding per category (what a budget of 0 gets).
        const floor = renderWorkFound(input(findings, 0));
        const uncut = renderWorkFound(input(findings, Number.MAX_SAFE_INTEGER));
        expect(rendered.estimatedTokens).toBe(Math.ceil(rendered.message.content.length / 4));
        if (floor.estimatedTokens <= budget) expect(rendered.estimatedTokens).toBeLessThanOrEqual(budget);
        if (uncut.estimatedTokens <= budget) expect(rendered).toEqual(uncut);
        expect(uncut.omitted).toBe(0);
      }),
      { numRuns: 150 },
    );
  });

  it('keeps a large report under the default 10,000-token message budget, well below the 20,000 alert', () => {
    const findings = Array.from({ length: 400 }, (_, i) =>
      createFinding({
        category: i % 2 === 0 ? 'STALE_TASK' : 'ORCH_FAILURE',
        subject: `s-${i}`,
        line: `STALE TASK: bd-${i} '${'x'.repeat(200)}'`,
        action: `Check on bd-${i}`,
        short: `bd-${i}`,
      }),
    );
    expect(DEFAULT_HEARTBEAT_CONFIG.actionableBudgetTokens).toBe(10_000);
    const rendered = renderWorkFound(input(findings, DEFAULT_HEARTBEAT_CONFIG.actionableBudgetTokens));
    expect(rendered.estimatedTokens).toBeLessThanOrEqual(10_000);
    expect(rendered.omitted).toBeGreaterThan(0);
    expect(rendered.message.content).toMatch(/^\+\d+ more STALE_TASK$/m);
  });
});

describe('a UTC report needs no ICU data (issue 16: ~8 MiB of peak RSS per cycle)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('renders the report and the cost alert without Intl or toLocaleString, exactly as Intl would', () => {
    const findings = Array.from({ length: 60 }, (_, i) =>
      createFinding({
        category: COBUILDER_CATEGORIES[i % COBUILDER_CATEGORIES.length]!,
        subject: `s-${i}`,
        line: `line ${i} ${'y'.repeat(300)}`,
        action: `act ${i}`,
        short: `s-${i}`,
      }),
    );
    const stamp = intlTimestamp(at, 'UTC');
    const dateTimeFormat = vi.spyOn(Intl, 'DateTimeFormat');
    const toLocaleString = vi.spyOn(Number.prototype, 'toLocaleString');
    const rendered = renderWorkFound(input(findings, 1_000_000));
    const alert = renderCostAlert({ cycle: 7, tokens: 1_234_567, budgetTokens: 20_000, at });
    expect(dateTimeFormat).not.toHaveBeenCalled();
    expect(toLocaleString).not.toHaveBeenCalled();
    vi.restoreAllMocks();
    expect(rendered.message.content).toContain(`Heartbeat cycle #7 at ${stamp}`);
    expect(rendered.message.content).toContain(`Token cost this cycle: ~${rendered.estimatedTokens.toLocaleString('en-US')} tokens`);
    expect(alert.content).toContain('used ~1,234,567 tokens (budget: 20,000)');
  });

  it('groups every count as en-US toLocaleString does', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: 0, max: 100_000 }), fc.maxSafeInteger(), fc.integer({ min: -1_000_000_000, max: 0 })), (n) => {
        expect(renderCostAlert({ cycle: 1, tokens: n, budgetTokens: n, at }).content).toContain(
          `used ~${n.toLocaleString('en-US')} tokens (budget: ${n.toLocaleString('en-US')})`,
        );
      }),
    );
  });

  it('reads the UTC wall clock as Intl does, at any instant from year 1000 to 9999 and outside it', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date(-62_000_000_000_000), max: new Date(300_000_000_000_000), noInvalidDate: true }), (d) => {
        expect(
          renderWorkFound({
            ...input([createFinding({ category: 'STALE_TASK', subject: 's', line: 'l', action: 'a', short: 's' })], 10_000),
            at: d,
          }).message.content,
        ).toContain(`Heartbeat cycle #7 at ${intlTimestamp(d, 'UTC')}`);
      }),
    );
  });
});
