import type { Clock } from '@heartbeat-kit/core';
import { DelayedError, type Job, type Queue } from 'bullmq';

/** The fleet's three BullMQ queues, as metrics label them. */
export type FleetQueueName = 'ticks' | 'cycles' | 'outbox';

/** Every fleet queue, in the order a job passes them. */
export const FLEET_QUEUE_NAMES: readonly FleetQueueName[] = ['ticks', 'cycles', 'outbox'];

/**
 * How a job attempt ended: `completed`, `failed` (BullMQ retries it, or gives up), or `delayed`
 * (an open sink breaker moved an outbox message to later: not a failure).
 */
export type FleetJobOutcome = 'completed' | 'failed' | 'delayed';

/**
 * One job attempt of a fleet worker, said when it starts and when it ends (`onJob`). `dueMs`: the
 * slot the job is for (ticks and cycles; absent for the outbox), so `startedAtMs - dueMs` is how
 * late the schedule ran it.
 */
export type FleetJobEvent =
  | { readonly phase: 'start'; readonly queue: FleetQueueName; readonly startedAtMs: number; readonly dueMs?: number }
  | {
      readonly phase: 'end';
      readonly queue: FleetQueueName;
      readonly startedAtMs: number;
      readonly endedAtMs: number;
      readonly outcome: FleetJobOutcome;
      readonly dueMs?: number;
    };

/** Jobs of one queue by state, as BullMQ's `getJobCounts` reports them. */
export interface FleetQueueCounts {
  readonly waiting: number;
  readonly delayed: number;
  readonly active: number;
}

type Processor<D> = (job: Job<D>, token?: string) => Promise<void>;

/** Wraps a job processor so each attempt is said to `onJob` at its start and end (unchanged without `onJob`). */
export function observeJobs<D>(
  queue: FleetQueueName,
  processor: Processor<D>,
  options: {
    readonly clock: Clock;
    readonly onJob?: ((event: FleetJobEvent) => void) | undefined;
    readonly dueOf?: (job: Job<D>) => number;
  },
): Processor<D> {
  const { onJob, clock, dueOf } = options;
  if (onJob === undefined) return processor;
  return async (job, token) => {
    const startedAtMs = clock.now().getTime();
    const due = dueOf === undefined ? {} : { dueMs: dueOf(job) };
    onJob({ phase: 'start', queue, startedAtMs, ...due });
    let outcome: FleetJobOutcome = 'failed';
    try {
      await processor(job, token);
      outcome = 'completed';
    } catch (error) {
      if (error instanceof DelayedError) outcome = 'delayed';
      throw error;
    } finally {
      onJob({ phase: 'end', queue, startedAtMs, endedAtMs: clock.now().getTime(), outcome, ...due });
    }
  };
}

/** Waiting, delayed and active jobs of one queue (BullMQ's `getJobCounts`: one Redis round trip). */
export async function queueCounts(queue: Queue): Promise<FleetQueueCounts> {
  const counts = await queue.getJobCounts('waiting', 'prioritized', 'delayed', 'active');
  return { waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0), delayed: counts.delayed ?? 0, active: counts.active ?? 0 };
}
