/**
 * Redis is SIGKILLed and started again on the same append-only file: registrations, BullMQ job
 * schedulers, dedup memory and fencing counters must all come back.
 */
import { okAsync } from 'neverthrow';
import { expect, it } from 'vitest';
import { decodeFleetState, type FleetStateDocument } from '../src/index.js';
import {
  createFleetScheduler,
  createFleetWorker,
  fleetKeys,
  readFleetJournal,
  type FleetDelivery,
  type FleetEvent,
} from '../src/node/index.js';
import { createFakeResolver } from '../src/testing/index.js';
import { useRedis } from './support/redis-server.js';

const redis = useRedis();

const prefix = 'restart';
const keys = fleetKeys(prefix);
const ids = ['one', 'two', 'three'];
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
/** Polls until `predicate` holds, however long a loaded machine takes (the test timeout is the backstop; `what` names the wait). */
const waitFor = async (predicate: () => Promise<boolean>, what: string): Promise<void> => {
  void what;
  while (!(await predicate())) await sleep(50);
};
const cycles = async (): Promise<Extract<FleetEvent, { type: 'cycle' }>[]> =>
  (await readFleetJournal(redis.client, prefix)).filter((e): e is Extract<FleetEvent, { type: 'cycle' }> => e.type === 'cycle');
const stateOf = async (id: string): Promise<FleetStateDocument> =>
  decodeFleetState(JSON.parse((await redis.client.get(keys.state(id))) ?? 'null') as never).state;
const fenceOf = async (id: string): Promise<number> => Number(await redis.client.get(`${keys.lock(id)}:fence`));

it('schedules, dedup memory and fencing numbers survive a Redis restart (append-only file)', async () => {
  const delivered: FleetDelivery[] = [];
  const sink = { deliver: (delivery: FleetDelivery) => (delivered.push(delivery), okAsync(undefined)) };
  const scheduler = createFleetScheduler({ target: redis.target, prefix });
  // One finding per heartbeat for the whole test: reported once, then held back by dedup.
  for (const id of ids)
    (await scheduler.add({ id, intervalMs: 300, source: { kind: 'scanners', set: 'fake', reportEvery: 1_000_000_000 } }))._unsafeUnwrap();
  const first = createFleetWorker({ target: redis.target, prefix, resolve: createFakeResolver(), sink, journal: true });
  await waitFor(
    async () => ids.every((id) => delivered.some((d) => d.heartbeatId === id)) && (await cycles()).length >= 12,
    'cycles and one report per heartbeat',
  );
  await first.close();
  await scheduler.close();

  const before = new Map<string, { state: FleetStateDocument; fence: number }>();
  for (const id of ids) before.set(id, { state: await stateOf(id), fence: await fenceOf(id) });
  for (const { state } of before.values()) expect(Object.keys(state.heartbeat.reported)).toHaveLength(1);
  expect(delivered).toHaveLength(3);

  await redis.server.kill();
  await redis.server.restart();

  const again = createFleetScheduler({ target: redis.target, prefix });
  expect(
    (await again.list())
      ._unsafeUnwrap()
      .map((h) => h.id)
      .sort(),
  ).toEqual([...ids].sort());
  const status = (await again.status())._unsafeUnwrap();
  for (const entry of status) expect(entry.nextSlotAt, `${entry.heartbeat.id} still scheduled`).toBeDefined();
  for (const id of ids) {
    const { state, fence } = before.get(id)!;
    expect(await fenceOf(id)).toBe(fence);
    expect((await stateOf(id)).heartbeat.reported).toEqual(state.heartbeat.reported);
    expect((await stateOf(id)).fleet.lastCycle).toBe(state.fleet.lastCycle);
  }

  const journalLength = (await cycles()).length;
  const second = createFleetWorker({ target: redis.target, prefix, resolve: createFakeResolver(), sink, journal: true });
  await waitFor(async () => {
    const after = (await cycles()).slice(journalLength);
    return ids.every((id) => after.filter((c) => c.heartbeatId === id).length >= 2);
  }, 'cycles after the restart');
  await second.close();
  await again.close();

  const after = (await cycles()).slice(journalLength);
  for (const id of ids) {
    const { state, fence } = before.get(id)!;
    const mine = after.filter((c) => c.heartbeatId === id);
    // Fences continue above the pre-restart counter; cycle numbers continue, never restart at 1.
    for (const cycle of mine) expect(cycle.fence).toBeGreaterThan(fence);
    expect(mine[0]!.cycle).toBe(state.fleet.lastCycle! + 1);
  }
  // The remembered reports kept the same findings quiet after the restart.
  expect(delivered).toHaveLength(3);
});
