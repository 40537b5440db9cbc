import type { Receipt } from '@heartbeat-kit/core';
import {
  type Ack,
  type CycleStep,
  decidePause,
  type PauseDecision,
  scanAndEvaluate,
  sinkDeliveryHeld,
  type SlotPause,
  slotReceipt,
} from '@heartbeat-kit/core/host';
import { UnrecoverableError, type Job, type Queue } from 'bullmq';
import type { FleetHeartbeat } from '../fleet/fleet-heartbeat.js';
import { fleetGapReceipts, fleetRanReceipt } from '../fleet/fleet-receipts.js';
import {
  decideSlot,
  encodeFleetState,
  recordPending,
  wasDelivered,
  withPendingAsReported,
  withoutPending,
  type FleetMeta,
  type FleetStateDocument,
} from '../fleet/fleet-state.js';
import { CAPPED_BACKOFF, OUTBOX_RETRY_MS } from '../fleet/outbox-rules.js';
import { outboxJobId } from '../fleet/slots.js';
import { commitCycle } from './fleet-commit.js';
import { closedByOverlap, recordOverlapOnce } from './overlap-records.js';
import {
  holdLock,
  LockBusy,
  loadState,
  receiptStoreFor,
  registration,
  slotOfOwner,
  stateStoreFor,
  ackStoreFor,
  pauseStoreFor,
  type HeldLock,
  type WorkerContext,
} from './fleet-worker-context.js';
import type { CycleJobData, CycleSetup, OutboxJobData, ResolveHeartbeat } from './fleet-worker-types.js';

type Held = Extract<HeldLock, { skippedFor: undefined }>;

/** One slot's job as the cycle functions below pass it on. */
interface SlotJob {
  readonly heartbeat: FleetHeartbeat;
  readonly slot: number;
  readonly dueMs: number;
}

/**
 * The `cycles` job: takes the heartbeat's Redis lock (fenced), skips a slot the state says already
 * ran, runs core's cycle step (`scanAndEvaluate`: breaker skips, operator activity, evaluate),
 * enqueues the message as outbox job `<heartbeat>__<cycle>`, then saves the state and the slot's
 * receipt in one script under the fence. Message first, state second: a crash in between re-runs
 * the slot, which re-enqueues the same id (a no-op) instead of losing the report; state and
 * receipt together: every slot ends in exactly one record.
 */
export function createCycleProcessor(
  ctx: WorkerContext,
  deps: { readonly resolve: ResolveHeartbeat; readonly outbox: Queue<OutboxJobData> },
): (job: Job<CycleJobData>) => Promise<void> {
  return async (job) => {
    const { heartbeatId, slot, dueMs } = job.data;
    const heartbeat = await registration(ctx, heartbeatId);
    if (heartbeat === undefined) {
      await ctx.emit({ type: 'skip', heartbeatId, slot, reason: 'unregistered', worker: ctx.id });
      return;
    }
    const held = await takeCycleLock(ctx, { heartbeat, slot, dueMs });
    if (held === undefined) return;
    try {
      await runSlot(ctx, deps, { heartbeat, slot, dueMs }, held);
    } finally {
      await held.release();
    }
  };
}

/**
 * The lock for a slot's cycle; undefined when an earlier slot's running cycle covers this one
 * (recorded as `overlapping`).
 */
async function takeCycleLock(ctx: WorkerContext, { heartbeat, slot, dueMs }: SlotJob): Promise<Held | undefined> {
  const heartbeatId = heartbeat.id;
  let held = await holdLock(ctx, heartbeatId, `cycle-${slot}`, true);
  while (held.skippedFor !== undefined) {
    // A late or retried job of a slot at or before the running one waits for the lock instead:
    // then it sees whether its slot ran or has a record, and closes it if neither.
    if (!(slotOfOwner(held.skippedFor) < slot)) {
      held = await holdLock(ctx, heartbeatId, `cycle-${slot}`);
      break;
    }
    const recorded = await recordOverlap(ctx, heartbeatId, slot, dueMs, held.skippedFor);
    if (recorded !== 'holder-changed') {
      await ctx.emit({ type: 'skip', heartbeatId, slot, reason: recorded === 'already-ran' ? 'already-ran' : 'overlap', worker: ctx.id });
      return undefined;
    }
    held = await holdLock(ctx, heartbeatId, `cycle-${slot}`, true);
  }
  if (held.skippedFor !== undefined) throw new LockBusy(`heartbeat ${heartbeatId} is locked by ${held.skippedFor}`);
  return held;
}

/**
 * Records a slot skipped because `holder` (an earlier slot's cycle) runs, once per slot (a job
 * processed again finds it recorded). 'holder-changed' when the holder let go meanwhile: decide
 * again. 'already-ran': a job processed again after its slot ran, meeting a late job of an earlier
 * slot that holds the lock only to see that slot ran — the slot has its record, add none. (Safe
 * to read outside the script: `holder` held the lock before this read and the script checks it
 * still does, so no cycle could run this slot in between.)
 */
async function recordOverlap(
  ctx: WorkerContext,
  heartbeatId: string,
  slot: number,
  dueMs: number,
  holder: string,
): Promise<'recorded' | 'already' | 'already-ran' | 'holder-changed'> {
  const state = await loadState(stateStoreFor(ctx, heartbeatId));
  if (decideSlot(state.fleet, slot) === 'already-ran') return 'already-ran';
  const receipt = slotReceipt(
    { kind: 'overlapping', detail: 'an earlier slot of this heartbeat was still running' },
    { slotMs: dueMs, atMs: ctx.clock.now().getTime(), source: 'fleet' },
  );
  const keys = { receipts: ctx.keys.receipts(heartbeatId), lock: ctx.keys.lock(heartbeatId), overlaps: ctx.keys.overlaps(heartbeatId) };
  return recordOverlapOnce(ctx.redis, keys, holder, slot, receipt, ctx.receiptBounds);
}

/** Runs one slot under its lock: skip it if it ran, else resolve, evaluate, enqueue and commit. */
async function runSlot(
  ctx: WorkerContext,
  deps: { readonly resolve: ResolveHeartbeat; readonly outbox: Queue<OutboxJobData> },
  job: SlotJob,
  held: Held,
): Promise<void> {
  const { heartbeat, slot, dueMs } = job;
  const heartbeatId = heartbeat.id;
  const startedAtMs = ctx.clock.now().getTime();
  const [state, overlapped] = await Promise.all([
    loadState(stateStoreFor(ctx, heartbeatId)),
    closedByOverlap(ctx.redis, ctx.keys.overlaps(heartbeatId), slot),
  ]);
  if (decideSlot(state.fleet, slot) === 'already-ran') {
    await closeOvertakenSlots(ctx, job, state.fleet.lastSlot);
    await ctx.emit({ type: 'skip', heartbeatId, slot, reason: 'already-ran', worker: ctx.id });
    return;
  }
  // Issue 33: an earlier processing of this job recorded the slot as overlapping; it is closed.
  if (overlapped) {
    await ctx.emit({ type: 'skip', heartbeatId, slot, reason: 'overlap', worker: ctx.id });
    return;
  }
  // The operator's pause, read once under the lock: all of a pause is in this slot's decision or none.
  const { paused, warning: pauseWarning } = await readPause(ctx, heartbeatId, startedAtMs);
  if (paused.kind === 'skip') return commitPausedSlot(ctx, job, held, state, paused, startedAtMs);
  const slotPause = paused.kind === 'partial' ? paused : undefined;
  const setup = await deps.resolve(heartbeat, slot);
  if (setup.isErr()) return failSetup(ctx, job, setup.error);
  const now = ctx.clock.now();
  // The operator's acks, read once for this slot; unreadable acks hold nothing (the slot reports).
  const acks = await ackStoreFor(ctx, heartbeatId).load();
  const evaluated = await evaluateSlot(ctx, setup.value, state, now, acks.isOk() ? acks.value.book.acks : [], slotPause);
  const { decision } = evaluated;
  const report = decision.message !== null || decision.costAlert !== null;
  let fleet: FleetMeta = {
    ...state.fleet,
    lastSlot: slot,
    lastCycle: decision.cycle,
    lastCycleStartedAtMs: startedAtMs,
    lastLagMs: startedAtMs - dueMs,
  };
  // A holder that already lost the lock must not enqueue: its successor owns this cycle.
  if (report && !held.lost() && (await held.current())) {
    const messageId = await enqueueReport(deps.outbox, job, setup.value, state, evaluated);
    fleet = recordPending(fleet, messageId, now.getTime(), pendingOf(evaluated), resolvedOf(evaluated));
  }
  const endedAtMs = ctx.clock.now().getTime();
  const receipts = await slotReceipts(ctx, job, setup.value, state, evaluated, endedAtMs, slotPause);
  const nextState = withoutPending(evaluated.nextState, state.heartbeat);
  const document = encodeFleetState({ heartbeat: nextState, fleet: { ...fleet, lastCycleEndedAtMs: endedAtMs } });
  const saved = await commitCycle(ctx.redis, commitKeys(ctx, heartbeatId), document, held.fence, receipts, ctx.receiptBounds);
  if (!saved.written) {
    await ctx.emit({ type: 'stale-write', heartbeatId, slot, fence: held.fence, current: saved.current, worker: ctx.id });
    return;
  }
  await ctx.emit({
    type: 'cycle',
    heartbeatId,
    slot,
    cycle: decision.cycle,
    fence: held.fence,
    worker: ctx.id,
    dueMs,
    startedAtMs,
    endedAtMs,
    report,
    status: decision.status,
    findings: findingCounts(decision.reportable),
    ...(evaluated.warnings.length === 0 && pauseWarning === undefined
      ? {}
      : { warnings: [...(pauseWarning === undefined ? [] : [pauseWarning]), ...evaluated.warnings] }),
  });
}

/** The message's findings counted by category and priority (the cycle event's `findings`). */
function findingCounts(findings: readonly { readonly category: string; readonly priority: string }[]) {
  const counts = new Map<string, { category: string; priority: string; count: number }>();
  for (const { category, priority } of findings) {
    const key = `${category}\u0000${priority}`;
    const entry = counts.get(key) ?? { category, priority, count: 0 };
    counts.set(key, { ...entry, count: entry.count + 1 });
  }
  return [...counts.values()];
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
async function commitPausedSlot(
  ctx: WorkerContext,
  job: SlotJob,
  held: Held,
  state: FleetStateDocument,
  paused: Extract<PauseDecision, { kind: 'skip' }>,
  startedAtMs: number,
): Promise<void> {
  const { heartbeat, slot, dueMs } = job;
  const atMs = ctx.clock.now().getTime();
  const receipts = [
    ...(await gapReceipts(ctx, job, state, atMs)),
    slotReceipt({ kind: 'paused', pause: paused.pause }, { slotMs: dueMs, atMs, source: 'fleet' }),
  ];
  const document = encodeFleetState({
    heartbeat: state.heartbeat,
    fleet: { ...state.fleet, lastSlot: slot, lastLagMs: startedAtMs - dueMs },
  });
  const saved = await commitCycle(ctx.redis, commitKeys(ctx, heartbeat.id), document, held.fence, receipts, ctx.receiptBounds);
  if (!saved.written) {
    await ctx.emit({ type: 'stale-write', heartbeatId: heartbeat.id, slot, fence: held.fence, current: saved.current, worker: ctx.id });
    return;
  }
  await ctx.emit({ type: 'skip', heartbeatId: heartbeat.id, slot, reason: 'paused', worker: ctx.id });
}

/** Records a slot whose setup failed and fails the job for good: a broken registration (bad HEARTBEAT.md, unknown scanner set) will not heal by retrying. */
async function failSetup(ctx: WorkerContext, { heartbeat, slot, dueMs }: SlotJob, error: string): Promise<never> {
  const receipt = slotReceipt({ kind: 'config-error', detail: error }, { slotMs: dueMs, atMs: ctx.clock.now().getTime(), source: 'fleet' });
  const appended = await receiptStoreFor(ctx, heartbeat.id).append(receipt);
  if (appended.isErr()) throw new Error(appended.error.message);
  await ctx.emit({ type: 'failed', heartbeatId: heartbeat.id, slot, message: error, worker: ctx.id });
  throw new UnrecoverableError(error);
}

/** The keys one cycle's commit writes under the fence: state, lock fence, receipts. */
const commitKeys = (ctx: WorkerContext, heartbeatId: string) => ({
  state: ctx.keys.state(heartbeatId),
  lockFence: `${ctx.keys.lock(heartbeatId)}:fence`,
  receipts: ctx.keys.receipts(heartbeatId),
});

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

/** The same step as runCycle: breaker skips, operator activity (its failure kept), evaluate. */
async function evaluateSlot(
  ctx: WorkerContext,
  setup: CycleSetup,
  state: FleetStateDocument,
  now: Date,
  acks: readonly Ack[],
  pause: SlotPause | undefined,
): Promise<CycleStep> {
  const { config, timeZone, scanners, operatorActivity, categories } = setup;
  // Findings still waiting in the outbox count as reported, so this slot does not repeat them.
  return scanAndEvaluate(
    { clock: ctx.clock, sleep: ctx.sleep, scanners, ...(operatorActivity === undefined ? {} : { operatorActivity }) },
    {
      state: withPendingAsReported(state.heartbeat, state.fleet, now.getTime()),
      config,
      timeZone,
      now,
      ...(categories === undefined ? {} : { categories }),
      acks,
      pause,
    },
  );
}

/** The fingerprints a queued report marks as pending. */
const pendingOf = ({ decision }: CycleStep): string[] => decision.reportable.map((finding) => finding.fingerprint);
const resolvedOf = ({ decision }: CycleStep): string[] => (decision.resolved ?? []).map((notice) => notice.fingerprint);

/** Enqueues the cycle's message as an outbox job; its message id. */
async function enqueueReport(
  outbox: Queue<OutboxJobData>,
  { heartbeat, slot }: SlotJob,
  { config, timeZone }: CycleSetup,
  state: FleetStateDocument,
  { decision }: CycleStep,
): Promise<string> {
  let messageId = outboxJobId(heartbeat.id, decision.cycle);
  // This cycle number's message went out in an attempt that crashed before saving, and the
  // outbox has already marked its findings: what is left to say is new and needs its own id.
  if (wasDelivered(state.fleet, messageId)) messageId = `${messageId}__${slot}`;
  await outbox.add(
    'deliver',
    {
      heartbeatId: heartbeat.id,
      cycle: decision.cycle,
      decision,
      breaker: { settings: config.breaker, timeZone, intervalMs: heartbeat.intervalMs },
    },
    {
      jobId: messageId,
      attempts: 1_000_000,
      backoff: { type: CAPPED_BACKOFF, delay: OUTBOX_RETRY_MS },
      removeOnComplete: { age: 7 * 24 * 3600 },
      removeOnFail: false,
    },
  );
  return messageId;
}

/** The slot's `ran` receipt, after the records of the slots since the last commit that have none. */
async function slotReceipts(
  ctx: WorkerContext,
  { heartbeat, slot, dueMs }: SlotJob,
  { config }: CycleSetup,
  state: FleetStateDocument,
  step: CycleStep,
  endedAtMs: number,
  pause: SlotPause | undefined,
): Promise<Receipt[]> {
  const { decision } = step;
  const receipts: Receipt[] = await gapReceipts(ctx, { heartbeat, slot, dueMs }, state, endedAtMs);
  const report = decision.message !== null || decision.costAlert !== null;
  // An open sink breaker holds this report in the outbox: the receipt says so, as the loop's does.
  const heldBack =
    decision.message !== null && sinkDeliveryHeld(state.fleet.sinkBreaker?.breaker, decision.cycle, config.breaker) !== undefined;
  const delivery = !report ? 'none' : heldBack ? 'held' : 'queued';
  const checks = config.checks.map((check) => check.name);
  receipts.push(fleetRanReceipt(step, { dueMs, atMs: endedAtMs, delivery, pause: pause?.pause, checks }));
  return receipts;
}

/** The records of the slots since the last commit that have none of their own (collapsed, or died). */
async function gapReceipts(
  ctx: WorkerContext,
  { heartbeat, slot, dueMs }: SlotJob,
  state: FleetStateDocument,
  atMs: number,
): Promise<Receipt[]> {
  const { lastSlot } = state.fleet;
  if (lastSlot === undefined || slot <= lastSlot + 1) return [];
  const listed = await receiptStoreFor(ctx, heartbeat.id).list();
  if (listed.isErr()) throw new Error(listed.error.message);
  return fleetGapReceipts(listed.value.receipts, { lastSlot, slot, dueMs, intervalMs: heartbeat.intervalMs, atMs });
}
