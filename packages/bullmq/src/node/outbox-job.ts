import { redactSecrets } from '@heartbeat-kit/core';
import { markDelivered, type SinkAttempt, sinkDeliveryHeld } from '@heartbeat-kit/core/host';
import { DelayedError, type Job } from 'bullmq';
import { encodeFleetState, recordDelivery, wasDelivered, type FleetMeta, type FleetStateDocument } from '../fleet/fleet-state.js';
import { breakerCycle, OUTBOX_RETRY_MS, stepSinkBreaker, type OutboxBreakerSettings, type SinkBreakerNote } from '../fleet/outbox-rules.js';
import { outboxJobId } from '../fleet/slots.js';
import { holdLock, LockBusy, loadState, stateStoreFor, type WorkerContext } from './fleet-worker-context.js';
import type { FleetSink, OutboxJobData } from './fleet-worker-types.js';

const DELIVERED_MARK_SECONDS = 7 * 24 * 3600;

/** One outbox message as the functions below pass it on. */
interface OutboxMessage {
  readonly heartbeatId: string;
  readonly cycle: number;
  readonly messageId: string;
}

/**
 * The `outbox` job: delivers, and only after the sink confirmed marks the findings reported
 * (core's `markDelivered`) under the lock and fence. The heartbeat's sink breaker holds a message
 * back while open, counts a failure once per cycle and closes on a delivery that worked.
 */
export function createOutboxProcessor(ctx: WorkerContext, sink: FleetSink): (job: Job<OutboxJobData>, token?: string) => Promise<void> {
  const sinkName = (sink.name ?? 'sink').slice(0, 60) || 'sink';
  const stepBreaker = (fleet: FleetMeta, message: OutboxMessage, breaker: OutboxBreakerSettings, attempt: SinkAttempt) =>
    stepSinkBreaker(fleet, { messageCycle: message.cycle, breaker, attempt, sinkName, now: ctx.clock.now() });

  return async (job, token) => {
    const { heartbeatId, cycle, decision, breaker } = job.data;
    const message: OutboxMessage = { heartbeatId, cycle, messageId: job.id ?? outboxJobId(heartbeatId, cycle) };
    const markKey = ctx.keys.delivered(message.messageId);
    const breakerOn = breaker !== undefined && breaker.settings.after > 0 && decision.message !== null;
    let deliveredAtText = await ctx.redis.get(markKey);
    let attempt: SinkAttempt = { kind: 'not-tried' };
    if (deliveredAtText === null) {
      if (decision.message !== null) {
        // An open breaker holds the message back (never drops it): looked at again next cycle.
        if (breakerOn) await holdBackIfOpen(ctx, job, token, message, breaker);
        const sent = await sink.deliver({ id: message.messageId, heartbeatId, cycle, message: decision.message });
        if (sent.isErr()) {
          const text = redactSecrets(sent.error.message);
          await ctx.emit({ type: 'delivery-failed', heartbeatId, cycle, id: message.messageId, message: text, worker: ctx.id });
          if (breakerOn) {
            const failed: SinkAttempt = { kind: 'failed', code: redactSecrets(sent.error.code ?? text), message: text };
            await updateUnderLock(ctx, message, (state) => {
              const stepped = stepBreaker(state.fleet, message, breaker, failed);
              return { next: { ...state, fleet: stepped.fleet }, notes: stepped.notes };
            });
          }
          throw new Error(text);
        }
        attempt = { kind: 'delivered' };
      }
      deliveredAtText = String(ctx.clock.now().getTime());
      await ctx.redis.set(markKey, deliveredAtText, 'EX', DELIVERED_MARK_SECONDS);
      if (decision.costAlert !== null)
        await sink.deliver({ id: `${message.messageId}__cost`, heartbeatId, cycle, message: decision.costAlert });
    }
    const deliveredAt = new Date(Number(deliveredAtText));
    const summary = decision.message?.summary ?? decision.costAlert?.summary ?? '';
    await updateUnderLock(
      ctx,
      message,
      (state) => {
        let next: FleetStateDocument = state;
        if (!wasDelivered(state.fleet, message.messageId)) {
          next = {
            heartbeat: markDelivered(state.heartbeat, decision, deliveredAt),
            fleet: recordDelivery(state.fleet, message.messageId, deliveredAt.getTime(), summary),
          };
        }
        // A delivery that worked closes an open breaker (one `recovered` line).
        if (!breakerOn || attempt.kind !== 'delivered' || next.fleet.sinkBreaker === undefined) return { next, notes: [] };
        const stepped = stepBreaker(next.fleet, message, breaker, attempt);
        return { next: { ...next, fleet: stepped.fleet }, notes: stepped.notes };
      },
      true,
    );
  };
}

/** Delays the job by a cycle when the heartbeat's sink breaker is open (says `held` once per look). */
async function holdBackIfOpen(
  ctx: WorkerContext,
  job: Job<OutboxJobData>,
  token: string | undefined,
  { heartbeatId, cycle, messageId }: OutboxMessage,
  breaker: OutboxBreakerSettings,
): Promise<void> {
  const state = await loadState(stateStoreFor(ctx, heartbeatId));
  const at = breakerCycle(state.fleet, cycle);
  const held = sinkDeliveryHeld(state.fleet.sinkBreaker?.breaker, at, breaker.settings);
  if (held === undefined) return;
  await ctx.emit({ type: 'sink-breaker', kind: 'held', heartbeatId, cycle: at, id: messageId, line: held.line, worker: ctx.id });
  await job.moveToDelayed(ctx.clock.now().getTime() + Math.max(OUTBOX_RETRY_MS, breaker.intervalMs), token);
  throw new DelayedError();
}

/**
 * Loads the heartbeat's state under its lock, saves what `update` makes of it (when it changed)
 * under the fence, then says the breaker's notes; with `delivered`, says the delivery too.
 */
async function updateUnderLock(
  ctx: WorkerContext,
  { heartbeatId, cycle, messageId }: OutboxMessage,
  update: (state: FleetStateDocument) => { readonly next: FleetStateDocument; readonly notes: readonly SinkBreakerNote[] },
  delivered = false,
): Promise<void> {
  const held = await holdLock(ctx, heartbeatId, `outbox-${cycle}`);
  if (held.skippedFor !== undefined) throw new LockBusy(`heartbeat ${heartbeatId} is locked`);
  let notes: readonly SinkBreakerNote[] = [];
  try {
    const store = stateStoreFor(ctx, heartbeatId);
    const state = await loadState(store);
    const { next, notes: said } = update(state);
    if (next.heartbeat !== state.heartbeat || next.fleet !== state.fleet) {
      const saved = await store.save(encodeFleetState(next), { fence: held.fence });
      // A stale fence here means a newer holder appeared: retry under a fresh lock.
      if (saved.isErr()) throw new Error(saved.error.message);
      notes = said;
    }
    if (delivered) await ctx.emit({ type: 'delivered', heartbeatId, cycle, id: messageId, fence: held.fence, worker: ctx.id });
  } finally {
    await held.release();
  }
  for (const note of notes) await ctx.emit({ type: 'sink-breaker', heartbeatId, id: messageId, worker: ctx.id, ...note });
}
