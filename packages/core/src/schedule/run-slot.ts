import { okAsync, type Result } from 'neverthrow';
import type { CycleOutcome } from '../cycle/run-cycle.js';
import type { PauseDecision } from '../operator/pause-decision.js';
import type { Pause } from '../operator/pause-model.js';
import type { Clock } from '../ports/clock.js';
import type { AcquireRequest, HolderLiveness, LockError, LockRecord, LockStore } from '../ports/lock-store.js';
import type { ReceiptStore, ReceiptStoreError } from '../ports/receipt-store.js';
import { decideCronSlot } from './catch-up.js';
import {
  lastRecordedSlotMs,
  pausedReceipt,
  ranReceipt,
  receiptForOutcome,
  receiptForSkippedSlots,
  skippedReceipt,
  type RanCycle,
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
}

/** The one receipt of a slot's ending: the single place an ending becomes a record. */
export function slotReceipt(end: SlotEnd, stamp: SlotStamp): Receipt {
  switch (end.kind) {
    case 'ran':
      return receiptForOutcome(end.outcome, { ...stamp, pause: end.pause }, { checks: end.checks ?? [] });
    case 'ran-step':
      return ranReceipt(end.step, { ...stamp, pause: end.pause }, { checks: end.checks ?? [] });
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

/**
 * What a slot's body found: its ending (undefined: the slot already has its record, e.g. a retried
 * job whose slot ran) and what the runner needs to record it (`value`).
 */
export interface SlotBody<T> {
  readonly end: SlotEnd | undefined;
  readonly value?: T | undefined;
}

/** A slot's ending with its one receipt, handed to the runner that writes it. */
export interface SettledSlot<T> {
  readonly end: SlotEnd | undefined;
  /** The ending's receipt ({@link slotReceipt}); undefined when the body gave no ending. */
  readonly receipt: Receipt | undefined;
  /** The body's value; undefined when the body gave none. */
  readonly value: T | undefined;
}

/**
 * The I/O one runner supplies to {@link settleSlot}: its body (lock, state, work: whatever it
 * does), the stamp of the slot a receipt closes, and how it writes the receipt (an append, a
 * fenced commit with its state).
 */
export interface SlotSteps<T, R> {
  readonly body: () => Promise<SlotBody<T>>;
  readonly stamp: (end: SlotEnd, value: T | undefined) => SlotStamp;
  readonly record: (settled: SettledSlot<T>) => Promise<R>;
}

/**
 * The ending step every runner (cycle, loop, fleet job, WoterClip beat) goes through: run the
 * body, turn its ending into the slot's one receipt, hand both to the runner to write. Kept as
 * the single place an ending is decided and mapped, so a new kind of ending is one change here.
 */
export async function settleSlot<T, R>(steps: SlotSteps<T, R>): Promise<SettledSlot<T> & { readonly recorded: R }> {
  const body = await steps.body();
  const { end, value } = body;
  const receipt = end === undefined ? undefined : slotReceipt(end, steps.stamp(end, value));
  const settled = { end, receipt, value };
  return { ...settled, recorded: await steps.record(settled) };
}

/** A cron schedule's grid, to close the slots no run closed since the last receipt. */
export interface SlotGrid {
  readonly nextAfter: (ms: number) => number | undefined;
  readonly atOrBefore: (ms: number) => number | undefined;
}

/** The ports a slot runs over: a clock, the receipts, and the lock (none: a rehearsal). */
export interface SlotPorts {
  readonly clock: Clock;
  /** Where the slot's receipt goes; undefined writes none (a dry run). */
  readonly receipts?: ReceiptStore | undefined;
  /**
   * The lock two runs of one state never hold at once; undefined runs without (a rehearsal writes
   * nothing a real run reads). The request (owner, instant, staleness) is the caller's.
   */
  readonly lock?: { readonly store: LockStore; readonly request: AcquireRequest; readonly detail: string } | undefined;
}

/** What one slot does; only `run` is required. */
export interface SlotPlan {
  readonly source: ReceiptSource;
  /** The slot this run closes (a loop's grid slot). Default: the cron slot, else the cycle's instant. */
  readonly slotMs?: number | undefined;
  /** Closes the grid's missed slots under the lock (a cron `cycle`), and names the slot this run closes. */
  readonly grid?: SlotGrid | undefined;
  /** The operator's pause, read once under the lock. Default: run. */
  readonly pause?: ((nowMs: number) => Promise<PauseDecision>) | undefined;
  /** Runs the cycle under the lock, with the pause it honours in part (or `run`). */
  readonly run: (pause: Exclude<PauseDecision, { kind: 'skip' }>, slotMs: number | undefined) => Promise<CycleOutcome>;
  /** The check names, for the `ran` receipt. */
  readonly checks?: readonly string[] | undefined;
  /**
   * Called once the ending is known and before its receipt is written (an off-host ping, a plan
   * for the next run): what it returns is the receipt written.
   */
  readonly beforeReceipt?: ((end: SlotEnd, receipt: Receipt) => Promise<Receipt>) | undefined;
}

/** A receipt the store did not take. */
export interface UnwrittenReceipt {
  readonly receipt: Receipt;
  readonly error: ReceiptStoreError;
}

/** How a slot went: its ending, its one receipt and whether it was written. */
export interface SlotRun {
  readonly end: SlotEnd;
  readonly receipt: Receipt;
  readonly slotMs: number;
  /** False when the store refused the slot's own receipt; true without a store (nothing to write). */
  readonly written: boolean;
  /** Receipts the store did not take (missed slots', the slot's own). */
  readonly unwritten: readonly UnwrittenReceipt[];
  /** Set when the receipts could not be read, so missed slots were not recorded. */
  readonly listError?: ReceiptStoreError;
  /** A stale holder this run took the lock over from. */
  readonly tookOverFrom?: LockRecord;
}

/** What ran under the lock, before its receipt. */
interface UnderLock {
  readonly end: SlotEnd;
  readonly slotMs: number | undefined;
  readonly unwritten: UnwrittenReceipt[];
  readonly listError?: ReceiptStoreError;
}

/**
 * One slot's lifecycle, the same for every runner: take the lock (held: `overlapping`; cannot:
 * `lock-unavailable`), close the grid's missed slots, read the pause (`paused`), run the cycle
 * (`ran`, or `state-refused`), let go of the lock, then write exactly one receipt for the slot.
 */
export async function runSlot(ports: SlotPorts, plan: SlotPlan): Promise<SlotRun> {
  const settled = await settleSlot<LockedSlot, SlotRun>({
    body: async () => {
      const locked = await lockedSlot(ports, plan);
      return { end: locked.inner.end, value: locked };
    },
    stamp: (end, locked) => {
      const atMs = ports.clock.now().getTime();
      // A cycle closes its decision's instant unless it was started for a slot; a skip closes now.
      const slotMs = locked?.inner.slotMs ?? plan.slotMs ?? (end.kind === 'ran' ? Date.parse(end.outcome.decision.at) : atMs);
      return { slotMs, atMs, source: plan.source };
    },
    record: ({ end, receipt, value }) => finish(ports, plan, { end, receipt, locked: value }),
  });
  return settled.recorded;
}

/** What the body of core's runner found: its ending under the lock, and the stale holder it took over. */
interface LockedSlot {
  readonly inner: UnderLock;
  readonly tookOverFrom?: LockRecord | undefined;
}

/** Takes the lock, runs the part under it, lets go of the lock. */
async function lockedSlot(ports: SlotPorts, plan: SlotPlan): Promise<LockedSlot> {
  const nowMs = (): number => ports.clock.now().getTime();
  const lock = ports.lock;
  let tookOverFrom: LockRecord | undefined;
  let inner: UnderLock;
  if (lock === undefined) inner = await underLock(ports, plan, nowMs);
  else {
    const acquired = await lock.store.acquire(lock.request);
    if (acquired.isErr()) {
      const error = acquired.error;
      const end: SlotEnd =
        error.kind === 'held'
          ? { kind: 'overlapping', detail: lock.detail, holder: error.holder, liveness: error.liveness ?? 'unknown' }
          : { kind: 'lock-unavailable', detail: lock.detail, error };
      return { inner: { end, slotMs: plan.slotMs, unwritten: [] } };
    }
    tookOverFrom = acquired.value.tookOverFrom;
    try {
      inner = await underLock(ports, plan, nowMs);
    } finally {
      await lock.store.release(lock.request.owner);
    }
  }
  return { inner, tookOverFrom };
}

/** The part under the lock: missed slots, the pause, the cycle. */
async function underLock(ports: SlotPorts, plan: SlotPlan, nowMs: () => number): Promise<UnderLock> {
  const unwritten: UnwrittenReceipt[] = [];
  let slotMs = plan.slotMs;
  let listError: ReceiptStoreError | undefined;
  if (plan.grid !== undefined && ports.receipts !== undefined) {
    const closed = await closeMissedSlots(ports.receipts, plan.grid, nowMs(), plan.source);
    if (closed.isErr()) listError = closed.error;
    else {
      slotMs = closed.value.slotMs;
      if (closed.value.unwritten !== undefined) unwritten.push(closed.value.unwritten);
    }
  }
  const pause = plan.pause === undefined ? ({ kind: 'run' } as const) : await plan.pause(nowMs());
  const base = { slotMs, unwritten, ...(listError === undefined ? {} : { listError }) };
  if (pause.kind === 'skip') return { ...base, end: { kind: 'paused', pause: pause.pause, line: pause.line } };
  const outcome = await plan.run(pause, slotMs);
  if (outcome.refused !== undefined) return { ...base, end: { kind: 'state-refused', detail: outcome.refused.message.slice(0, 200) } };
  const partial = pause.kind === 'partial' ? pause.pause : undefined;
  return { ...base, end: { kind: 'ran', outcome, pause: partial, checks: plan.checks ?? [] } };
}

/** Records the grid's slots missed since the last receipt; the slot this run closes. */
async function closeMissedSlots(
  receipts: ReceiptStore,
  grid: SlotGrid,
  nowMs: number,
  source: ReceiptSource,
): Promise<Result<{ slotMs: number; unwritten?: UnwrittenReceipt }, ReceiptStoreError>> {
  const listed = await receipts.list();
  return listed.asyncAndThen((kept) => {
    // A receipt dated later than now closes nothing: slots are closed on the current grid.
    const decided = decideCronSlot({ nowMs, lastSlotMs: lastRecordedSlotMs(kept.receipts, nowMs), ...grid });
    const missed = decided.missed;
    if (missed === undefined) return okAsync({ slotMs: decided.slotMs });
    const receipt = receiptForSkippedSlots(missed, nowMs, source);
    return receipts
      .append(receipt)
      .map(() => ({ slotMs: decided.slotMs }))
      .orElse((error) => okAsync({ slotMs: decided.slotMs, unwritten: { receipt, error } }));
  });
}

/** After the lock: the ending's one receipt, written. */
async function finish(
  ports: SlotPorts,
  plan: SlotPlan,
  settled: { readonly end: SlotEnd | undefined; readonly receipt: Receipt | undefined; readonly locked: LockedSlot | undefined },
): Promise<SlotRun> {
  const { end, receipt: planned, locked } = settled;
  // Core's body always ends its slot; a body that gave no ending is a bug in this file.
  if (end === undefined || planned === undefined) throw new Error('runSlot: the slot has no ending');
  // No body value: the ending came from the lifecycle itself, with nothing found under the lock.
  const inner = locked?.inner;
  const tookOverFrom = locked?.tookOverFrom;
  const receipt = plan.beforeReceipt === undefined ? planned : await plan.beforeReceipt(end, planned);
  const unwritten = [...(inner?.unwritten ?? [])];
  let written = true;
  if (ports.receipts !== undefined) {
    const appended = await ports.receipts.append(receipt);
    if (appended.isErr()) {
      written = false;
      unwritten.push({ receipt, error: appended.error });
    }
  }
  return {
    end,
    receipt,
    slotMs: Date.parse(planned.slot),
    written,
    unwritten,
    ...(inner?.listError === undefined ? {} : { listError: inner.listError }),
    ...(tookOverFrom === undefined ? {} : { tookOverFrom }),
  };
}
