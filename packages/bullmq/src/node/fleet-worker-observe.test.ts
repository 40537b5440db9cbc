import { Queue } from 'bullmq';
import { errAsync, okAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { useRedis } from '../../test/support/redis-server.js';
import { createFakeResolver } from '../testing/index.js';
import { createFleetScheduler } from './fleet-scheduler.js';
import { fleetKeys } from './fleet-keys.js';
import { createFleetWorker, type FleetEvent, type FleetJobEvent } from './fleet-worker.js';

// What a fleet worker tells its metrics, on a real redis-server: every job attempt's start and end,
// the cycle's status and findings, failed deliveries, the queues' counts and the registrations.
const redis = useRedis();

const waitFor = async (predicate: () => boolean | Promise<boolean>): Promise<void> => {
  while (!(await predicate())) await new Promise((resolve) => setTimeout(resolve, 50));
};

describe('fleet worker observation (onJob, cycle status and findings, queue counts)', () => {
  it('says each job attempt, what each cycle found, a refused delivery, and counts the queues in Redis', async () => {
    const prefix = 'observed';
    const { target } = redis;
    const scheduler = createFleetScheduler({ target, prefix });
    // A message parked an hour ahead in the outbox: the one job whose state the counts can be sure of.
    const outbox = new Queue(fleetKeys(prefix).outboxQueue, {
      connection: { path: redis.server.socket },
      prefix: fleetKeys(prefix).bullPrefix,
    });
    await outbox.add('parked', { heartbeatId: 'nobody', cycle: 1 }, { jobId: 'parked', delay: 3_600_000 });
    const jobs: FleetJobEvent[] = [];
    const events: FleetEvent[] = [];
    let refusals = 1;
    const worker = createFleetWorker({
      target,
      prefix,
      resolve: createFakeResolver(),
      // The first delivery is refused (retried with backoff), the rest go through.
      sink: {
        deliver: () =>
          refusals-- > 0 ? errAsync({ kind: 'delivery-failed' as const, message: 'sink down for a moment' }) : okAsync(undefined),
      },
      onEvent: (event) => events.push(event),
      onJob: (event) => jobs.push(event),
    });
    expect(worker.paused()).toBe(false);
    for (const [id, reportEvery] of [
      ['busy', 1],
      ['quiet', 0],
    ] as const)
      (await scheduler.add({ id, intervalMs: 300, source: { kind: 'scanners', set: 'fake', reportEvery } }))._unsafeUnwrap();
    const cyclesOf = (id: string) =>
      events.filter((e): e is Extract<FleetEvent, { type: 'cycle' }> => e.type === 'cycle' && e.heartbeatId === id);
    await waitFor(
      () =>
        cyclesOf('busy').length >= 2 &&
        cyclesOf('quiet').length >= 2 &&
        events.some((e) => e.type === 'delivered') &&
        events.some((e) => e.type === 'delivery-failed'),
    );
    const counts = await worker.queueCounts();
    expect(await worker.registeredHeartbeats()).toBe(2);
    const closing = worker.close();
    expect(worker.paused()).toBe(true);
    await closing;
    await scheduler.close();
    await outbox.close();

    expect(Object.keys(counts)).toEqual(['ticks', 'cycles', 'outbox']);
    expect(counts.outbox.delayed).toBeGreaterThanOrEqual(1);
    for (const queue of Object.values(counts))
      for (const n of [queue.waiting, queue.delayed, queue.active]) expect(Number.isInteger(n) && n >= 0).toBe(true);

    expect(cyclesOf('busy')[0]).toMatchObject({
      status: 'report',
      findings: [{ category: 'ORCH_FAILURE', priority: 'Immediate', count: 1 }],
    });
    for (const cycle of cyclesOf('quiet')) expect(cycle).toMatchObject({ status: 'ok', findings: [] });
    expect(events.find((e) => e.type === 'delivery-failed')).toMatchObject({ heartbeatId: 'busy', message: 'sink down for a moment' });

    // Every attempt that started ended (the worker closed after draining), each with its queue's due time.
    const starts = jobs.filter((j) => j.phase === 'start');
    const ends = jobs.filter((j) => j.phase === 'end');
    expect(ends.length).toBe(starts.length);
    for (const queue of ['ticks', 'cycles', 'outbox'] as const) expect(ends.some((j) => j.queue === queue)).toBe(true);
    for (const end of ends) {
      expect(end.endedAtMs).toBeGreaterThanOrEqual(end.startedAtMs);
      expect(end.dueMs === undefined).toBe(end.queue === 'outbox');
    }
    expect(ends.some((j) => j.queue === 'outbox' && j.outcome === 'failed')).toBe(true);
    expect(ends.filter((j) => j.queue === 'cycles' && j.outcome === 'completed').length).toBeGreaterThanOrEqual(4);
  });
});
