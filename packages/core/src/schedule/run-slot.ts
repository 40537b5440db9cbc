import { okAsync, type Result } from 'neverthrow';
import type { CycleOutcome } from '../cycle/run-cycle.js';
import type { PauseDecision } from '../operator/pause-decision.js';
import type { Clock } from '../ports/clock.js';
import type { AcquireRequest, LockRecord, LockStore } from '../ports/lock-store.js';
import type { ReceiptStore, ReceiptStoreError } from '../ports/receipt-store.js';
import { decideCronSlot } from './catch-up.js';
import { slotReceipt, type SlotEnd, type SlotStamp } from './slot-end.js';
import { nextSlotStep, type LockFact, type RunFact, type SlotFacts, type SlotShape } from './slot-planner.js';

export { slotReceipt, type SlotEnd, type SlotStamp } from './slot-end.js';
import { lastRecordedSlotMs, receiptForSkippedSlots, type Receipt, type ReceiptSource } from './receipts.js';

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
  readonly inner: UnderLock & { readonly end: SlotEnd };
  readonly tookOverFrom?: LockRecord | undefined;
}

/** What the steps found besides the ending: the slot closed, missed slots' receipts not written. */
interface UnderLock {
  slotMs: number | undefined;
  readonly unwritten: UnwrittenReceipt[];
  listError?: ReceiptStoreError;
}

/** The lock a slot holds, to let go of once the slot has its ending. */
type HeldLock = NonNullable<SlotPorts['lock']>;

/**
 * Walks the slot's steps in the planner's order ({@link nextSlotStep}): takes the lock, closes
 * missed slots, reads the pause, runs the cycle, and lets go of the lock once the slot has its ending.
 */
async function lockedSlot(ports: SlotPorts, plan: SlotPlan): Promise<LockedSlot> {
  const nowMs = (): number => ports.clock.now().getTime();
  const shape: SlotShape = {
    config: false,
    lock: ports.lock !== undefined,
    grid: plan.grid !== undefined && ports.receipts !== undefined,
    pause: plan.pause !== undefined,
  };
  const found: UnderLock = { slotMs: plan.slotMs, unwritten: [] };
  let facts: SlotFacts = {};
  let held: HeldLock | undefined;
  let tookOverFrom: LockRecord | undefined;
  try {
    for (;;) {
      const step = nextSlotStep(shape, facts);
      if (step.kind === 'end') {
        const inner = { end: step.end, ...found };
        return tookOverFrom === undefined ? { inner } : { inner, tookOverFrom };
      }
      if (step.kind === 'take-lock' && ports.lock !== undefined) {
        const taken = await takeLock(ports.lock);
        facts = { ...facts, lock: taken.fact };
        held = taken.fact.kind === 'taken' ? ports.lock : undefined;
        tookOverFrom = taken.tookOverFrom;
      } else if (step.kind === 'close-missed' && plan.grid !== undefined && ports.receipts !== undefined) {
        const closed = await closeMissedSlots(ports.receipts, plan.grid, nowMs(), plan.source);
        if (closed.isErr()) found.listError = closed.error;
        else {
          found.slotMs = closed.value.slotMs;
          if (closed.value.unwritten !== undefined) found.unwritten.push(closed.value.unwritten);
        }
        facts = { ...facts, missed: true };
      } else if (step.kind === 'read-pause' && plan.pause !== undefined) {
        facts = { ...facts, pause: await plan.pause(nowMs()) };
      } else if (step.kind === 'run') {
        facts = { ...facts, run: await runFact(plan, step.pause, found.slotMs) };
      } else {
        // The shape asks only the steps this runner has: another is a bug in this file.
        throw new Error(`runSlot: no ${step.kind} step in this slot`);
      }
    }
  } finally {
    if (held !== undefined) await held.store.release(held.request.owner);
  }
}

/** Tries the lock: taken (with a stale holder it took over from), held by a live cycle, or unavailable. */
async function takeLock(lock: HeldLock): Promise<{ readonly fact: LockFact; readonly tookOverFrom?: LockRecord | undefined }> {
  const acquired = await lock.store.acquire(lock.request);
  if (acquired.isOk()) return { fact: { kind: 'taken' }, tookOverFrom: acquired.value.tookOverFrom };
  const error = acquired.error;
  if (error.kind === 'held')
    return { fact: { kind: 'held', detail: lock.detail, holder: error.holder, liveness: error.liveness ?? 'unknown' } };
  return { fact: { kind: 'unavailable', detail: lock.detail, error } };
}

/** Runs the cycle: `ran`, or `state-refused` when its stored state must not be touched. */
async function runFact(plan: SlotPlan, pause: Exclude<PauseDecision, { kind: 'skip' }>, slotMs: number | undefined): Promise<RunFact> {
  const outcome = await plan.run(pause, slotMs);
  if (outcome.refused !== undefined)
    return { kind: 'refused', end: { kind: 'state-refused', detail: outcome.refused.message.slice(0, 200) } };
  const partial = pause.kind === 'partial' ? pause.pause : undefined;
  return { kind: 'ran', end: { kind: 'ran', outcome, pause: partial, checks: plan.checks ?? [] } };
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
