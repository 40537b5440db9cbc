import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isWithinActiveHours } from '../active-hours/active-hours.js';
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
  fc
    .tuple(fc.integer({ min: 0, max: 600 }), fc.constantFrom(...SKIP_REASON_NAMES))
    .map(([m, reason]) => skippedReceipt(reason, { slotMs: T0 + m * MIN, atMs: T0 + m * MIN, source: 'cycle' })),
);

function messageOf(verdict: ReturnType<typeof judgeLiveness>): string {
  return verdict.live ? '' : verdict.message;
}

describe('judgeLiveness', () => {
  it('alive, but says nobody was told when the last cycle held or failed its report, with the why (issue 29)', () => {
    const held: Receipt = {
      ...ran(T0 - 5 * MIN, 7),
      status: 'report',
      delivery: 'held',
      why: 'tmux pane =agent: has typed-but-unsent input',
    } as Receipt;
    const verdict = judgeLiveness([held], { nowMs: T0, maxAgeMs: 30 * MIN });
    expect(verdict.live && verdict.notes.join()).toContain(
      'the last cycle held its report back (tmux pane =agent: has typed-but-unsent input): nobody was told yet',
    );
    const failed: Receipt = { ...ran(T0 - 5 * MIN, 7), status: 'report', delivery: 'failed', why: 'HTTP 503' } as Receipt;
    const failedVerdict = judgeLiveness([failed], { nowMs: T0, maxAgeMs: 30 * MIN });
    expect(failedVerdict.live && failedVerdict.notes.join()).toContain('could not deliver its report (HTTP 503): nobody was told');
  });

  it('a last run dated in the future is reported as such, never as a negative age (issue 26)', () => {
    const verdict = judgeLiveness([ran(T0 + 368 * MIN, 4)], { nowMs: T0, maxAgeMs: 30 * MIN });
    expect(verdict).toMatchObject({ live: false, reason: 'future-dated' });
    expect(messageOf(verdict)).toContain('the last cycle (#4) is dated in the future, 2026-02-19T16:08:00.000Z, 6 h 8 min after now');
    expect(messageOf(verdict)).not.toMatch(/-\d+ (min|h)/);
    // A recent run before now keeps it alive; the future one is a note.
    const alive = judgeLiveness([ran(T0 - 5 * MIN, 3), ran(T0 + 368 * MIN, 4)], { nowMs: T0, maxAgeMs: 30 * MIN });
    expect(alive).toMatchObject({ live: true, ageMs: 5 * MIN, lastRan: { cycle: 3 } });
    expect(alive.live && alive.notes.join()).toContain('dated in the future');
  });

  it('alive exactly when a ran receipt is at most maxAge old, whatever else happened', () => {
    fc.assert(
      fc.property(
        fc.array(receiptArb, { maxLength: 30 }),
        fc.integer({ min: 0, max: 700 }),
        fc.integer({ min: 1, max: 120 }),
        fc.option(fc.integer({ min: 0, max: 700 })),
        (receipts, nowMin, maxAgeMin, lockMin) => {
          const nowMs = T0 + nowMin * MIN;
          const lock = lockMin === null ? undefined : { owner: 'x', acquiredAtMs: T0 + lockMin * MIN };
          const verdict = judgeLiveness(receipts, { nowMs, maxAgeMs: maxAgeMin * MIN, lock });
          // A run dated later than now proves nothing about now (issue 26): only past runs count.
          const expected = receipts.some(
            (r) => r.kind === 'ran' && Date.parse(r.at) <= nowMs && nowMs - Date.parse(r.at) <= maxAgeMin * MIN,
          );
          expect(JSON.stringify(verdict)).not.toMatch(/-\d+ min/);
          expect(verdict.live).toBe(expected);
          if (!verdict.live && receipts.length === 0 && lock === undefined) expect(verdict.reason).toBe('never-ran');
        },
      ),
    );
  });

  it('names why: stuck lock, all skipped (with counts), stopped, never ran', () => {
    const at = (m: number) => T0 + m * MIN;
    expect(judgeLiveness([], { nowMs: at(0), maxAgeMs: 30 * MIN })).toMatchObject({ live: false, reason: 'never-ran' });
    expect(judgeLiveness([ran(at(0))], { nowMs: at(20), maxAgeMs: 30 * MIN })).toMatchObject({ live: true, ageMs: 20 * MIN });
    expect(judgeLiveness([ran(at(0))], { nowMs: at(90), maxAgeMs: 30 * MIN })).toMatchObject({
      live: false,
      reason: 'stopped',
      message:
        'nothing recorded for 90 min: the loop or its scheduler has stopped. Last ran 2026-02-19T10:00:00.000Z (cycle #1, 90 min ago).',
    });
    const skips = [ran(at(0)), ...[70, 80].map((m) => skippedReceipt('overlapping', { slotMs: at(m), atMs: at(m), source: 'cycle' }))];
    expect(judgeLiveness(skips, { nowMs: at(90), maxAgeMs: 30 * MIN })).toMatchObject({ live: false, reason: 'all-skipped' });
    expect(messageOf(judgeLiveness(skips, { nowMs: at(90), maxAgeMs: 30 * MIN }))).toMatch(
      /^every recent slot was skipped: 2 × overlapping/,
    );
    expect(judgeLiveness(skips, { nowMs: at(90), maxAgeMs: 30 * MIN, lock: { owner: '123-abc', acquiredAtMs: at(5) } })).toMatchObject({
      live: false,
      reason: 'lock-stuck',
    });
    expect(messageOf(judgeLiveness(skips, { nowMs: at(90), maxAgeMs: 30 * MIN, lock: { owner: '123-abc', acquiredAtMs: at(5) } }))).toMatch(
      /^the cycle lock has been held by 123-abc for 85 min/,
    );
    // A WoterClip beat names itself: the caller's words, never a rewrite of "cycle" afterwards.
    const beat = { run: 'WoterClip beat', lock: 'WoterClip lock' };
    const stuck = { nowMs: at(90), maxAgeMs: 30 * MIN, lock: { owner: '123-abc', acquiredAtMs: at(5) }, terms: beat };
    expect(messageOf(judgeLiveness(skips, stuck))).toMatch(
      /^the WoterClip lock has been held by 123-abc for 85 min\. Last ran .* \(WoterClip beat #/,
    );
    expect(messageOf(judgeLiveness([], { nowMs: at(90), maxAgeMs: 30 * MIN, terms: beat }))).toBe(
      'no receipts: no WoterClip beat has run for this state yet.',
    );
  });
});

describe('judgeLiveness with expectedAt (issue 15 item 7: time outside active hours is not missed)', () => {
  // 2026-02-20 is a Friday; the window is Mon-Fri 08:30-18:15 UTC.
  const window = { start: '08:30', end: '18:15', weekend: false, days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'] as const, timeZone: 'UTC' };
  const expectedAt = (ms: number) => isWithinActiveHours(new Date(ms), { ...window, days: [...window.days] });
  const lastFriday = ran(Date.parse('2026-02-20T18:10:00Z'));

  it('a weekend and the nights around it do not age the last run; the first 30 active minutes on Monday do', () => {
    const judge = (iso: string) => judgeLiveness([lastFriday], { nowMs: Date.parse(iso), maxAgeMs: 30 * MIN, expectedAt });
    expect(judge('2026-02-23T08:30:00Z')).toMatchObject({ live: true, ageMs: 5 * MIN }); // Friday 18:10-18:15 counted
    expect(judge('2026-02-23T08:55:00Z')).toMatchObject({ live: true, ageMs: 30 * MIN });
    expect(judge('2026-02-23T08:56:00Z')).toMatchObject({ live: false, reason: 'stopped' });
    // Without expectedAt the same weekend is 'stopped'.
    expect(judgeLiveness([lastFriday], { nowMs: Date.parse('2026-02-23T08:30:00Z'), maxAgeMs: 30 * MIN })).toMatchObject({
      live: false,
      reason: 'stopped',
    });
  });

  it('property: counting only expected time never makes a live heartbeat dead, and always-expected is the plain rule', () => {
    fc.assert(
      fc.property(
        fc.array(receiptArb, { maxLength: 20 }),
        fc.integer({ min: 0, max: 700 }),
        fc.integer({ min: 1, max: 120 }),
        (receipts, nowMin, maxAgeMin) => {
          const base = { nowMs: T0 + nowMin * MIN, maxAgeMs: maxAgeMin * MIN };
          const plain = judgeLiveness(receipts, base);
          expect(judgeLiveness(receipts, { ...base, expectedAt: () => true }).live).toBe(plain.live);
          if (plain.live) expect(judgeLiveness(receipts, { ...base, expectedAt }).live).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('judgeLiveness with operator pauses', () => {
  const T = Date.parse('2026-02-19T10:00:00Z');
  const at = (ms: number) => new Date(ms).toISOString();
  const ran: Receipt = { v: 1, kind: 'ran', slot: at(T), at: at(T), source: 'loop', cycle: 4, status: 'ok', delivery: 'none' };
  const paused = (ms: number): Receipt => ({
    v: 1,
    kind: 'paused',
    slot: at(ms),
    at: at(ms),
    source: 'loop',
    note: 'deploy',
    since: at(T),
  });

  it('recent paused slots after the last run keep it alive, with a note naming the pause', () => {
    const verdict = judgeLiveness([ran, paused(T + 3_600_000)], { nowMs: T + 3_700_000, maxAgeMs: 30 * 60_000 });
    expect(verdict.live).toBe(true);
    if (verdict.live) expect(verdict.notes.join(' ')).toContain('paused by an operator');
  });

  it('paused slots that stopped coming are not alive', () => {
    const verdict = judgeLiveness([ran, paused(T + 3_600_000)], { nowMs: T + 7_200_000, maxAgeMs: 30 * 60_000 });
    expect(verdict).toMatchObject({ live: false, reason: 'stopped' });
  });
});
