import type { Job, Queue } from 'bullmq';
import { cycleJobId, slotOf, tickDueMs } from '../fleet/slots.js';
import type { TickJobData } from './fleet-scheduler.js';
import { registration, type WorkerContext } from './fleet-worker-context.js';
import type { CycleJobData } from './fleet-worker-types.js';

/**
 * The `ticks` job: turns a due tick of a heartbeat's job scheduler into the cycle job of its slot,
 * with id `<heartbeat>__<slot>`; BullMQ ignores a second add of an existing id.
 */
export function createTickProcessor(ctx: WorkerContext, cycles: Queue<CycleJobData>): (job: Job<TickJobData>) => Promise<void> {
  return async (job) => {
    const heartbeat = await registration(ctx, job.data.heartbeatId);
    if (heartbeat === undefined) return;
    const dueMs = tickDueMs({ id: job.id, timestamp: job.timestamp, delay: job.opts.delay });
    const slot = slotOf(dueMs, heartbeat.intervalMs);
    await cycles.add(
      'cycle',
      { heartbeatId: heartbeat.id, slot, dueMs },
      {
        jobId: cycleJobId(heartbeat.id, slot),
        attempts: 50,
        backoff: { type: 'fixed', delay: 500 },
        // Kept for a day so a re-added id stays a no-op; the state's lastSlot guards beyond that.
        removeOnComplete: { age: 24 * 3600, count: 100_000 },
        removeOnFail: { age: 7 * 24 * 3600 },
      },
    );
  };
}
