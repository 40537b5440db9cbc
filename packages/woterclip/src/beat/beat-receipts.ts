import type { LockRecord, Receipt } from '@heartbeat-kit/core';
import { type ScannerBreaker, type SlotEnd, type SlotStamp, slotReceipt } from '@heartbeat-kit/core/host';
import type { BeatExit, BeatResult } from './beat-types.js';
import { BEAT_RECEIPT_SOURCE, beatDetailOf, type BeatDetail } from './beat-detail.js';

/** What the newest WoterClip receipt hands to the next beat. */
export interface PriorBeatState {
  /** The number of the last counted beat (0 when none is recorded). */
  readonly n: number;
  /** The dispatch breaker it left (absent: closed). */
  readonly breaker?: ScannerBreaker;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * The beat count and dispatch breaker the newest counted WoterClip beat left in its receipt.
 * Receipts that did not count a beat (quiet hours, lock held, dry run, config error) carry no
 * state and are passed over.
 */
export function priorBeatState(receipts: readonly Receipt[]): PriorBeatState {
  let best: { readonly atMs: number; readonly state: PriorBeatState } | undefined;
  for (const r of receipts) {
    const beat = beatDetailOf(r);
    if (beat === undefined) continue;
    const atMs = Date.parse(r.at);
    if (best !== undefined && (best.atMs > atMs || (best.atMs === atMs && best.state.n >= beat.n))) continue;
    best = { atMs, state: { n: beat.n, ...(beat.breaker === undefined ? {} : { breaker: beat.breaker }) } };
  }
  return best?.state ?? { n: 0 };
}

/**
 * The slot a beat closes: its start, to the second, which is the `started_epoch` its lock
 * carries, so the beat that later finds the lock left behind names the same slot.
 */
export function beatSlotMs(startMs: number, beatId?: string): number {
  const epoch = beatId === undefined ? undefined : /^(\d+)-/.exec(beatId)?.[1];
  return epoch === undefined ? Math.floor(startMs / 1000) * 1000 : Number(epoch) * 1000;
}

const SKIPPED_BY_EXIT: Partial<Record<BeatExit, Exclude<SlotEnd['kind'], 'ran' | 'ran-step' | 'ran-work' | 'paused'>>> = {
  'config-missing': 'config-error',
  'config-invalid': 'config-error',
  usage: 'config-error',
  'lock-error': 'lock-unavailable',
  'lock-conflict': 'overlapping',
  'quiet-hours': 'quiet-hours',
  'breaker-open': 'breaker-open',
};

/** What {@link receiptForBeat} needs besides the result. */
export interface BeatSlot {
  readonly slotMs: number;
  readonly atMs: number;
  readonly dryRun: boolean;
  /** The beat's number and the breaker it leaves, for a beat that counts (ran or held back). */
  readonly beat?: { readonly n: number; readonly breaker?: ScannerBreaker | undefined; readonly line?: string | undefined };
}

/** How a beat ended, as a slot ends: core's ending and the beat's own record of it. */
export interface BeatEnding {
  readonly end: SlotEnd;
  /** The beat's `sourceDetail`, for a beat that counts. */
  readonly sourceDetail?: BeatDetail;
}

function beatDetail(result: BeatResult, slot: BeatSlot): BeatDetail | undefined {
  if (slot.beat === undefined) return undefined;
  return {
    n: slot.beat.n,
    end: result.stopReason ?? result.exit,
    ...(result.worked.length === 0 ? {} : { worked: result.worked.slice(0, 50).map((w) => ({ issue: w.issue, status: w.status })) }),
    ...(result.reportNotPosted === undefined ? {} : { reportNotPosted: result.reportNotPosted }),
    ...(slot.beat.breaker === undefined ? {} : { breaker: slot.beat.breaker }),
    ...(slot.beat.line === undefined ? {} : { breakerLine: slot.beat.line.slice(0, 500) }),
  };
}

/**
 * A beat's ending: a skip with its reason when it did no work (dry run, config error, lock held
 * elsewhere or unreadable, quiet hours, dispatch breaker open), otherwise `ran-work` with its count,
 * whether it reported and whether the report comments were posted. A beat that lost its lock to a
 * successor has none: the successor recorded its slot as abandoned.
 */
export function beatEnding(result: BeatResult, slot: BeatSlot): BeatEnding | undefined {
  if (result.exit === 'superseded') return undefined;
  const detail = (result.messages.join(' ') || result.exit).slice(0, 500);
  const beat = beatDetail(result, slot);
  const withDetail = (end: SlotEnd): BeatEnding => (beat === undefined ? { end } : { end, sourceDetail: beat });
  if (slot.dryRun) return { end: { kind: 'dry-run', detail: `would have ended ${result.stopReason ?? result.exit}` } };
  const kind = SKIPPED_BY_EXIT[result.exit];
  if (kind !== undefined) return withDetail({ kind, detail });
  return withDetail({
    kind: 'ran-work',
    count: slot.beat?.n ?? 0,
    status: result.worked.length === 0 ? 'ok' : 'report',
    delivery: result.reportNotPosted !== undefined ? 'failed' : result.worked.length > 0 ? 'delivered' : 'none',
    ...(result.exit === 'interrupted'
      ? { cutOff: [result.interruptedIssue === undefined ? 'the beat' : `#${result.interruptedIssue}`] }
      : {}),
  });
}

/** The stamp of a beat's receipt: its slot, when, and its own record. */
export function beatStamp(slot: BeatSlot, ending: BeatEnding): SlotStamp {
  return { slotMs: slot.slotMs, atMs: slot.atMs, source: BEAT_RECEIPT_SOURCE, sourceDetail: ending.sourceDetail };
}

/**
 * The one receipt a beat leaves: its {@link beatEnding} through core's slotReceipt, the mapping
 * every runner's endings go through.
 */
export function receiptForBeat(result: BeatResult, slot: BeatSlot): Receipt | undefined {
  const ending = beatEnding(result, slot);
  return ending === undefined ? undefined : slotReceipt(ending.end, beatStamp(slot, ending));
}

/**
 * The receipt of a beat that never finished, written by the beat that took its stale lock over;
 * none when that beat's slot already has a receipt (it was killed after writing it).
 */
export function abandonedReceipt(holder: LockRecord, atMs: number, existing: readonly Receipt[]): Receipt | undefined {
  const slot = iso(holder.acquiredAtMs);
  if (existing.some((r) => r.source === BEAT_RECEIPT_SOURCE && r.slot === slot)) return undefined;
  return {
    v: 1,
    kind: 'skipped',
    slot,
    at: iso(atMs),
    source: BEAT_RECEIPT_SOURCE,
    reason: 'abandoned',
    detail: `beat ${holder.owner.slice(0, 100)} took the lock at ${slot} and never released it; this beat took it over as stale`,
  };
}
