import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { COBUILDER_CATEGORIES } from '../domain/categories.js';
import { createFinding } from '../domain/finding.js';
import { DEFAULT_HEARTBEAT_CONFIG } from '../config/heartbeat-config-schema.js';
import { renderWorkFound, type WorkFoundInput } from './render-messages.js';

const at = new Date('2026-02-19T14:50:00Z');
const findingArb = fc.record({
  category: fc.constantFrom(...COBUILDER_CATEGORIES),
  subject: fc.string({ minLength: 1, maxLength: 20 }),
  line: fc.string({ minLength: 1, maxLength: 320 }),
  action: fc.string({ minLength: 1, maxLength: 120 }),
});
const findingsArb = fc.array(findingArb, { minLength: 1, maxLength: 120 }).map((xs) => xs.map((x, i) => createFinding({ ...x, subject: `${x.subject}-${i}`, short: x.subject })));
const input = (findings: WorkFoundInput['findings'], budgetTokens: number): WorkFoundInput => ({ findings, cycle: 7, at, timeZone: 'UTC', budgetTokens });

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
      createFinding({ category: i % 2 === 0 ? 'STALE_TASK' : 'ORCH_FAILURE', subject: `s-${i}`, line: `STALE TASK: bd-${i} '${'x'.repeat(200)}'`, action: `Check on bd-${i}`, short: `bd-${i}` }),
    );
    expect(DEFAULT_HEARTBEAT_CONFIG.actionableBudgetTokens).toBe(10_000);
    const rendered = renderWorkFound(input(findings, DEFAULT_HEARTBEAT_CONFIG.actionableBudgetTokens));
    expect(rendered.estimatedTokens).toBeLessThanOrEqual(10_000);
    expect(rendered.omitted).toBeGreaterThan(0);
    expect(rendered.message.content).toMatch(/^\+\d+ more STALE_TASK$/m);
  });
});
