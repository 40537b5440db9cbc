import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Finding } from '../domain/finding.js';
import type { JsonValue } from '../domain/json.js';
import { sanitizeForMessage } from '../text/sanitize.js';
import { stableFindingId, stableMessageId } from './message-id.js';
import { renderWorkFound } from './render-messages.js';
import { createFinding, COBUILDER_CATEGORIES } from '../../test/support/cobuilder-categories.js';

const at = new Date('2026-02-19T14:50:00Z');

// Never null: a null content means "the details" (findingContentHash falls back to them).
const contentArb: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.integer(),
  fc.string({ maxLength: 12 }),
  fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.oneof(fc.integer(), fc.string({ maxLength: 8 })), { maxKeys: 3 }),
);
const findingArb = fc
  .record({
    category: fc.constantFrom(...COBUILDER_CATEGORIES),
    subject: fc.string({ minLength: 1, maxLength: 24 }),
    line: fc.string({ minLength: 1, maxLength: 80 }),
    content: contentArb,
  })
  .map((x) => createFinding({ ...x, action: `Look at ${x.subject}`, short: x.subject }));
// Findings with distinct fingerprints: a cycle never reports one fingerprint twice.
const distinctFindings = (max: number) => fc.uniqueArray(findingArb, { maxLength: max, selector: (f) => f.fingerprint });

const shown = (f: Finding): string => sanitizeForMessage(f.fingerprint, { maxLength: 300 });

/** The id a report gives `finding` when it is sent together with `others` (found by its fingerprint as the report shows it). */
function idIn(finding: Finding, others: readonly Finding[], budgetTokens: number): string | undefined {
  const findings = [...others.filter((o) => shown(o) !== shown(finding)), finding];
  const message = renderWorkFound({ findings, cycle: 3, at, timeZone: 'UTC', budgetTokens }).message;
  const entries = message.findings?.filter((f) => f.fingerprint === shown(finding)) ?? [];
  expect(entries).toHaveLength(1);
  return entries[0]?.id;
}

describe('per-finding ids (issue 25 item 5)', () => {
  it('a finding keeps its id whatever other findings a report holds: adding or removing others never changes it (property)', () => {
    fc.assert(
      fc.property(
        findingArb,
        distinctFindings(12),
        distinctFindings(12),
        fc.integer({ min: 0, max: 2_000 }),
        (finding, before, after, budget) => {
          const alone = idIn(finding, [], budget);
          expect(alone).toBe(stableFindingId(finding));
          expect(idIn(finding, before, budget)).toBe(alone);
          expect(idIn(finding, after, budget)).toBe(alone);
          // The message id, by design, follows the set: it is the id of the whole message.
        },
      ),
      { numRuns: 300 },
    );
  });

  it('every finding of a report is in `findings` with its id, also those the budget cut from the text', () => {
    fc.assert(
      fc.property(distinctFindings(40), fc.integer({ min: 0, max: 400 }), (findings, budget) => {
        fc.pre(findings.length > 0);
        const rendered = renderWorkFound({ findings, cycle: 3, at, timeZone: 'UTC', budgetTokens: budget });
        const ids = rendered.message.findings?.map((f) => f.id) ?? [];
        expect([...ids].sort()).toEqual(findings.map(stableFindingId).sort());
        expect(new Set(ids).size).toBe(findings.length);
      }),
      { numRuns: 200 },
    );
  });

  it('the id changes with the fingerprint or the content, and with nothing else (the line, details left out of content, the priority)', () => {
    fc.assert(
      fc.property(findingArb, contentArb, fc.string({ maxLength: 40 }), (finding, content, line) => {
        const id = stableFindingId(finding);
        // What grows by itself stays out: the line and the details a scanner keeps out of content.
        expect(stableFindingId({ ...finding, line, details: { minutes: line.length } })).toBe(id);
        const changed = JSON.stringify(content) !== JSON.stringify(finding.content);
        if (changed) expect(stableFindingId({ ...finding, content })).not.toBe(id);
        expect(stableFindingId({ ...finding, fingerprint: `${finding.fingerprint}x` })).not.toBe(id);
      }),
      { numRuns: 300 },
    );
  });

  it('an idle orchestrator at 45 and at 60 minutes is one id; the same pane quiet again after it moved is a new one', () => {
    const idle = (minutes: number, sinceMs: number) =>
      createFinding({
        category: 'ORCH_IDLE',
        subject: 'orch-auth',
        line: `IDLE: orch-auth (no pane change for ${minutes} min)`,
        action: 'Check orch-auth',
        short: 'orch-auth idle',
        details: { session: 'orch-auth', quietMinutes: minutes, sinceMs },
        content: { sinceMs },
      });
    expect(stableFindingId(idle(45, 1000))).toBe(stableFindingId(idle(60, 1000)));
    expect(stableFindingId(idle(45, 1000))).not.toBe(stableFindingId(idle(45, 9000)));
    expect(stableFindingId(idle(45, 1000))).toMatch(/^hbf-[0-9a-f]{28}$/);
  });

  it('keeps the message id for the whole message: it follows the set and the reports sent before', () => {
    const a = createFinding({ category: 'P0_WORK_READY', subject: 'beads-a', line: 'a', action: 'a', short: 'a' });
    const b = createFinding({ category: 'P0_WORK_READY', subject: 'beads-b', line: 'b', action: 'b', short: 'b' });
    expect(stableMessageId('work_found', [a, b], 0)).toBe(stableMessageId('work_found', [b, a], 0));
    expect(stableMessageId('work_found', [a], 0)).not.toBe(stableMessageId('work_found', [a, b], 0));
    expect(stableMessageId('work_found', [a], 0)).not.toBe(stableMessageId('work_found', [a], 1));
  });
});
