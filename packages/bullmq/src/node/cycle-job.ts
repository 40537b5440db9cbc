import {
  decidePause,
  nextSlotStep,
  type Pause,
  type PauseDecision,
  settleSlot,
  type SettledSlot,
  type SlotBody,
  type SlotFacts,
  type SlotShape,
  type SlotStep,
} from '@heartbeat-kit/core/host';
import type { Job } from 'bullmq';
import { fleetGapReceipts } from '../fleet/fleet-receipts.js';
import { decideSlot, encodeFleetState, type FleetStateDocument } from '../fleet/fleet-state.js';
import { ranBody, type RanDeps } from './cycle-ran.js';
import { recordFleetSlot, type FleetSlotValue, type Held, type SlotJob } from './cycle-record.js';
import { closedByOverlap, recordSlotOnce } from './overlap-records.js';
import {
  holdLock,
  LockBusy,
  loadState,
  receiptStoreFor,
  registration,
  slotOfOwner,
  stateStoreFor,
  pauseStoreFor,
  type WorkerContext,
} from './fleet-worker-context.js';
import type { CycleJobData, CycleSetup, ResolveHeartbeat } from './fleet-worker-types.js';

/** What the cycle job needs besides the worker's context. */
type CycleDeps = RanDeps & { readonly resolve: ResolveHeartbeat };

/**
 * The fleet's slot in core's one order: no config before the lock; the slot may have its record
 * already (the state says it ran, or an earlier processing recorded it as overlapping); the pause,
 * then the registration's setup, under the lock.
 */
const FLEET_SHAPE: SlotShape = { config: false, lock: true, recorded: true, grid: false, pause: true, setup: true };

/**
 * The `cycles` job: takes the heartbeat's Redis lock (fenced), skips a slot the state says already
 * ran, runs core's cycle step (`scanAndEvaluate`: breaker skips, operator activity, evaluate),
 * enqueues the message as outbox job `<heartbeat>__<cycle>`, then saves the state and the slot's
 * receipt in one script under the fence. Message first, state second: a crash in between re-runs
 * the slot, which re-enqueues the same id (a no-op) instead of losing the report; state and
 * receipt together: every slot ends in exactly one record. Each step is the one core's slot
 * planner (`nextSlotStep`) asks for, so a new kind of ending is core's change, not this job's.
 */
export function createCycleProcessor(ctx: WorkerContext, deps: CycleDeps): (job: Job<CycleJobData>) => Promise<void> {
  return async (job) => {
    const { heartbeatId, slot, dueMs } = job.data;
    const heartbeat = await registration(ctx, heartbeatId);
    if (heartbeat === undefined) {
      await ctx.emit({ type: 'skip', heartbeatId, slot, reason: 'unregistered', worker: ctx.id });
      return;
    }
    const slotJob: SlotJob = { heartbeat, slot, dueMs };
    // The earlier slot's cycle let go while this slot's overlap was being recorded: decide again.
    while ((await settleFleetSlot(ctx, deps, slotJob)) === 'again');
  };
}

/** What one walk of a slot's steps found besides the planner's facts. */
interface FleetWalk {
  /** The lock, once taken. */
  held?: Held;
  /** The owner of an earlier slot's running cycle that holds the lock, when it was not taken. */
  holder?: string;
  /** Why the slot had its record already: the event said. */
  recordedAs?: 'already-ran' | 'overlap';
  /** Read under the lock: the state, and when the slot's cycle started. */
  under?: { readonly state: FleetStateDocument; readonly startedAtMs: number };
  pauseWarning?: string;
  setup?: CycleSetup;
  /** What the ending step records (the commit of a slot that ran, a config error's instant). */
  value?: FleetSlotValue;
}

/** One walk of the slot through core's ending step; 'again' when it must be walked anew. */
async function settleFleetSlot(ctx: WorkerContext, deps: CycleDeps, job: SlotJob): Promise<'done' | 'again'> {
  const walk: FleetWalk = {};
  try {
    // Core's one ending step: this job supplies the body (the planner's steps), the stamp and the fenced write.
    const settled = await settleSlot<FleetSlotValue, 'done' | 'again'>({
      body: () => walkSlot(ctx, deps, job, walk),
      stamp: (_end, value) => ({ slotMs: job.dueMs, atMs: value?.atMs ?? ctx.clock.now().getTime(), source: 'fleet' }),
      record: (ended) => recordWalked(ctx, job, walk, ended),
    });
    return settled.recorded;
  } finally {
    await walk.held?.release();
  }
}

/** Does each step the planner asks until the slot ends: its ending (none: it has its record) and what to record. */
async function walkSlot(ctx: WorkerContext, deps: CycleDeps, job: SlotJob, walk: FleetWalk): Promise<SlotBody<FleetSlotValue>> {
  let facts: SlotFacts = {};
  for (;;) {
    const step = nextSlotStep(FLEET_SHAPE, facts);
    if (step.kind === 'recorded') return { end: undefined };
    if (step.kind === 'end') {
      const value = step.end.kind === 'paused' ? pausedValue(ctx, job, walk, step.end.pause) : walk.value;
      return { end: step.end, value };
    }
    facts = { ...facts, ...(await doStep(ctx, deps, job, walk, step)) };
  }
}

/** One step of the fleet's slot: what it found. */
async function doStep(
  ctx: WorkerContext,
  deps: CycleDeps,
  job: SlotJob,
  walk: FleetWalk,
  step: Exclude<SlotStep, { kind: 'end' | 'recorded' }>,
): Promise<SlotFacts> {
  switch (step.kind) {
    case 'take-lock':
      return { lock: await takeCycleLock(ctx, job, walk) };
    case 'check-recorded':
      return { recorded: await slotRecorded(ctx, job, walk) };
    case 'read-pause': {
      // The operator's pause, read once under the lock: all of a pause is in this slot's decision or none.
      const { paused, warning } = await readPause(ctx, job.heartbeat.id, underLock(walk).startedAtMs);
      if (warning !== undefined) walk.pauseWarning = warning;
      return { pause: paused };
    }
    case 'resolve-setup': {
      const setup = await deps.resolve(job.heartbeat, job.slot);
      // A broken registration (bad HEARTBEAT.md, unknown scanner set): recorded, and the job fails for good.
      if (setup.isErr()) {
        walk.value = { atMs: ctx.clock.now().getTime() };
        return { setup: { ok: false, detail: setup.error } };
      }
      walk.setup = setup.value;
      return { setup: { ok: true } };
    }
    case 'run': {
      const { state, startedAtMs } = underLock(walk);
      if (walk.held === undefined || walk.setup === undefined)
        throw new Error('fleet cycle job: the run step came before the lock or the setup');
      const slotPause = step.pause.kind === 'partial' ? step.pause : undefined;
      const input = { state, setup: walk.setup, slotPause, pauseWarning: walk.pauseWarning, startedAtMs };
      const ran = await ranBody(ctx, deps, job, walk.held, input);
      walk.value = ran.value;
      return { run: { kind: 'ran', end: ran.end } };
    }
    case 'read-config':
    case 'check-gate':
    case 'close-missed':
      // The fleet's shape asks only the steps above: another is a bug in this file.
      throw new Error(`fleet cycle job: no ${step.kind} step in this slot`);
  }
}

/** What the steps under the lock read first; asking for it before them is a bug in this file. */
function underLock(walk: FleetWalk): NonNullable<FleetWalk['under']> {
  if (walk.under === undefined) throw new Error('fleet cycle job: a step under the lock came before the lock');
  return walk.under;
}

/**
 * The lock for a slot's cycle: taken, or held by an earlier slot's running cycle (this slot is
 * then recorded as `overlapping`, unless it already ran).
 */
async function takeCycleLock(ctx: WorkerContext, { heartbeat, slot }: SlotJob, walk: FleetWalk): Promise<NonNullable<SlotFacts['lock']>> {
  const heartbeatId = heartbeat.id;
  let held = await holdLock(ctx, heartbeatId, `cycle-${slot}`, true);
  // A late or retried job of a slot at or before the running one waits for the lock instead:
  // then it sees whether its slot ran or has a record, and closes it if neither.
  if (held.skippedFor !== undefined && !(slotOfOwner(held.skippedFor) < slot)) {
    held = await holdLock(ctx, heartbeatId, `cycle-${slot}`);
    if (held.skippedFor !== undefined) throw new LockBusy(`heartbeat ${heartbeatId} is locked by ${held.skippedFor}`);
  }
  if (held.skippedFor !== undefined) {
    walk.holder = held.skippedFor;
    return { kind: 'held', detail: 'an earlier slot of this heartbeat was still running' };
  }
  walk.held = held;
  return { kind: 'taken' };
}

/**
 * Whether the slot has its record already: the state says it ran, or (under the lock) an earlier
 * processing of this job recorded it as overlapping (issue 33). Without the lock the state is
 * still safe to read: the earlier slot's cycle held the lock before this read and the overlap
 * script checks it still does, so no cycle could run this slot in between.
 */
async function slotRecorded(ctx: WorkerContext, { heartbeat, slot }: SlotJob, walk: FleetWalk): Promise<boolean> {
  const heartbeatId = heartbeat.id;
  if (walk.held === undefined) {
    const state = await loadState(stateStoreFor(ctx, heartbeatId));
    if (decideSlot(state.fleet, slot) !== 'already-ran') return false;
    walk.recordedAs = 'already-ran';
    return true;
  }
  const startedAtMs = ctx.clock.now().getTime();
  const [state, overlapped] = await Promise.all([
    loadState(stateStoreFor(ctx, heartbeatId)),
    closedByOverlap(ctx.redis, ctx.keys.overlaps(heartbeatId), slot),
  ]);
  walk.under = { state, startedAtMs };
  if (decideSlot(state.fleet, slot) === 'already-ran') walk.recordedAs = 'already-ran';
  else if (overlapped) walk.recordedAs = 'overlap';
  return walk.recordedAs !== undefined;
}

/**
 * Writes the slot's ending the fleet's way: a slot with its record adds none (a late job overtaken
 * by a later slot's commit first closes the slots that commit could not see); a slot whose lock an
 * earlier slot's cycle held is recorded as overlapping once per slot ('again' when that holder let
 * go meanwhile); any other ending under the lock is recorded by {@link recordFleetSlot}.
 */
async function recordWalked(
  ctx: WorkerContext,
  job: SlotJob,
  walk: FleetWalk,
  ended: SettledSlot<FleetSlotValue>,
): Promise<'done' | 'again'> {
  const heartbeatId = job.heartbeat.id;
  const skip = (reason: 'already-ran' | 'overlap') => ctx.emit({ type: 'skip', heartbeatId, slot: job.slot, reason, worker: ctx.id });
  if (ended.receipt === undefined) {
    if (walk.recordedAs === 'already-ran' && walk.held !== undefined)
      await closeOvertakenSlots(ctx, job, underLock(walk).state.fleet.lastSlot);
    await skip(walk.recordedAs ?? 'already-ran');
    return 'done';
  }
  if (walk.held === undefined) {
    if (walk.holder === undefined) throw new Error('fleet cycle job: a slot ended without its lock and no holder');
    const keys = { receipts: ctx.keys.receipts(heartbeatId), lock: ctx.keys.lock(heartbeatId), overlaps: ctx.keys.overlaps(heartbeatId) };
    const recorded = await recordSlotOnce(ctx.redis, keys, walk.holder, job.slot, ended.receipt, ctx.receiptBounds);
    if (recorded === 'holder-changed') return 'again';
    await skip('overlap');
    return 'done';
  }
  await recordFleetSlot(ctx, job, walk.held, ended);
  return 'done';
}

/** A slot the operator's pause skipped whole: what {@link pausedBody} commits. */
function pausedValue(ctx: WorkerContext, job: SlotJob, walk: FleetWalk, pause: Pause): FleetSlotValue {
  const { state, startedAtMs } = underLock(walk);
  return pausedBody(ctx, job, state, pause, startedAtMs);
}

/**
 * The pause decision for this slot. A pause that cannot be read never silences the heartbeat:
 * the slot runs, and its cycle event warns why and the fix.
 */
async function readPause(
  ctx: WorkerContext,
  heartbeatId: string,
  nowMs: number,
): Promise<{ readonly paused: PauseDecision; readonly warning?: string }> {
  const read = await pauseStoreFor(ctx, heartbeatId).read();
  if (read.isErr()) return { paused: { kind: 'run' }, warning: `the pause is ignored, this slot runs: ${read.error.message}` };
  return { paused: decidePause(read.value, nowMs) };
}

/**
 * A slot the operator's pause skipped whole: nothing resolved, scanned or delivered; the state
 * only records the slot as closed, in one commit with the `paused` receipt (and the records of
 * the slots before it that have none), under the fence as any cycle's.
 */
function pausedBody(
  ctx: WorkerContext,
  { heartbeat, slot, dueMs }: SlotJob,
  state: FleetStateDocument,
  pause: Pause,
  startedAtMs: number,
): FleetSlotValue {
  const document = encodeFleetState({
    heartbeat: state.heartbeat,
    fleet: { ...state.fleet, lastSlot: slot, lastLagMs: startedAtMs - dueMs },
  });
  const event = { type: 'skip' as const, heartbeatId: heartbeat.id, slot, reason: 'paused' as const, worker: ctx.id };
  return { atMs: ctx.clock.now().getTime(), commit: { state, document, event } };
}

/**
 * A late or retried job overtaken by a later slot whose commit could not see it (no earlier commit
 * to measure a gap from): closes it now, and every slot after it up to that commit that has no
 * record either — they were due and nothing ran them. (Slots after the first commit all have
 * records already: each commit closes its gap.)
 */
async function closeOvertakenSlots(ctx: WorkerContext, { heartbeat, slot, dueMs }: SlotJob, lastSlot: number | undefined): Promise<void> {
  if (lastSlot === undefined || slot >= lastSlot) return;
  const store = receiptStoreFor(ctx, heartbeat.id);
  const listed = await store.list();
  if (listed.isErr()) throw new Error(listed.error.message);
  const missing = fleetGapReceipts(listed.value.receipts, {
    lastSlot: slot - 1,
    slot: lastSlot,
    dueMs: dueMs + (lastSlot - slot) * heartbeat.intervalMs,
    intervalMs: heartbeat.intervalMs,
    atMs: ctx.clock.now().getTime(),
  });
  for (const receipt of missing) {
    const appended = await store.append(receipt);
    if (appended.isErr()) throw new Error(appended.error.message);
  }
}
