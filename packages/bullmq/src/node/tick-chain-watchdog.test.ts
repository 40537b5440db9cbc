import { Queue } from 'bullmq';
import { nodeSleep, systemClock } from '@heartbeat-kit/core/node';
import { okAsync } from 'neverthrow';
import { beforeAll, describe, expect, it } from 'vitest';
import { FLEET_BACKENDS, useFleetBackend } from '../../test/support/fleet-backends.js';
import type { RedisTarget } from '../fleet/redis-url.js';
import { createFakeResolver } from '../testing/index.js';
import { fleetKeys } from './fleet-keys.js';
import { createFleetScheduler, type TickJobData } from './fleet-scheduler.js';
import { createFleetWorker, type FleetEvent, type FleetWorker } from './fleet-worker.js';
import type { WorkerContext } from './fleet-worker-context.js';
import type { BullConnection, RedisClient } from './redis-connection.js';
import { DEFAULT_FLEET_RECEIPT_BOUNDS } from './redis-receipt-store.js';
import { startTickChainWatchdog } from './tick-chain-watchdog.js';

// The issue-33 finding: after a master failover no heartbeat ticked again. BullMQ schedules a
// heartbeat's next tick in its own write when a worker takes the current one; a failover that
// loses that write (replication is asynchronous) ends the chain for good. These tests lose the
// write on purpose (the pending tick deleted while no worker runs) and check the watchdog.
let client: RedisClient;
let target: RedisTarget;
let bull: () => BullConnection['connection'];

const INTERVAL_MS = 300;

/** Polls until `predicate` holds, however long a loaded machine takes (the test timeout is the backstop). */
const waitFor = async (predicate: () => boolean | Promise<boolean>): Promise<void> => {
  while (!(await predicate())) await new Promise((resolve) => setTimeout(resolve, 50));
};
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(FLEET_BACKENDS)('tick watchdog on %s', (kind) => {
  const backend = useFleetBackend(kind);
  beforeAll(() => {
    ({ client, target } = backend.current());
    bull = () => backend.current().bull();
  });

  const ticksOf = (prefix: string): Queue<TickJobData> => {
    const keys = fleetKeys(prefix);
    const queue = new Queue<TickJobData>(keys.tickQueue, { connection: bull(), prefix: keys.bullPrefix });
    queue.on('error', () => undefined);
    return queue;
  };

  /** What a worker would give its watchdog, for sweeping by hand. */
  const contextFor = (prefix: string): WorkerContext => ({
    id: 'sweeper',
    redis: client,
    keys: fleetKeys(prefix),
    clock: systemClock,
    sleep: nodeSleep,
    receiptBounds: DEFAULT_FLEET_RECEIPT_BOUNDS,
    lockTtlMs: 30_000,
    minReplicaAcks: 0,
    emit: () => Promise.resolve(),
  });

  const startWorker = (prefix: string, tickWatchdogMs: number, events: FleetEvent[]): FleetWorker =>
    createFleetWorker({
      target,
      prefix,
      resolve: createFakeResolver(),
      sink: { deliver: () => okAsync(undefined) },
      tickWatchdogMs,
      onEvent: (event) => events.push(event),
    });

  const cyclesOf = (events: readonly FleetEvent[], heartbeatId: string): number =>
    events.filter((event) => event.type === 'cycle' && event.heartbeatId === heartbeatId).length;

  /** Deletes a scheduler's pending tick as a failover that lost the write would: the job hash and its place in `delayed`. */
  const loseNextTick = async (ticks: Queue<TickJobData>, heartbeatId: string): Promise<number> => {
    const next = Number(await client.zscore(ticks.toKey('repeat'), heartbeatId));
    const jobId = `repeat:${heartbeatId}:${next}`;
    // Delayed, or waiting if it came due just before the worker closed.
    expect(['delayed', 'waiting']).toContain(await ticks.getJobState(jobId));
    await client.zrem(ticks.toKey('delayed'), jobId);
    await client.lrem(ticks.toKey('wait'), 0, jobId);
    await client.del(ticks.toKey(jobId));
    expect(await ticks.getJobState(jobId)).toBe('unknown');
    return next;
  };

  it('a heartbeat whose next tick was lost never ticks again without the watchdog, and ticks again with it', async () => {
    const prefix = 'lost-tick';
    const scheduler = createFleetScheduler({ target, prefix });
    const ticks = ticksOf(prefix);
    const events: FleetEvent[] = [];
    (await scheduler.add({ id: 'lost', intervalMs: INTERVAL_MS, source: { kind: 'scanners', set: 'fake' } }))._unsafeUnwrap();

    const first = startWorker(prefix, 0, events);
    await waitFor(() => cyclesOf(events, 'lost') >= 2);
    await first.close();
    const lostTickMs = await loseNextTick(ticks, 'lost');

    // Without the watchdog nothing can ever make a tick: no cycle of the lost slot or a later one,
    // however long we wait. (A cycle job the first worker's last tick queued may still run here:
    // its slot is before the lost one, so it is not counted.)
    const unwatched = startWorker(prefix, 0, events);
    await waitFor(() => Date.now() > lostTickMs + 5 * INTERVAL_MS);
    await sleep(2 * INTERVAL_MS);
    await unwatched.close();
    const fromLostSlot = (): number[] =>
      events.flatMap((event) => (event.type === 'cycle' && event.heartbeatId === 'lost' && event.dueMs >= lostTickMs ? [event.dueMs] : []));
    expect(fromLostSlot()).toEqual([]);

    const before = cyclesOf(events, 'lost');
    const watched = startWorker(prefix, 100, events);
    await waitFor(() => cyclesOf(events, 'lost') >= before + 3);
    await watched.close();
    const restarts = events.filter((event) => event.type === 'ticks-restarted');
    expect(restarts).toEqual([{ type: 'ticks-restarted', heartbeatId: 'lost', lostTickMs, worker: watched.id }]);
    // Restarted at its place in the interval: slots keep their spacing and none runs twice.
    const slots = events.flatMap((event) => (event.type === 'cycle' ? [event.slot] : []));
    expect(new Set(slots).size).toBe(slots.length);
    const dues = events.flatMap((event) => (event.type === 'cycle' ? [event.dueMs] : []));
    for (const due of dues) expect((due - dues[0]!) % INTERVAL_MS).toBe(0);
    await ticks.close();
    await scheduler.close();
  });

  it('a registered heartbeat whose scheduler was never written is scheduled by the first sweep', async () => {
    const prefix = 'no-scheduler';
    const scheduler = createFleetScheduler({ target, prefix });
    const ticks = ticksOf(prefix);
    (await scheduler.add({ id: 'orphan', intervalMs: INTERVAL_MS, source: { kind: 'scanners', set: 'fake' } }))._unsafeUnwrap();
    await ticks.removeJobScheduler('orphan'); // as if `fleet add`'s second write was lost
    const events: FleetEvent[] = [];
    const worker = startWorker(prefix, 100, events);
    await waitFor(() => cyclesOf(events, 'orphan') >= 2);
    await worker.close();
    expect(events.filter((event) => event.type === 'ticks-restarted')).toEqual([
      { type: 'ticks-restarted', heartbeatId: 'orphan', worker: worker.id },
    ]);
    await ticks.close();
    await scheduler.close();
  });

  it('a hand-edited registry entry that is not JSON does not stop the sweep: the other heartbeats are restarted', async () => {
    const prefix = 'corrupt-entry';
    const scheduler = createFleetScheduler({ target, prefix });
    const ticks = ticksOf(prefix);
    (await scheduler.add({ id: 'fine', intervalMs: INTERVAL_MS, source: { kind: 'scanners', set: 'fake' } }))._unsafeUnwrap();
    (await scheduler.add({ id: 'edited', intervalMs: INTERVAL_MS, source: { kind: 'scanners', set: 'fake' } }))._unsafeUnwrap();
    await ticks.removeJobScheduler('fine');
    await ticks.removeJobScheduler('edited');
    await client.hset(fleetKeys(prefix).registry, 'edited', '{"id": "edited", "intervalMs":');
    const sweeper = startTickChainWatchdog({ ctx: contextFor(prefix), ticks, everyMs: 3_600_000, reconcileEvery: 1 });
    expect(await sweeper.sweep()).toEqual(['fine']);
    await sweeper.stop();
    expect(await ticks.getJobScheduler('fine')).toBeDefined();
    expect(await ticks.getJobScheduler('edited')).toBeUndefined();
    await ticks.obliterate({ force: true });
    await ticks.close();
    await scheduler.close();
  });

  it("says BullMQ's errors as queue-error events instead of swallowing them", async () => {
    const prefix = 'queue-errors';
    const keys = fleetKeys(prefix);
    const events: FleetEvent[] = [];
    const worker = startWorker(prefix, 0, events);
    // The cycles worker blocks on its queue's marker; a marker of the wrong type makes Redis refuse it.
    await client.set(`${keys.bullPrefix}:${keys.cycleQueue}:marker`, 'not a sorted set');
    const cycles = new Queue(keys.cycleQueue, { connection: bull(), prefix: keys.bullPrefix });
    cycles.on('error', () => undefined);
    await cycles.add('cycle', {}, { jobId: 'wake-the-worker' }).catch(() => undefined);
    await waitFor(() => events.some((event) => event.type === 'queue-error'));
    await client.del(`${keys.bullPrefix}:${keys.cycleQueue}:marker`);
    await worker.close();
    await cycles.obliterate({ force: true }).catch(() => undefined);
    await cycles.close();
    const errors = events.filter((event) => event.type === 'queue-error');
    expect(errors[0]).toMatchObject({ type: 'queue-error', queue: 'cycles', worker: worker.id });
    expect(errors[0]?.type === 'queue-error' && errors[0].message).toMatch(/WRONGTYPE/);
  });

  it('leaves a backlog and a removed heartbeat alone: a late tick that is still queued is not restarted', async () => {
    const prefix = 'backlog';
    const scheduler = createFleetScheduler({ target, prefix });
    const ticks = ticksOf(prefix);
    (await scheduler.add({ id: 'late', intervalMs: INTERVAL_MS, source: { kind: 'scanners', set: 'fake' } }))._unsafeUnwrap();
    (await scheduler.add({ id: 'gone', intervalMs: INTERVAL_MS, source: { kind: 'scanners', set: 'fake' } }))._unsafeUnwrap();
    (await scheduler.remove('gone'))._unsafeUnwrap();
    // No worker for many intervals: the pending tick is late but still there (BullMQ collapses
    // the missed slots into it when a worker comes).
    const next = Number(await client.zscore(ticks.toKey('repeat'), 'late'));
    await waitFor(() => Date.now() > next + 5 * INTERVAL_MS);
    // A sweep before any worker takes the late tick: it must restart nothing.
    const sweeper = startTickChainWatchdog({ ctx: contextFor(prefix), ticks, everyMs: 3_600_000, reconcileEvery: 1 });
    expect(await sweeper.sweep()).toEqual([]);
    await sweeper.stop();
    expect(await ticks.getJobState(`repeat:late:${next}`)).toBe('delayed');
    const events: FleetEvent[] = [];
    const worker = startWorker(prefix, 50, events);
    await waitFor(() => cyclesOf(events, 'late') >= 3);
    await worker.close();
    expect(events.filter((event) => event.type === 'ticks-restarted')).toEqual([]);
    expect(await ticks.getJobScheduler('gone')).toBeUndefined();
    expect(cyclesOf(events, 'gone')).toBe(0);
    await ticks.close();
    await scheduler.close();
  });
});
