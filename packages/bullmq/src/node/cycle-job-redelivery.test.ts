/**
 * A cycle job processed twice (BullMQ delivers at least once: a stalled job, or one whose
 * completion a failover lost, runs again) must not give its slot two records. Found by
 * fleet-cluster-chaos.test.ts under load: one slot of 24 had two `overlapping` receipts, written by
 * two workers 11 s apart while the queues' master failed over and the earlier slot's cycle held
 * the lock. Here the second processing is made certain: the first one's journal write fails
 * right after its overlap record (as it does while the fleet's master is down), so BullMQ retries
 * the job — once while the holder still runs, once after it committed. And a third shape, seen in
 * the chaos test at load 36 after that fix: the job processed again after its slot *ran*, while a
 * late job of an earlier slot held the lock only to find its slot ran — it recorded an overlap too.
 */
import type { Receipt, Scanner } from '@heartbeat-kit/core';
import { Queue } from 'bullmq';
import { err, ok, okAsync } from 'neverthrow';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFleetBackend } from '../../test/support/fleet-backends.js';
import { cycleJobId, slotOf } from '../fleet/slots.js';
import { createFakeResolver } from '../testing/index.js';
import { fleetKeys } from './fleet-keys.js';
import { createFleetWorker, type FleetEvent } from './fleet-worker.js';
import type { RedisClient } from './redis-connection.js';
import { createRedisLockStore } from './redis-lock-store.js';
import { createRedisReceiptStore } from './redis-receipt-store.js';

const waitFor = async (predicate: () => boolean | Promise<boolean>): Promise<void> => {
  while (!(await predicate())) await new Promise((resolve) => setTimeout(resolve, 50));
};

describe('a cycle job processed twice', () => {
  const backend = useFleetBackend('single Redis');
  let client: RedisClient;
  beforeAll(() => {
    client = backend.current().client;
  });

  it.each([
    ['while the holder still runs', false],
    ['after the holder committed', true],
  ])('records its overlapped slot once (%s)', async (_name, retryAfterCommit) => {
    const prefix = `redelivered-${retryAfterCommit ? 'after' : 'during'}`;
    const keys = fleetKeys(prefix);
    const intervalMs = 60_000;
    await client.hset(
      keys.registry,
      'hb',
      JSON.stringify({ id: 'hb', intervalMs, source: { kind: 'scanners', set: 'fake', reportEvery: 0 } }),
    );
    const holderSlot = slotOf(Date.now(), intervalMs);
    const overlapped = holderSlot + 1;
    // The holder's scan waits for the test; every other slot scans at once.
    let releaseHolder: () => void = () => undefined;
    const holderGate = new Promise<void>((resolve) => (releaseHolder = resolve));
    let holderScanning = false;
    const fakes = createFakeResolver();
    const events: FleetEvent[] = [];
    let failedOnce = false;
    let retriesAllowed = !retryAfterCommit;
    const worker = createFleetWorker({
      target: backend.current().target,
      prefix,
      concurrency: 4,
      resolve: async (heartbeat, slot) => {
        const setup = await fakes(heartbeat, slot);
        if (setup.isErr() || slot !== holderSlot) return setup;
        const scanners = setup.value.scanners.map((scanner): Scanner => ({
          ...scanner,
          scan: async (context) => {
            holderScanning = true;
            await holderGate;
            return scanner.scan(context);
          },
        }));
        return ok({ ...setup.value, scanners });
      },
      sink: { deliver: () => okAsync(undefined) },
      onEvent: (event) => {
        events.push(event);
        // The first processing's event write fails after its record: BullMQ retries the job.
        if (event.type === 'skip' && event.slot === overlapped && !failedOnce) {
          failedOnce = true;
          throw new Error('journal write failed (the fleet master is failing over)');
        }
        // The retry waits, in the second case, until the holder has committed.
        if (event.type === 'skip' && event.slot === overlapped && !retriesAllowed) throw new Error('not yet');
      },
    });
    const cycles = new Queue(keys.cycleQueue, { connection: backend.current().bull(), prefix: keys.bullPrefix });
    const add = (slot: number) =>
      cycles.add(
        'cycle',
        { heartbeatId: 'hb', slot, dueMs: slot * intervalMs + 7 },
        { jobId: cycleJobId('hb', slot), attempts: 50, backoff: { type: 'fixed', delay: 100 } },
      );
    await add(holderSlot);
    await waitFor(() => holderScanning);
    await add(overlapped);
    await waitFor(() => failedOnce);
    if (retryAfterCommit) {
      releaseHolder();
      await waitFor(() => events.some((e) => e.type === 'cycle' && e.slot === holderSlot));
      retriesAllowed = true;
    }
    const job = await cycles.getJob(cycleJobId('hb', overlapped));
    await waitFor(async () => (await job!.getState()) === 'completed');
    releaseHolder();
    await waitFor(() => events.some((e) => e.type === 'cycle' && e.slot === holderSlot));
    await worker.close();
    await cycles.close();

    const receipts = (
      await createRedisReceiptStore({ redis: client, key: keys.receipts('hb'), clock: { now: () => new Date() } }).list()
    )._unsafeUnwrap().receipts as Receipt[];
    const ofSlot = (slot: number) => receipts.filter((r) => slotOf(Date.parse(r.slot), intervalMs) === slot);
    expect(ofSlot(holderSlot).map((r) => r.kind)).toEqual(['ran']);
    expect(ofSlot(overlapped).map((r) => (r.kind === 'skipped' ? r.reason : r.kind))).toEqual(['overlapping']);
    expect(events.filter((e) => e.type === 'cycle' && e.slot === overlapped)).toEqual([]);
  });

  it('a job processed again after its slot ran adds no record, whatever holds the lock then', async () => {
    const prefix = 'redelivered-ran';
    const keys = fleetKeys(prefix);
    const intervalMs = 60_000;
    await client.hset(
      keys.registry,
      'hb',
      JSON.stringify({ id: 'hb', intervalMs, source: { kind: 'scanners', set: 'fake', reportEvery: 0 } }),
    );
    const slot = slotOf(Date.now(), intervalMs);
    const events: FleetEvent[] = [];
    const worker = createFleetWorker({
      target: backend.current().target,
      prefix,
      resolve: createFakeResolver(),
      sink: { deliver: () => okAsync(undefined) },
      onEvent: (event) => void events.push(event),
    });
    const cycles = new Queue(keys.cycleQueue, { connection: backend.current().bull(), prefix: keys.bullPrefix });
    const add = (jobId: string) => cycles.add('cycle', { heartbeatId: 'hb', slot, dueMs: slot * intervalMs + 7 }, { jobId });
    await add(cycleJobId('hb', slot));
    await waitFor(() => events.some((e) => e.type === 'cycle' && e.slot === slot));
    // A late job of the slot before holds the lock (as it does for a moment, to see its slot ran).
    const lock = createRedisLockStore({ redis: client, key: keys.lock('hb'), ttlMs: 60_000 });
    const owner = `late-worker:cycle-${slot - 1}:0000`;
    (await lock.acquire({ owner, nowMs: Date.now(), staleAfterMs: 60_000 }))._unsafeUnwrap();
    // The slot's job, processed again (BullMQ's at-least-once delivery; another id stands for it).
    await add(`${cycleJobId('hb', slot)}-again`);
    await waitFor(() => events.filter((e) => e.type === 'skip' && e.slot === slot).length >= 1);
    await lock.release(owner);
    await worker.close();
    await cycles.close();

    const receipts = (
      await createRedisReceiptStore({ redis: client, key: keys.receipts('hb'), clock: { now: () => new Date() } }).list()
    )._unsafeUnwrap().receipts as Receipt[];
    expect(receipts.filter((r) => slotOf(Date.parse(r.slot), intervalMs) === slot).map((r) => r.kind)).toEqual(['ran']);
  });

  it('a job whose setup failed, processed again, records its config error once', async () => {
    const prefix = 'redelivered-config-error';
    const keys = fleetKeys(prefix);
    const intervalMs = 60_000;
    await client.hset(
      keys.registry,
      'hb',
      JSON.stringify({ id: 'hb', intervalMs, source: { kind: 'scanners', set: 'fake', reportEvery: 0 } }),
    );
    const slot = slotOf(Date.now(), intervalMs);
    const events: FleetEvent[] = [];
    const worker = createFleetWorker({
      target: backend.current().target,
      prefix,
      // A broken registration: every processing of the slot's job fails its setup the same way.
      resolve: () => Promise.resolve(err('HEARTBEAT.md: Checks → run: is missing')),
      sink: { deliver: () => okAsync(undefined) },
      onEvent: (event) => void events.push(event),
    });
    const cycles = new Queue(keys.cycleQueue, { connection: backend.current().bull(), prefix: keys.bullPrefix });
    const add = (jobId: string) => cycles.add('cycle', { heartbeatId: 'hb', slot, dueMs: slot * intervalMs + 7 }, { jobId });
    const ofSlot = () => events.filter((e) => (e.type === 'failed' || e.type === 'skip') && e.slot === slot);
    await add(cycleJobId('hb', slot));
    await waitFor(() => ofSlot().length >= 1);
    // The same slot's job processed again (a stalled job whose worker died after the record; another id stands for it).
    await add(`${cycleJobId('hb', slot)}-again`);
    await waitFor(() => ofSlot().length >= 2);
    await worker.close();
    await cycles.close();

    const receipts = (
      await createRedisReceiptStore({ redis: client, key: keys.receipts('hb'), clock: { now: () => new Date() } }).list()
    )._unsafeUnwrap().receipts as Receipt[];
    const kinds = receipts
      .filter((r) => slotOf(Date.parse(r.slot), intervalMs) === slot)
      .map((r) => (r.kind === 'skipped' ? r.reason : r.kind));
    expect(kinds).toEqual(['config-error']);
  });
});
