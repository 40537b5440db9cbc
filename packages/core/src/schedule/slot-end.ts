import type { CycleOutcome } from '../cycle/run-cycle.js';
import type { Pause } from '../operator/pause-model.js';
import type { HolderLiveness, LockError, LockRecord } from '../ports/lock-store.js';
import {
  pausedReceipt,
  ranReceipt,
  receiptForOutcome,
  skippedReceipt,
  type RanCycle,
  type RanReceipt,
  type Receipt,
  type ReceiptSource,
} from './receipts.js';

/**
 * How one slot ended. Each ending is exactly one receipt ({@link slotReceipt}): adding a kind of
 * ending here, with its case there, is the whole change for every runner (cycle, loop, fleet).
 */
export type SlotEnd =
  /** The cycle ran (a dry run's outcome gives a `dry-run` skip). `pause`: a partial pause it honoured. */
  | { readonly kind: 'ran'; readonly outcome: CycleOutcome; readonly pause?: Pause | undefined; readonly checks?: readonly string[] }
  /** The cycle ran as one step of a runner that records its own delivery (the fleet's queued report). */
  | { readonly kind: 'ran-step'; readonly step: RanCycle; readonly pause?: Pause | undefined; readonly checks?: readonly string[] }
  /**
   * A runner's own work ran, not a heartbeat cycle (WoterClip's beat): `count` is the receipt's
   * `cycle`; `cutOff`: a signal stopped it before the end (a partial `ran`).
   */
  | {
      readonly kind: 'ran-work';
      readonly count: number;
      readonly status: RanReceipt['status'];
      readonly delivery: RanReceipt['delivery'];
      readonly cutOff?: readonly string[] | undefined;
    }
  /** The operator's pause skipped the whole slot. */
  | { readonly kind: 'paused'; readonly pause: Pause; readonly line?: string }
  /** Another live cycle holds the lock: the lock working as meant. */
  | { readonly kind: 'overlapping'; readonly detail: string; readonly holder?: LockRecord; readonly liveness?: HolderLiveness }
  /** The lock could not be taken (I/O error, unreadable lock). */
  | { readonly kind: 'lock-unavailable'; readonly detail: string; readonly error?: LockError }
  /** The stored state was refused (a newer version's, or one that did not fit): nothing ran. */
  | { readonly kind: 'state-refused'; readonly detail: string }
  /** The configuration could not be read: nothing ran. */
  | { readonly kind: 'config-error'; readonly detail: string }
  /** A runner's own reasons not to run (WoterClip's quiet hours, its dispatch breaker) and a rehearsal. */
  | { readonly kind: 'quiet-hours' | 'breaker-open' | 'dry-run'; readonly detail: string };

/** The slot a receipt closes, when it was written and by whom. */
export interface SlotStamp {
  readonly slotMs: number;
  readonly atMs: number;
  readonly source: ReceiptSource;
  /** The source's own record of the slot (its `sourceDetail`, validated by the source); absent: none. */
  readonly sourceDetail?: Readonly<Record<string, unknown>> | undefined;
}

/** The one receipt of a slot's ending: the single place an ending becomes a record. */
export function slotReceipt(end: SlotEnd, stamp: SlotStamp): Receipt {
  const { sourceDetail, ...at } = stamp;
  const receipt = endingReceipt(end, at);
  return sourceDetail === undefined ? receipt : { ...receipt, sourceDetail: { ...sourceDetail } };
}

/** A `ran` receipt of a runner's own work (no scans, checks or routes to record). */
function ranWorkReceipt(end: Extract<SlotEnd, { kind: 'ran-work' }>, stamp: SlotStamp): RanReceipt {
  const cutOff = end.cutOff ?? [];
  return {
    v: 1,
    slot: new Date(stamp.slotMs).toISOString(),
    at: new Date(stamp.atMs).toISOString(),
    source: stamp.source,
    kind: 'ran',
    cycle: end.count,
    status: end.status,
    delivery: end.delivery,
    // It ran (liveness counts it) but a signal stopped it before the end: history says partial.
    ...(cutOff.length === 0 ? {} : { partial: true as const, cutOff: cutOff.slice(0, 50).map((name) => name.slice(0, 100)) }),
  };
}

function endingReceipt(end: SlotEnd, stamp: SlotStamp): Receipt {
  switch (end.kind) {
    case 'ran':
      return receiptForOutcome(end.outcome, { ...stamp, pause: end.pause }, { checks: end.checks ?? [] });
    case 'ran-step':
      return ranReceipt(end.step, { ...stamp, pause: end.pause }, { checks: end.checks ?? [] });
    case 'ran-work':
      return ranWorkReceipt(end, stamp);
    case 'paused':
      return pausedReceipt(end.pause, stamp);
    case 'overlapping':
    case 'lock-unavailable':
    case 'state-refused':
    case 'config-error':
    case 'quiet-hours':
    case 'breaker-open':
    case 'dry-run':
      return skippedReceipt(end.kind, { ...stamp, detail: end.detail });
  }
}
