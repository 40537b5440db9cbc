import type { ScannerBreaker, SlotEnd } from '@heartbeat-kit/core/host';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { beatReceiptView } from './beat-detail.js';
import { planBeatRecord, type BeatRecordInput } from './beat-record.js';
import type { DispatchVerdict } from './dispatch-breaker.js';
import { skipDetail } from './beat-session.js';
import { EMPTY_SUMMARY } from './beat-summary.js';
import type { BeatExit, BeatResult } from './beat-types.js';
import { workFact } from './beat-walk.js';

const NOW = new Date('2026-07-22T10:05:00Z');
const START = Date.parse('2026-07-22T10:00:00Z');
const settings = { after: 3, backoffCap: 8 };
const failed: DispatchVerdict = { ok: false, kind: 'failed', message: 'dispatch exited 1', issue: 12 };
const result = (exit: BeatExit, extra: Partial<BeatResult> = {}): BeatResult => ({
  exit,
  messages: [],
  warnings: [],
  worked: [],
  suggestions: [],
  ...(exit === 'superseded' || exit === 'breaker-open' ? {} : { beatId: `${START / 1000}-42` }),
  ...extra,
});
/** The endings the slot planner gives the steps before the work (beat-walk.ts). */
const BEFORE_WORK: Partial<Record<BeatExit, 'config-error' | 'lock-unavailable' | 'overlapping' | 'breaker-open'>> = {
  'config-missing': 'config-error',
  'config-invalid': 'config-error',
  usage: 'config-error',
  'lock-error': 'lock-unavailable',
  'lock-conflict': 'overlapping',
  'breaker-open': 'breaker-open',
};
/** The slot's ending of a beat that ended with this result: its step's before the work, else the work's. */
function endOf(r: BeatResult, dryRun: boolean): SlotEnd | undefined {
  const kind = BEFORE_WORK[r.exit];
  if (kind !== undefined) return { kind, detail: skipDetail(r) };
  const fact = workFact({ result: r, summary: EMPTY_SUMMARY }, 5, dryRun);
  return fact.kind === 'recorded' ? undefined : fact.end;
}
const input = (r: BeatResult, over: Partial<BeatRecordInput> = {}): BeatRecordInput => ({
  result: r,
  end: endOf(r, over.dryRun ?? false),
  prior: { n: 4 },
  beat: 5,
  verdicts: [],
  settings,
  dryRun: false,
  startMs: START,
  now: NOW,
  existing: [],
  ...over,
});
const EXITS: readonly BeatExit[] = [
  'config-missing',
  'config-invalid',
  'usage',
  'lock-conflict',
  'lock-error',
  'quiet-hours',
  'dry-run',
  'queue-empty',
  'complete',
  'blocked-exit',
  'superseded',
  'withdrawn',
  'time-ceiling',
  'issue-budget',
  'breaker-open',
];

describe('planBeatRecord: the receipt decision of a beat', () => {
  it('a beat that ran counts, and its third identical failing beat trips the breaker: the advisory is a warning and in the receipt', () => {
    const prior: ScannerBreaker = {
      failures: 2,
      code: 'DISPATCH_FAILED: dispatch exited 1',
      message: 'dispatch exited 1',
      fix: 'fix it',
      sinceMs: START - 1_200_000,
      nextRunCycle: 5,
    } as ScannerBreaker;
    const plan = planBeatRecord(
      input(result('complete', { stopReason: 'complete' }), { prior: { n: 4, breaker: prior }, verdicts: [failed] }),
    );
    expect(plan.counted).toBe(true);
    expect(plan.breakerLine).toMatch(/^DISPATCH_FAILING: the agent dispatch failed the same way 3 beats in a row/);
    expect(plan.result.warnings).toEqual([plan.breakerLine]);
    expect(beatReceiptView(plan.own!)).toMatchObject({
      kind: 'ran',
      slot: '2026-07-22T10:00:00.000Z',
      beat: { n: 5, breakerLine: plan.breakerLine },
    });
  });

  it('a held-back beat counts, repeats its held-back line and keeps the breaker as it was', () => {
    const plan = planBeatRecord(input(result('breaker-open', { messages: ['dispatch breaker open: …'] })));
    expect(plan).toMatchObject({ counted: true, breakerLine: 'dispatch breaker open: …' });
    expect(beatReceiptView(plan.own!)).toMatchObject({ kind: 'skipped', reason: 'breaker-open', beat: { n: 5 } });
  });

  it('a stale lock taken over records its slot as abandoned before the own receipt, unless that slot has one', () => {
    const holder = { owner: '1784714400-7', acquiredAtMs: START - 6 * 3_600_000 } as never;
    const plan = planBeatRecord(input(result('queue-empty', { stopReason: 'queue_empty' }), { tookOverFrom: holder }));
    expect(plan.receipts.map((r) => (r.kind === 'skipped' ? r.reason : r.kind))).toEqual(['abandoned', 'ran']);
    const again = planBeatRecord(input(result('queue-empty'), { tookOverFrom: holder, existing: [plan.receipts[0]!] }));
    expect(again.receipts).toHaveLength(1);
  });

  it('property: every beat but a superseded one or a dry run leaves exactly one own receipt, last; only ran and held-back beats count', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...EXITS),
        fc.boolean(),
        fc.array(fc.constantFrom<DispatchVerdict>({ ok: true }, failed), { maxLength: 3 }),
        (exit, dryRun, verdicts) => {
          const plan = planBeatRecord(input(result(exit), { dryRun, verdicts }));
          if (exit === 'superseded' || dryRun) {
            // A dry run is a rehearsal: no receipt at all (issue 26).
            expect(plan.own).toBeUndefined();
            expect(plan.receipts).toEqual([]);
            return;
          }
          expect(plan.receipts.at(-1)).toBe(plan.own);
          expect(plan.receipts.filter((r) => r === plan.own)).toHaveLength(1);
          const ran = plan.own?.kind === 'ran';
          expect(plan.counted).toBe(exit === 'breaker-open' || ran);
          // A beat that does not count never moves the breaker nor says anything about it.
          if (!plan.counted) expect(plan.breakerLine).toBeUndefined();
        },
      ),
    );
  });
});
