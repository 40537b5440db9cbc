import type { Queue } from 'bullmq';
import { tickChainBroken, unscheduledHeartbeats } from '../fleet/tick-chains.js';
import { scheduleTicks, type TickJobData } from './fleet-scheduler.js';
import { registration, type WorkerContext } from './fleet-worker-context.js';

/** Options of {@link startTickChainWatchdog}. */
export interface TickChainWatchdogOptions {
  readonly ctx: WorkerContext;
  readonly ticks: Queue<TickJobData>;
  /** Time between sweeps. */
  readonly everyMs: number;
  /** Every how many sweeps the registry is compared with the schedulers (1: every sweep). */
  readonly reconcileEvery?: number;
  /** Overdue schedulers looked at per sweep (the oldest first). */
  readonly batch?: number;
}

/** A running watchdog. */
export interface TickChainWatchdog {
  /** One sweep now; resolves to the heartbeats whose ticks it restarted. */
  readonly sweep: () => Promise<string[]>;
  /** Stops the timer and waits for a sweep in progress. */
  readonly stop: () => Promise<void>;
}

/**
 * Restarts heartbeats whose ticks stopped (see fleet/tick-chains.ts). Each sweep reads the tick
 * queue's schedulers whose next tick is past due (BullMQ's `repeat` sorted set, scored by the
 * next tick's time: only the late ones are read), and re-schedules those with no live job over
 * one interval late; every `reconcileEvery` sweeps it also re-schedules registered heartbeats
 * that have no scheduler at all. Re-scheduling is `fleet add`'s upsert with the registered
 * interval, so slots do not move, and a cycle job id per slot keeps a slot from running twice
 * when several workers restart the same chain. A failed sweep is retried at the next one.
 */
export function startTickChainWatchdog(options: TickChainWatchdogOptions): TickChainWatchdog {
  const { ctx, ticks } = options;
  const reconcileEvery = Math.max(1, options.reconcileEvery ?? 10);
  const batch = Math.max(1, options.batch ?? 500);
  let sweeps = 0;
  let running: Promise<string[]> | undefined;

  const restart = async (heartbeatId: string, nextMs: number | undefined): Promise<boolean> => {
    const heartbeat = await registration(ctx, heartbeatId);
    if (heartbeat === undefined) return false; // removed meanwhile: `fleet remove` drops its scheduler
    await scheduleTicks(ticks, heartbeat);
    // A `fleet remove` between our read and our upsert would leave a stray scheduler: undo it.
    if ((await ctx.redis.hexists(ctx.keys.registry, heartbeatId)) === 0) {
      await ticks.removeJobScheduler(heartbeatId);
      return false;
    }
    await ctx.emit({ type: 'ticks-restarted', heartbeatId, ...(nextMs === undefined ? {} : { lostTickMs: nextMs }), worker: ctx.id });
    return true;
  };

  const overdue = async (nowMs: number): Promise<string[]> => {
    const flat: string[] = await ctx.redis.zrangebyscore(ticks.toKey('repeat'), '-inf', nowMs, 'WITHSCORES', 'LIMIT', 0, batch);
    const restarted: string[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const heartbeatId = flat[i] ?? '';
      const nextMs = Number(flat[i + 1]);
      const heartbeat = await registration(ctx, heartbeatId);
      if (heartbeat === undefined) continue;
      // Cheap test first: most late schedulers are a backlog within one interval.
      if (!tickChainBroken({ nextMs, intervalMs: heartbeat.intervalMs, jobState: 'unknown' }, nowMs)) continue;
      const jobState = await ticks.getJobState(`repeat:${heartbeatId}:${nextMs}`);
      if (!tickChainBroken({ nextMs, intervalMs: heartbeat.intervalMs, jobState }, nowMs)) continue;
      // Read again: a worker may have taken the tick and scheduled the next one meanwhile.
      if (Number(await ctx.redis.zscore(ticks.toKey('repeat'), heartbeatId)) !== nextMs) continue;
      if (await restart(heartbeatId, nextMs)) restarted.push(heartbeatId);
    }
    return restarted;
  };

  const unscheduled = async (): Promise<string[]> => {
    // Schedulers first, registry second: a `fleet remove` (registry, then scheduler) in between
    // then shows as neither, never as "registered without a scheduler".
    const scheduled = new Set(await ctx.redis.zrange(ticks.toKey('repeat'), 0, -1));
    const registered = await ctx.redis.hkeys(ctx.keys.registry);
    const restarted: string[] = [];
    for (const heartbeatId of unscheduledHeartbeats(registered, scheduled))
      if (await restart(heartbeatId, undefined)) restarted.push(heartbeatId);
    return restarted;
  };

  const sweep = (): Promise<string[]> => {
    running ??= (async () => {
      try {
        // BullMQ schedules ticks on the wall clock, whatever clock the worker's cycles are given.
        const nowMs = Date.now();
        const restarted = await overdue(nowMs);
        if (sweeps % reconcileEvery === 0) restarted.push(...(await unscheduled()));
        sweeps += 1;
        return restarted;
      } finally {
        running = undefined;
      }
    })();
    return running;
  };

  // A sweep that fails (Redis down, a failover in progress) is simply tried again next time.
  const timer = setInterval(() => void sweep().catch(() => undefined), options.everyMs);
  timer.unref();
  return {
    sweep,
    stop: async () => {
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
