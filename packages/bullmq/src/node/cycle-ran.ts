import { type Ack, type CycleStep, scanAndEvaluate, sinkDeliveryHeld, type SlotEnd, type SlotPause } from '@heartbeat-kit/core/host';
import type { Queue } from 'bullmq';
import { fleetRanEnd } from '../fleet/fleet-receipts.js';
import {
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
import type { FleetSlotValue, Held, SlotJob } from './cycle-record.js';
import { ackStoreFor, type WorkerContext } from './fleet-worker-context.js';
import type { CycleSetup, OutboxJobData } from './fleet-worker-types.js';

// A fleet slot's run step, under its lock: evaluate, enqueue the report, hand the state and the
// cycle event to the commit (cycle-record.ts writes them with the receipt).

/** Where the run step enqueues the slot's report. */
export interface RanDeps {
  readonly outbox: Queue<OutboxJobData>;
}

/** A slot that ran: its ending and the commit {@link recordFleetSlot} writes. */
export interface RanSlot {
  readonly end: Extract<SlotEnd, { kind: 'ran-step' }>;
  readonly value: FleetSlotValue;
}

/** What {@link ranBody} takes from the steps before it. */
export interface RanInput {
  readonly state: FleetStateDocument;
  readonly setup: CycleSetup;
  readonly slotPause: SlotPause | undefined;
  readonly pauseWarning: string | undefined;
  readonly startedAtMs: number;
}

/** Evaluates the slot, enqueues its report, and hands the state and the cycle event to the commit. */
export async function ranBody(ctx: WorkerContext, deps: RanDeps, job: SlotJob, held: Held, input: RanInput): Promise<RanSlot> {
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
