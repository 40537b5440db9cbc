import { type BreakerSettings, type SinkAttempt, updateSinkBreaker } from '@heartbeat-kit/core/host';
import type { FleetMeta } from './fleet-state.js';

/** First retry delay of an outbox delivery, and the delay of every other retried job. */
export const OUTBOX_RETRY_MS = 500;

/**
 * The outbox's own backoff type: doubling from 500 ms, capped at the heartbeat's interval (a
 * minute without one), so a sink that was down for hours is tried again within a cycle of coming back.
 */
export const CAPPED_BACKOFF = 'capped-exponential';

/** What the outbox needs to run a heartbeat's sink breaker. */
export interface OutboxBreakerSettings {
  readonly settings: BreakerSettings;
  readonly timeZone: string;
  /** The heartbeat's interval: a held message is looked at again one cycle later. */
  readonly intervalMs: number;
}

/** One thing the sink breaker said (`tripped`, `recovered`, `changed`), at the heartbeat's cycle. */
export interface SinkBreakerNote {
  readonly kind: 'tripped' | 'recovered' | 'changed';
  readonly cycle: number;
  readonly line: string;
  /** With `tripped`: the one SINK_FAILING advisory, for the operator's channel (the sink cannot carry it). */
  readonly advisory?: { readonly line: string; readonly action: string };
}

/** The delay before retry `attemptsMade` of a job with backoff `type` (BullMQ's `backoffStrategy`). */
export function outboxBackoffMs(attemptsMade: number, type: string | undefined, intervalMs: number | undefined): number {
  if (type !== CAPPED_BACKOFF) return OUTBOX_RETRY_MS;
  const cap = Math.max(1000, intervalMs ?? 60_000);
  return Math.min(cap, OUTBOX_RETRY_MS * 2 ** Math.min(30, Math.max(0, attemptsMade - 1)));
}

/** The heartbeat's cycle a sink breaker counts in: the latest committed one (never older than the message's). */
export function breakerCycle(fleet: FleetMeta, messageCycle: number): number {
  return Math.max(messageCycle, fleet.lastCycle ?? 0);
}

/**
 * Runs the heartbeat's sink breaker on one delivery attempt: the fleet metadata to save and what
 * the breaker said, to emit after the save. A failure counts once per cycle of the heartbeat
 * (outbox retries within a cycle are the same try), as the loop's breaker counts.
 */
export function stepSinkBreaker(
  fleet: FleetMeta,
  input: {
    readonly messageCycle: number;
    readonly breaker: OutboxBreakerSettings;
    readonly attempt: SinkAttempt;
    readonly sinkName: string;
    readonly now: Date;
  },
): { readonly fleet: FleetMeta; readonly notes: readonly SinkBreakerNote[] } {
  const { attempt, breaker } = input;
  const cycle = breakerCycle(fleet, input.messageCycle);
  const previous = fleet.sinkBreaker;
  if (attempt.kind === 'failed' && previous !== undefined && previous.triedCycle >= cycle) return { fleet, notes: [] };
  const report = updateSinkBreaker(previous?.breaker, input.sinkName, attempt, {
    cycle,
    now: input.now,
    timeZone: breaker.timeZone,
    settings: breaker.settings,
  });
  const { sinkBreaker: _dropped, ...rest } = fleet;
  void _dropped;
  const triedCycle = attempt.kind === 'failed' ? cycle : (previous?.triedCycle ?? cycle);
  const next: FleetMeta = report.breaker === undefined ? rest : { ...rest, sinkBreaker: { breaker: report.breaker, triedCycle } };
  const notes = report.events.map((event) => ({
    kind: event.kind,
    cycle,
    line: event.line,
    ...(event.kind === 'tripped' && report.advisory !== undefined
      ? { advisory: { line: report.advisory.line, action: report.advisory.action } }
      : {}),
  }));
  return { fleet: next, notes };
}
