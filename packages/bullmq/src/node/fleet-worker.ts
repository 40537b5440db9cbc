import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Clock, Sleep } from '@heartbeat-kit/core';
import type { ReceiptBounds } from '@heartbeat-kit/core/host';
import { nodeSleep, systemClock } from '@heartbeat-kit/core/node';
import { Queue, Worker } from 'bullmq';
import { outboxBackoffMs } from '../fleet/outbox-rules.js';
import type { RedisTarget } from '../fleet/redis-url.js';
import { tickDueMs } from '../fleet/slots.js';
import { createCycleProcessor } from './cycle-job.js';
import { fleetKeys, type FleetKeys } from './fleet-keys.js';
import type { TickJobData } from './fleet-scheduler.js';
import type { WorkerContext } from './fleet-worker-context.js';
import {
  FLEET_QUEUE_NAMES,
  observeJobs,
  queueCounts,
  type FleetJobEvent,
  type FleetQueueCounts,
  type FleetQueueName,
} from './fleet-worker-observe.js';
import type { CycleJobData, FleetEvent, FleetSink, OutboxJobData, ResolveHeartbeat } from './fleet-worker-types.js';
import { createOutboxProcessor } from './outbox-job.js';
import { closeRedisClient, createRedisClient, bullConnectionFor, type BullConnection, type RedisClient } from './redis-connection.js';
import { DEFAULT_FLEET_RECEIPT_BOUNDS } from './redis-receipt-store.js';
import { startTickChainWatchdog, type TickChainWatchdog } from './tick-chain-watchdog.js';
import { createTickProcessor } from './tick-job.js';

export type { OutboxBreakerSettings } from '../fleet/outbox-rules.js';
export {
  FLEET_QUEUE_NAMES,
  type FleetJobEvent,
  type FleetJobOutcome,
  type FleetQueueCounts,
  type FleetQueueName,
} from './fleet-worker-observe.js';
export type {
  CycleJobData,
  CycleSetup,
  FleetDelivery,
  FleetEvent,
  FleetSink,
  OutboxJobData,
  ResolveHeartbeat,
} from './fleet-worker-types.js';

/** How often a worker sweeps for heartbeats whose tick chain stopped, unless told otherwise (30 s). */
export const DEFAULT_TICK_WATCHDOG_MS = 30_000;

/** Options of {@link createFleetWorker}. */
export interface FleetWorkerOptions {
  readonly target: RedisTarget;
  readonly prefix?: string;
  readonly sink: FleetSink;
  /** Jobs of each queue processed at once (default 4). */
  readonly concurrency?: number;
  /**
   * Scanners and config per heartbeat. No default: the CLI passes one for project directories;
   * tests and benchmarks pass `createFakeResolver()` from `@heartbeat-kit/bullmq/testing`.
   */
  readonly resolve: ResolveHeartbeat;
  /** Receipts kept per heartbeat (default {@link DEFAULT_FLEET_RECEIPT_BOUNDS}). */
  readonly receiptBounds?: ReceiptBounds;
  /** Lease of a heartbeat lock; renewed every third of it while a cycle runs (default 30 s). */
  readonly lockTtlMs?: number;
  /**
   * Replicas that must confirm each new lock fence before a cycle runs (default 0). On a Redis
   * Cluster with a replica per master, 1 keeps a failover from handing the same fence out twice
   * (see docs/performance.md, "Failover").
   */
  readonly minReplicaAcks?: number;
  /** BullMQ's job lock; a worker silent this long has its jobs handed to another (default 30 s). */
  readonly jobLockMs?: number;
  /** How often BullMQ looks for stalled jobs (default: half the job lock). */
  readonly stalledIntervalMs?: number;
  /**
   * How often the tick watchdog looks for heartbeats whose ticks stopped (a next tick lost in a
   * Redis failover, or never scheduled because BullMQ's write failed) and restarts them
   * (default 30 s; 0 turns it off). See `startTickChainWatchdog`.
   */
  readonly tickWatchdogMs?: number;
  /** Append every event to the `{<prefix>}:journal` list (tests and benchmarks read it). */
  readonly journal?: boolean;
  readonly onEvent?: (event: FleetEvent) => void;
  /** Each job attempt's start and end, with its queue and outcome (metrics: durations, schedule lag, active jobs). */
  readonly onJob?: (event: FleetJobEvent) => void;
  readonly workerId?: string;
  readonly clock?: Clock;
  readonly sleep?: Sleep;
}

/** A running fleet worker. */
export interface FleetWorker {
  readonly id: string;
  /** Waiting, delayed and active jobs of each fleet queue, read from Redis now (every worker's, not this one's). */
  readonly queueCounts: () => Promise<Readonly<Record<FleetQueueName, FleetQueueCounts>>>;
  /** How many heartbeats are registered in the fleet, read from Redis now. */
  readonly registeredHeartbeats: () => Promise<number>;
  /** True once the worker takes no new jobs (BullMQ paused, or closing). */
  readonly paused: () => boolean;
  /** Stops taking jobs, waits for running ones, and closes every connection. */
  readonly close: () => Promise<void>;
}

/**
 * A fleet worker: three BullMQ workers on one Redis.
 * - `ticks` (fed by one job scheduler per heartbeat) turns each due slot into a cycle job with
 *   id `<heartbeat>__<slot>` (tick-job.ts); BullMQ ignores a second add of an existing id.
 * - `cycles` takes the heartbeat's Redis lock (fenced), skips a slot the state says already
 *   ran, runs core's cycle step (`scanAndEvaluate`: breaker skips, operator activity, evaluate),
 *   enqueues the message as outbox job `<heartbeat>__<cycle>`, then saves the state and the
 *   slot's receipt in one script under the fence. Message first, state second: a crash in
 *   between re-runs the slot, which re-enqueues the same id (a no-op) instead of losing the
 *   report; state and receipt together: every slot ends in exactly one record.
 * - `outbox` delivers, and only after the sink confirmed marks the findings reported
 *   (core's `markDelivered`) under the lock and fence.
 *
 * @example
 * ```ts
 * import { okAsync } from 'neverthrow';
 * import { parseRedisUrl } from '@heartbeat-kit/bullmq';
 * import { createFleetWorker } from '@heartbeat-kit/bullmq/node';
 * import { createFakeResolver } from '@heartbeat-kit/bullmq/testing';
 *
 * const target = parseRedisUrl(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
 * if (target.isErr()) throw new Error(`REDIS_URL: ${target.error}`); // the script's edge: say why and stop
 * // Run as many workers as you like: each slot runs once, each report is delivered once.
 * const worker = createFleetWorker({
 *   target: target.value,
 *   resolve: createFakeResolver(), // or your own: registration → scanners, config, time zone
 *   sink: { deliver: (delivery) => okAsync(void console.log(delivery.heartbeatId, delivery.message.summary)) },
 * });
 * process.once('SIGTERM', () => void worker.close());
 * ```
 */
export function createFleetWorker(options: FleetWorkerOptions): FleetWorker {
  const keys = fleetKeys(options.prefix);
  const redis = createRedisClient(options.target);
  const ctx: WorkerContext = {
    id: options.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    redis,
    keys,
    clock: options.clock ?? systemClock,
    sleep: options.sleep ?? nodeSleep,
    receiptBounds: options.receiptBounds ?? DEFAULT_FLEET_RECEIPT_BOUNDS,
    lockTtlMs: options.lockTtlMs ?? 30_000,
    minReplicaAcks: options.minReplicaAcks ?? 0,
    emit: async (event) => {
      options.onEvent?.(event);
      if (options.journal === true) await redis.rpush(keys.journal, JSON.stringify(event));
    },
  };
  const bull = bullConnectionFor(options.target);
  const { connection } = bull;
  const cycles = new Queue<CycleJobData>(keys.cycleQueue, { connection, prefix: keys.bullPrefix });
  const outbox = new Queue<OutboxJobData>(keys.outboxQueue, { connection, prefix: keys.bullPrefix });
  const byQueue = startWorkers(ctx, options, { connection, cycles, outbox });
  const workers = Object.values(byQueue);
  // The ticks queue is counted and used by the watchdog (the workers add to the other two).
  let ticks: Queue<TickJobData> | undefined;
  const ticksQueue = (): Queue<TickJobData> => {
    if (ticks === undefined) {
      ticks = new Queue<TickJobData>(keys.tickQueue, { connection, prefix: keys.bullPrefix });
      ticks.on('error', reportError('ticks'));
    }
    return ticks;
  };
  let closing = false;
  // BullMQ retries (and ioredis reconnects); an unheard 'error' event would crash. Each error is
  // said to `onEvent` (not journaled: Redis may be what failed) — among them BullMQ's "Failed to
  // add repeatable job for next iteration", after which the watchdog restarts the heartbeat.
  function reportError(queue: FleetQueueName): (error: unknown) => void {
    return (error) => {
      if (closing) return;
      options.onEvent?.({ type: 'queue-error', queue, message: error instanceof Error ? error.message : String(error), worker: ctx.id });
    };
  }
  for (const queue of FLEET_QUEUE_NAMES) byQueue[queue].on('error', reportError(queue));
  cycles.on('error', reportError('cycles'));
  outbox.on('error', reportError('outbox'));
  redis.on('error', () => undefined);
  const watchdogMs = options.tickWatchdogMs ?? DEFAULT_TICK_WATCHDOG_MS;
  const watchdog: TickChainWatchdog | undefined =
    watchdogMs > 0 ? startTickChainWatchdog({ ctx, ticks: ticksQueue(), everyMs: watchdogMs }) : undefined;

  return {
    id: ctx.id,
    queueCounts: async () => {
      const [t, c, o] = await Promise.all([queueCounts(ticksQueue()), queueCounts(cycles), queueCounts(outbox)]);
      return { ticks: t, cycles: c, outbox: o };
    },
    registeredHeartbeats: () => redis.hlen(keys.registry),
    paused: () => closing || workers.some((worker) => worker.isPaused()),
    close: async () => {
      closing = true;
      await watchdog?.stop();
      const queues = [cycles, outbox, ...(ticks === undefined ? [] : [ticks])];
      // See fleet-scheduler: never close a BullMQ connection that is still initialising.
      await Promise.all([...workers, ...queues].map((q) => q.waitUntilReady().catch(() => undefined)));
      await Promise.all(workers.map((worker) => worker.close()));
      await Promise.all(queues.map((queue) => queue.close()));
      await bull.close();
      await closeRedisClient(redis);
    },
  };
}

/** The three BullMQ workers of a fleet worker, by the queue each takes jobs from. */
function startWorkers(
  ctx: WorkerContext,
  options: FleetWorkerOptions,
  queues: {
    readonly connection: BullConnection['connection'];
    readonly cycles: Queue<CycleJobData>;
    readonly outbox: Queue<OutboxJobData>;
  },
): Record<FleetQueueName, Worker> {
  const { connection, cycles, outbox } = queues;
  const { keys } = ctx;
  const jobLockMs = options.jobLockMs ?? 30_000;
  const workerOptions = {
    connection,
    prefix: keys.bullPrefix,
    concurrency: Math.max(1, options.concurrency ?? 4),
    lockDuration: jobLockMs,
    stalledInterval: options.stalledIntervalMs ?? Math.max(500, Math.floor(jobLockMs / 2)),
    maxStalledCount: 100,
    settings: {
      backoffStrategy: (attemptsMade: number, type?: string, _error?: Error, job?: { readonly data?: unknown }): number =>
        outboxBackoffMs(attemptsMade, type, (job?.data as OutboxJobData | undefined)?.breaker?.intervalMs),
    },
  };
  const observe = { clock: ctx.clock, onJob: options.onJob };
  return {
    ticks: new Worker<TickJobData>(
      keys.tickQueue,
      observeJobs('ticks', createTickProcessor(ctx, cycles), { ...observe, dueOf: (job) => tickDueMs({ ...job, id: job.id }) }),
      workerOptions,
    ) as Worker,
    cycles: new Worker<CycleJobData>(
      keys.cycleQueue,
      observeJobs('cycles', createCycleProcessor(ctx, { resolve: options.resolve, outbox }), {
        ...observe,
        dueOf: (job) => job.data.dueMs,
      }),
      workerOptions,
    ) as Worker,
    outbox: new Worker<OutboxJobData>(
      keys.outboxQueue,
      observeJobs('outbox', createOutboxProcessor(ctx, options.sink), observe),
      workerOptions,
    ) as Worker,
  };
}

/** Reads the journal a worker with `journal: true` appended to. */
export async function readFleetJournal(redis: RedisClient, prefix?: string): Promise<FleetEvent[]> {
  const keys: FleetKeys = fleetKeys(prefix);
  const entries = await redis.lrange(keys.journal, 0, -1);
  return entries.map((text) => JSON.parse(text) as FleetEvent);
}
