import type { LockRecord, Receipt } from '@heartbeat-kit/core';
import type { ScannerBreaker, SlotStamp } from '@heartbeat-kit/core/host';
import type { BeatResult } from './beat-types.js';
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

/** What {@link beatStamp} needs besides the result. */
export interface BeatSlot {
  readonly slotMs: number;
  readonly atMs: number;
  /** The beat's number and the breaker it leaves, for a beat that counts (ran or held back). */
  readonly beat?: { readonly n: number; readonly breaker?: ScannerBreaker | undefined; readonly line?: string | undefined };
}

/** The beat's own record of its slot (`sourceDetail`), for a beat that counts. */
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
 * The stamp of a beat's receipt: its slot, when, and its own record (a beat that counts). The
 * ending itself is the slot planner's (beat-walk.ts); core's slotReceipt makes the receipt.
 */
export function beatStamp(slot: BeatSlot, result: BeatResult): SlotStamp {
  return { slotMs: slot.slotMs, atMs: slot.atMs, source: BEAT_RECEIPT_SOURCE, sourceDetail: beatDetail(result, slot) };
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
