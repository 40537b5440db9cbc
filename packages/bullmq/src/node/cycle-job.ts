import {
  type Ack,
  type CycleStep,
  decidePause,
  type PauseDecision,
  scanAndEvaluate,
  settleSlot,
  sinkDeliveryHeld,
  type SlotBody,
  type SlotPause,
} from '@heartbeat-kit/core/host';
import type { Job, Queue } from 'bullmq';
import { fleetGapReceipts, fleetRanEnd } from '../fleet/fleet-receipts.js';
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
  ackStoreFor,
  pauseStoreFor,
  type WorkerContext,
} from './fleet-worker-context.js';
import type { CycleJobData, CycleSetup, OutboxJobData, ResolveHeartbeat } from './fleet-worker-types.js';

/** What the cycle job needs besides the worker's context. */
type CycleDeps = { readonly resolve: ResolveHeartbeat; readonly outbox: Queue<OutboxJobData> };

/**
 * The `cycles` job: takes the heartbeat's Redis lock (fenced), skips a slot the state says already
 * ran, runs core's cycle step (`scanAndEvaluate`: breaker skips, operator activity, evaluate),
 * enqueues the message as outbox job `<heartbeat>__<cycle>`, then saves the state and the slot's
 * receipt in one script under the fence. Message first, state second: a crash in between re-runs
 * the slot, which re-enqueues the same id (a no-op) instead of losing the report; state and
 * receipt together: every slot ends in exactly one record.
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
    const held = await takeCycleLock(ctx, slotJob);
    if (held === undefined) return;
    try {
      // Core's one ending step: this job supplies the body, the stamp and the fenced write.
      await settleSlot<FleetSlotValue, void>({
        body: () => heldSlotBody(ctx, deps, slotJob, held),
        stamp: (_end, value) => ({ slotMs: dueMs, atMs: value?.atMs ?? ctx.clock.now().getTime(), source: 'fleet' }),
        record: (settled) => recordFleetSlot(ctx, slotJob, held, settled),
      });
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
  const settled = await settleSlot<undefined, 'recorded' | 'already' | 'already-ran' | 'holder-changed'>({
    body: async () => {
      const state = await loadState(stateStoreFor(ctx, heartbeatId));
      if (decideSlot(state.fleet, slot) === 'already-ran') return { end: undefined };
      return { end: { kind: 'overlapping', detail: 'an earlier slot of this heartbeat was still running' } };
    },
    stamp: () => ({ slotMs: dueMs, atMs: ctx.clock.now().getTime(), source: 'fleet' }),
    record: async ({ receipt }) => {
      if (receipt === undefined) return 'already-ran';
      const keys = { receipts: ctx.keys.receipts(heartbeatId), lock: ctx.keys.lock(heartbeatId), overlaps: ctx.keys.overlaps(heartbeatId) };
      return recordSlotOnce(ctx.redis, keys, holder, slot, receipt, ctx.receiptBounds);
    },
  });
  return settled.recorded;
}

/**
 * One slot's body under its lock: no ending when the state says it ran or an earlier processing
 * recorded it as overlapping; `paused`; `config-error` when its setup does not resolve; else it
 * resolves, evaluates and enqueues, and ends `ran`.
 */
async function heldSlotBody(ctx: WorkerContext, deps: CycleDeps, job: SlotJob, held: Held): Promise<SlotBody<FleetSlotValue>> {
  const { heartbeat, slot } = job;
  const heartbeatId = heartbeat.id;
  const startedAtMs = ctx.clock.now().getTime();
  const [state, overlapped] = await Promise.all([
    loadState(stateStoreFor(ctx, heartbeatId)),
    closedByOverlap(ctx.redis, ctx.keys.overlaps(heartbeatId), slot),
  ]);
  if (decideSlot(state.fleet, slot) === 'already-ran') {
    await closeOvertakenSlots(ctx, job, state.fleet.lastSlot);
    await ctx.emit({ type: 'skip', heartbeatId, slot, reason: 'already-ran', worker: ctx.id });
    return { end: undefined };
  }
  // Issue 33: an earlier processing of this job recorded the slot as overlapping; it is closed.
  if (overlapped) {
    await ctx.emit({ type: 'skip', heartbeatId, slot, reason: 'overlap', worker: ctx.id });
    return { end: undefined };
  }
  // The operator's pause, read once under the lock: all of a pause is in this slot's decision or none.
  const { paused, warning: pauseWarning } = await readPause(ctx, heartbeatId, startedAtMs);
  if (paused.kind === 'skip') return pausedBody(ctx, job, state, paused, startedAtMs);
  const setup = await deps.resolve(heartbeat, slot);
  // A broken registration (bad HEARTBEAT.md, unknown scanner set): recorded, and the job fails for good.
  if (setup.isErr()) return { end: { kind: 'config-error', detail: setup.error }, value: { atMs: ctx.clock.now().getTime() } };
  const slotPause = paused.kind === 'partial' ? paused : undefined;
  return ranBody(ctx, deps, job, held, { state, setup: setup.value, slotPause, pauseWarning, startedAtMs });
}

/** What {@link ranBody} takes from the body before it. */
interface RanInput {
  readonly state: FleetStateDocument;
  readonly setup: CycleSetup;
  readonly slotPause: SlotPause | undefined;
  readonly pauseWarning: string | undefined;
  readonly startedAtMs: number;
}

/** Evaluates the slot, enqueues its report, and hands the state and the cycle event to the commit. */
async function ranBody(ctx: WorkerContext, deps: CycleDeps, job: SlotJob, held: Held, input: RanInput): Promise<SlotBody<FleetSlotValue>> {
  const { heartbeat, slot, dueMs } = job;
  const { state, setup, slotPause, pauseWarning, startedAtMs } = input;
  const now = ctx.clock.now();
  // The operator's acks, read once for this slot; unreadable acks hold nothing (the slot reports).
  const acks = await ackStoreFor(ctx, heartbeat.id).load();
  const evaluated = await evaluateSlot(ctx, setup, state, now, acks.isOk() ? acks.value.book.acks : [], slotPause);
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
    const messageId = await enqueueReport(deps.outbox, job, setup, state, evaluated);
    fleet = recordPending(fleet, messageId, now.getTime(), pendingOf(evaluated), resolvedOf(evaluated));
  }
  const endedAtMs = ctx.clock.now().getTime();
  const nextState = withoutPending(evaluated.nextState, state.heartbeat);
  const document = encodeFleetState({ heartbeat: nextState, fleet: { ...fleet, lastCycleEndedAtMs: endedAtMs } });
  const warnings = [...(pauseWarning === undefined ? [] : [pauseWarning]), ...evaluated.warnings];
  const event = {
    type: 'cycle' as const,
    heartbeatId: heartbeat.id,
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
    ...(warnings.length === 0 ? {} : { warnings }),
  };
  const checks = setup.config.checks.map((check) => check.name);
  const end = fleetRanEnd(evaluated, { delivery: deliveryOf(state, setup, evaluated), pause: slotPause?.pause, checks });
  return { end, value: { atMs: endedAtMs, commit: { state, document, event } } };
}

/** How the slot's report goes: an open sink breaker holds it in the outbox (the receipt says so, as the loop's does). */
function deliveryOf(state: FleetStateDocument, { config }: CycleSetup, { decision }: CycleStep): 'none' | 'queued' | 'held' {
  const report = decision.message !== null || decision.costAlert !== null;
  const heldBack =
    decision.message !== null && sinkDeliveryHeld(state.fleet.sinkBreaker?.breaker, decision.cycle, config.breaker) !== undefined;
  return !report ? 'none' : heldBack ? 'held' : 'queued';
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
function pausedBody(
  ctx: WorkerContext,
  { heartbeat, slot, dueMs }: SlotJob,
  state: FleetStateDocument,
  paused: Extract<PauseDecision, { kind: 'skip' }>,
  startedAtMs: number,
): SlotBody<FleetSlotValue> {
  const document = encodeFleetState({
    heartbeat: state.heartbeat,
    fleet: { ...state.fleet, lastSlot: slot, lastLagMs: startedAtMs - dueMs },
  });
  const event = { type: 'skip' as const, heartbeatId: heartbeat.id, slot, reason: 'paused' as const, worker: ctx.id };
  return { end: { kind: 'paused', pause: paused.pause }, value: { atMs: ctx.clock.now().getTime(), commit: { state, document, event } } };
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
