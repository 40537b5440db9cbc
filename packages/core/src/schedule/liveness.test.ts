import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgeLiveness } from './liveness.js';
import { SKIP_REASON_NAMES, skippedReceipt, type Receipt } from './receipts.js';

const T0 = Date.parse('2026-02-19T10:00:00Z');
const MIN = 60_000;

function ran(atMs: number, cycle = 1): Receipt {
  const at = new Date(atMs).toISOString();
  return { v: 1, kind: 'ran', slot: at, at, source: 'loop', cycle, status: 'ok', delivery: 'none' };
}

const receiptArb = fc.oneof(
  fc.integer({ min: 0, max: 600 }).map((m) => ran(T0 + m * MIN)),
  fc.tuple(fc.integer({ min: 0, max: 600 }), fc.constantFrom(...SKIP_REASON_NAMES)).map(([m, reason]) => skippedReceipt(reason, { slotMs: T0 + m * MIN, atMs: T0 + m * MIN, source: 'cycle' })),
);

function messageOf(verdict: ReturnType<typeof judgeLiveness>): string {
  return verdict.live ? '' : verdict.message;
}

describe('judgeLiveness', () => {
  it('alive exactly when a ran receipt is at most maxAge old, whatever else happened', () => {
    fc.assert(
      fc.property(fc.array(receiptArb, { maxLength: 30 }), fc.integer({ min: 0, max: 700 }), fc.integer({ min: 1, max: 120 }), fc.option(fc.integer({ min: 0, max: 700 })), (receipts, nowMin, maxAgeMin, lockMin) => {
        const nowMs = T0 + nowMin * MIN;
        const lock = lockMin === null ? undefined : { owner: 'x', acquiredAtMs: T0 + lockMin * MIN };
        const verdict = judgeLiveness(receipts, { nowMs, maxAgeMs: maxAgeMin * MIN, lock });
        const expected = receipts.some((r) => r.kind === 'ran' && nowMs - Date.parse(r.at) <= maxAgeMin * MIN);
        expect(verdict.live).toBe(expected);
        if (!verdict.live && receipts.length === 0 && lock === undefined) expect(verdict.reason).toBe('never-ran');
      }),
    );
  });

  it('names why: stuck lock, all skipped (with counts), stopped, never ran', () => {
    const at = (m: number) => T0 + m * MIN;
    expect(judgeLiveness([], { nowMs: at(0), maxAgeMs: 30 * MIN })).toMatchObject({ live: false, reason: 'never-ran' });
    expect(judgeLiveness([ran(at(0))], { nowMs: at(20), maxAgeMs: 30 * MIN })).toMatchObject({ live: true, ageMs: 20 * MIN });
    expect(judgeLiveness([ran(at(0))], { nowMs: at(90), maxAgeMs: 30 * MIN })).toMatchObject({ live: false, reason: 'stopped', message: 'nothing recorded for 90 min: the loop or its scheduler has stopped. Last ran 2026-02-19T10:00:00.000Z (cycle #1, 90 min ago).' });
    const skips = [ran(at(0)), ...[70, 80].map((m) => skippedReceipt('overlapping', { slotMs: at(m), atMs: at(m), source: 'cycle' }))];
    expect(judgeLiveness(skips, { nowMs: at(90), maxAgeMs: 30 * MIN })).toMatchObject({ live: false, reason: 'all-skipped' });
    expect(messageOf(judgeLiveness(skips, { nowMs: at(90), maxAgeMs: 30 * MIN }))).toMatch(/^every recent slot was skipped: 2 × overlapping/);
    expect(judgeLiveness(skips, { nowMs: at(90), maxAgeMs: 30 * MIN, lock: { owner: '123-abc', acquiredAtMs: at(5) } })).toMatchObject({ live: false, reason: 'lock-stuck' });
    expect(messageOf(judgeLiveness(skips, { nowMs: at(90), maxAgeMs: 30 * MIN, lock: { owner: '123-abc', acquiredAtMs: at(5) } }))).toMatch(/^the cycle lock has been held by 123-abc for 85 min/);
  });
});
