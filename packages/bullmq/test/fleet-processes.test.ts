/**
 * Fleet behaviour with real worker processes on a real redis-server (unix socket): concurrency
 * over dozens of heartbeats, a holder frozen with SIGSTOP, a worker SIGKILLed mid-cycle.
 * Nothing here counts what a machine manages in a given time: each test waits for behaviour
 * (cycles committed, a successor, a delivery) and the test timeout is only a backstop.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Receipt } from '@heartbeat-kit/core';
import {
  createFleetScheduler,
  createRedisReceiptStore,
  fleetKeys,
  readFleetJournal,
  type FleetEvent,
  type RedisClient,
} from '../src/node/index.js';
import { decodeFleetState, slotOf, type FleetStateDocument } from '../src/index.js';
import { bundleChild, type BundledChild } from './support/bundle-child.js';
import { FLEET_BACKENDS, useFleetBackend, type FleetBackend } from './support/fleet-backends.js';
import { startWorker, type WorkerProcess } from './support/worker-processes.js';

type CycleEvent = Extract<FleetEvent, { type: 'cycle' }>;

// The suite runs on one redis-server and on a 3 + 3 Redis Cluster (see fleet-backends.ts).
let redis: FleetBackend;
let client: RedisClient;
let bundle: BundledChild;
let workers: WorkerProcess[] = [];

beforeAll(async () => {
  bundle = await bundleChild(fileURLToPath(new URL('./children/fleet-worker-child.ts', import.meta.url)));
});
afterEach(async () => {
  await Promise.all(workers.map((worker) => worker.stop()));
  workers = [];
});
afterAll(() => {
  bundle.dispose();
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
/**
 * Polls until `predicate` holds, however long a loaded machine takes (the test timeout is the backstop).
 * A wait still open after a minute says which one, once, so a backstop failure names the step it hung on.
 */
const waitFor = async (predicate: () => Promise<boolean>): Promise<void> => {
  const started = Date.now();
  let said = false;
  while (!(await predicate())) {
    if (!said && Date.now() - started > 60_000) {
      said = true;
      console.error(`fleet-processes: still waiting after 60 s for: ${predicate.toString().slice(0, 300)}`);
    }
    await sleep(50);
  }
};
// Generous backstops: a 2-core machine at load 20 is slow, not wrong.
const BACKSTOP_MS = 300_000;

const sinkLines = (file: string): { id: string; heartbeatId: string; cycle: number; summary: string }[] =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { id: string; heartbeatId: string; cycle: number; summary: string })
    : [];

async function spawnWorkers(count: number, prefix: string, extra: Record<string, string> = {}): Promise<string> {
  const sinkFile = join(redis.dir, `${prefix}-sink.jsonl`);
  const started = await Promise.all(
    Array.from({ length: count }, () =>
      startWorker(bundle.file, { FLEET_REDIS_URL: redis.url, FLEET_PREFIX: prefix, FLEET_SINK_FILE: sinkFile, ...extra }),
    ),
  );
  workers.push(...started);
  return sinkFile;
}

const cyclesOf = (journal: FleetEvent[], heartbeatId: string): CycleEvent[] =>
  journal.filter((e): e is CycleEvent => e.type === 'cycle' && e.heartbeatId === heartbeatId).sort((a, b) => a.startedAtMs - b.startedAtMs);

const stateOf = async (key: string): Promise<FleetStateDocument> =>
  decodeFleetState(JSON.parse((await client.get(key)) ?? 'null') as never).state;

const pidOfOwner = (owner: string): number => Number(owner.split(':')[1]);

/**
 * Freezes (SIGSTOP) the worker holding `ice`'s lock inside a cycle that will commit. On a slow
 * machine the holder may finish its 2.5 s scan and save before the SIGSTOP lands; then it is thawed
 * and the next holder frozen. Only a cycle that will commit can have its write rejected: not an
 * outbox write, not a late job of a slot already recorded (it only closes its slot, unfenced), not
 * one whose save already reached Redis (the state's fence is its own or newer).
 */
async function freezeHolder(
  keys: ReturnType<typeof fleetKeys>,
): Promise<{ frozen: WorkerProcess; fence: number; worker: string; slot: number }> {
  for (;;) {
    let held: (string | null)[] = [null, null];
    await waitFor(async () => (held = await client.hmget(keys.lock('ice'), 'owner', 'fence'))[0] !== null);
    const owner = held[0]!;
    const holder = workers.find((worker) => worker.pid === pidOfOwner(owner));
    expect(holder).toBeDefined();
    holder!.child.kill('SIGSTOP');
    const fence = Number(held[1]);
    const slot = Number(/:cycle-(\d+):/.exec(owner)?.[1] ?? Number.NaN);
    const lastSlot = (await stateOf(keys.state('ice'))).fleet.lastSlot ?? Number.NEGATIVE_INFINITY;
    if (slot > lastSlot && Number((await client.get(`${keys.state('ice')}:fence`)) ?? 0) < fence)
      return { frozen: holder!, fence, worker: owner.slice(0, owner.indexOf(':cycle-')), slot };
    holder!.child.kill('SIGCONT');
    await sleep(50);
  }
}

const receiptsOf = async (prefix: string, heartbeatId: string): Promise<Receipt[]> => [
  ...(
    await createRedisReceiptStore({ redis: client, key: fleetKeys(prefix).receipts(heartbeatId), clock: { now: () => new Date() } }).list()
  )._unsafeUnwrap().receipts,
];

/** How many receipts close each slot (a range receipt closes each slot it spans). */
const slotCoverage = (receipts: readonly Receipt[], intervalMs: number): Map<number, number> => {
  const count = new Map<number, number>();
  for (const r of receipts) {
    const first = slotOf(Date.parse(r.slot), intervalMs);
    const last = r.kind === 'skipped' && r.through !== undefined ? slotOf(Date.parse(r.through), intervalMs) : first;
    for (let s = first; s <= last; s += 1) count.set(s, (count.get(s) ?? 0) + 1);
  }
  return count;
};

/** Every slot from the first recorded one through `lastSlot` has exactly one record. */
const expectOneRecordPerSlot = (receipts: readonly Receipt[], intervalMs: number, lastSlot: number, what: string): void => {
  const coverage = slotCoverage(receipts, intervalMs);
  for (let slot = Math.min(...coverage.keys()); slot <= lastSlot; slot += 1)
    expect(coverage.get(slot) ?? 0, `${what} slot ${slot}`).toBe(1);
};

describe.each(FLEET_BACKENDS)('on %s', (kind) => {
  const backend = useFleetBackend(kind);
  beforeAll(() => {
    redis = backend.current();
    client = redis.client;
  });

  describe('a fleet of worker processes', () => {
    it(
      'three workers, 36 heartbeats, each past two reports: no overlapping cycles, growing fences, every slot exactly one record',
      async () => {
        const prefix = 'stress';
        const scheduler = createFleetScheduler({ target: redis.target, prefix });
        const ids = Array.from({ length: 36 }, (_, index) => `hb-${index}`);
        for (const id of ids)
          (
            await scheduler.add({ id, intervalMs: 1000, source: { kind: 'scanners', set: 'fake', scanMs: 40, reportEvery: 3 } })
          )._unsafeUnwrap();
        const sinkFile = await spawnWorkers(3, prefix, { FLEET_CONCURRENCY: '8' });
        // Run until every heartbeat has at least four cycles and two reports and all three workers took
        // part — however many seconds that takes on this machine — then check every cycle committed.
        await waitFor(async () => {
          const journal = await readFleetJournal(client, prefix);
          const delivered = sinkLines(sinkFile);
          return (
            new Set(journal.filter((e): e is CycleEvent => e.type === 'cycle').map((e) => e.worker)).size === 3 &&
            ids.every((id) => cyclesOf(journal, id).length >= 4 && delivered.filter((d) => d.heartbeatId === id).length >= 2)
          );
        });
        await Promise.all(workers.map((worker) => worker.stop()));
        workers = [];
        await scheduler.close();

        const journal = await readFleetJournal(client, prefix);
        expect(journal.filter((e) => e.type === 'stale-write')).toEqual([]);
        const participating = new Set(journal.filter((e): e is CycleEvent => e.type === 'cycle').map((e) => e.worker));
        expect(participating.size).toBe(3);
        for (const id of ids) {
          const cycles = cyclesOf(journal, id);
          expect(cycles.length, id).toBeGreaterThanOrEqual(4);
          expect(new Set(cycles.map((c) => c.slot)).size, `${id} slots`).toBe(cycles.length);
          expect(
            cycles.map((c) => c.cycle),
            `${id} cycle numbers`,
          ).toEqual(cycles.map((_, index) => index + 1));
          for (let index = 1; index < cycles.length; index += 1) {
            const previous = cycles[index - 1]!;
            const current = cycles[index]!;
            expect(current.fence, `${id} fences grow`).toBeGreaterThan(previous.fence);
            expect(current.slot, `${id} slots grow`).toBeGreaterThan(previous.slot);
            expect(current.startedAtMs, `${id} cycles never overlap`).toBeGreaterThanOrEqual(previous.endedAtMs);
          }
          const counter = Number(await client.get(`${fleetKeys(prefix).lock(id)}:fence`));
          expect(counter).toBeGreaterThanOrEqual(cycles.at(-1)!.fence);
          // Three workers racing for its slots: one `ran` per committed cycle, and every slot from the
          // first recorded one through the last committed one closed by exactly one record.
          const receipts = await receiptsOf(prefix, id);
          expect(receipts.filter((r) => r.kind === 'ran').length, `${id} ran receipts`).toBe(cycles.length);
          expectOneRecordPerSlot(receipts, 1000, cycles.at(-1)!.slot, id);
        }
        const delivered = sinkLines(sinkFile);
        expect(new Set(delivered.map((d) => d.id)).size).toBe(delivered.length);
        for (const id of ids) {
          const mine = delivered.filter((d) => d.heartbeatId === id);
          expect(mine.length, `${id} reported`).toBeGreaterThanOrEqual(2);
          // Each finding (one per window of three slots) is reported once, never by two cycles.
          expect(
            new Set(mine.map((d) => d.summary)).size,
            `${id} never repeats a report: ${JSON.stringify(mine.map((d) => [d.id, d.summary]))}`,
          ).toBe(mine.length);
        }
      },
      BACKSTOP_MS,
    );

    it(
      'a holder frozen with SIGSTOP past its lease is replaced, and its state write is rejected when it resumes',
      async () => {
        const prefix = 'frozen';
        const keys = fleetKeys(prefix);
        const scheduler = createFleetScheduler({ target: redis.target, prefix });
        await spawnWorkers(2, prefix, {
          FLEET_LOCK_TTL_MS: '1000',
          FLEET_JOB_LOCK_MS: '1000',
          FLEET_STALLED_MS: '500',
          FLEET_CONCURRENCY: '2',
        });
        (
          await scheduler.add({ id: 'ice', intervalMs: 1000, source: { kind: 'scanners', set: 'fake', scanMs: 2500, reportEvery: 0 } })
        )._unsafeUnwrap();

        // Freeze a holder inside its cycle, then thaw it once a successor has committed with a newer
        // fence. A holder frozen before it read the state finds, when it resumes, that its slot already
        // ran and skips it: it never overwrites either, but its write was not put to the test, so the
        // test freezes the next holder (on a loaded machine that early freeze is not rare).
        let rejected: Extract<FleetEvent, { type: 'stale-write' }> | undefined;
        for (let attempt = 1; rejected === undefined; attempt++) {
          expect(attempt, 'a frozen holder reached its fenced write within 5 freezes').toBeLessThanOrEqual(5);
          const { frozen, fence, worker, slot } = await freezeHolder(keys);
          // The other worker takes the lock once the lease lapses and commits cycles with newer fences.
          await waitFor(async () => cyclesOf(await readFleetJournal(client, prefix), 'ice').some((c) => c.fence > fence));
          const before = (await stateOf(keys.state('ice'))).fleet;
          const seen = (await readFleetJournal(client, prefix)).length;
          frozen.child.kill('SIGCONT');

          let outcome: FleetEvent | undefined;
          await waitFor(
            async () =>
              (outcome = (await readFleetJournal(client, prefix))
                .slice(seen)
                .find(
                  (e) =>
                    (e.type === 'stale-write' && e.fence === fence) ||
                    ((e.type === 'skip' || e.type === 'failed') && e.worker === worker && e.slot === slot),
                )) !== undefined,
          );
          const journal = await readFleetJournal(client, prefix);
          expect(cyclesOf(journal, 'ice').some((c) => c.fence === fence)).toBe(false);
          // The successor's state was not overwritten by the resumed holder.
          const after = (await stateOf(keys.state('ice'))).fleet;
          expect(after.lastSlot).toBeGreaterThanOrEqual(before.lastSlot!);
          const fences = cyclesOf(journal, 'ice').map((c) => c.fence);
          expect(fences).toEqual([...fences].sort((a, b) => a - b));
          if (outcome?.type === 'stale-write') rejected = outcome;
          else {
            expect(outcome).toMatchObject({ type: 'skip', reason: 'already-ran' });
            console.error(
              `fleet-processes: freeze ${attempt} landed before the holder read the state (it skipped slot ${slot}); freezing the next holder`,
            );
          }
        }
        expect(rejected.current).toBeGreaterThan(rejected.fence);
        await scheduler.close();
      },
      BACKSTOP_MS,
    );

    it(
      'a worker SIGKILLed mid-cycle: exactly one message for that cycle reaches the sink',
      async () => {
        const prefix = 'killed';
        const keys = fleetKeys(prefix);
        const scheduler = createFleetScheduler({ target: redis.target, prefix });
        // The first worker to deliver anything claims this gate file, writes its pid there and stops inside
        // `deliver` before the sink sees the message: the kill lands mid-cycle on any machine.
        const gate = join(redis.dir, `${prefix}-hold`);
        const sinkFile = await spawnWorkers(2, prefix, {
          FLEET_LOCK_TTL_MS: '1000',
          FLEET_JOB_LOCK_MS: '1000',
          FLEET_STALLED_MS: '500',
          FLEET_CONCURRENCY: '2',
          FLEET_HOLD_FIRST_DELIVERY: gate,
        });
        // One finding for the whole run: cycle 1 reports it, dedup keeps every later cycle quiet.
        (
          await scheduler.add({
            id: 'victim',
            intervalMs: 1000,
            source: { kind: 'scanners', set: 'fake', scanMs: 100, reportEvery: 1_000_000_000 },
          })
        )._unsafeUnwrap();

        await waitFor(() => Promise.resolve(existsSync(gate) && readFileSync(gate, 'utf8').endsWith('\n')));
        const victim = workers.find((worker) => worker.pid === Number(readFileSync(gate, 'utf8').trim()))!;
        expect(victim).toBeDefined();
        victim.child.kill('SIGKILL');
        expect(sinkLines(sinkFile)).toEqual([]);

        await waitFor(async () => cyclesOf(await readFleetJournal(client, prefix), 'victim').length >= 4);
        await waitFor(() => Promise.resolve(sinkLines(sinkFile).length >= 1));
        // Two more committed cycles after the delivery: a duplicate would come from one of them.
        const seen = cyclesOf(await readFleetJournal(client, prefix), 'victim').length;
        await waitFor(async () => cyclesOf(await readFleetJournal(client, prefix), 'victim').length >= seen + 2);
        const delivered = sinkLines(sinkFile).filter((line) => line.heartbeatId === 'victim');
        expect(delivered.map((d) => d.id)).toEqual(['victim__1']);
        expect(delivered[0]!.cycle).toBe(1);
        const state = await stateOf(keys.state('victim'));
        expect(Object.keys(state.heartbeat.reported)).toHaveLength(1);
        expect(state.heartbeat.reportsSent).toBe(1);
        expect(state.fleet.delivered).toEqual(['victim__1']);
        expect(state.fleet.pending).toEqual([]);
        await scheduler.close();
      },
      BACKSTOP_MS,
    );

    it(
      'a worker SIGKILLed inside a scan: every slot of the heartbeat still ends in exactly one record',
      async () => {
        const prefix = 'killed-scan';
        const scheduler = createFleetScheduler({ target: redis.target, prefix });
        const gate = join(redis.dir, `${prefix}-hold`);
        await spawnWorkers(2, prefix, {
          FLEET_LOCK_TTL_MS: '1000',
          FLEET_JOB_LOCK_MS: '1000',
          FLEET_STALLED_MS: '500',
          FLEET_CONCURRENCY: '2',
          FLEET_HOLD_FIRST_SCAN: gate,
        });
        (
          await scheduler.add({
            id: 'scan-victim',
            intervalMs: 1000,
            source: { kind: 'scanners', set: 'fake', scanMs: 50, reportEvery: 3 },
          })
        )._unsafeUnwrap();
        await waitFor(() => Promise.resolve(existsSync(gate) && readFileSync(gate, 'utf8').endsWith('\n')));
        const victim = workers.find((worker) => worker.pid === Number(readFileSync(gate, 'utf8').trim()))!;
        expect(victim).toBeDefined();
        // The victim holds the heartbeat lock inside its scan; its owner names the slot it was running.
        let owner: string | null = null;
        await waitFor(
          async () => (owner = await client.hget(fleetKeys(prefix).lock('scan-victim'), 'owner'))?.includes(`${victim.pid}:`) === true,
        );
        const killedSlot = Number(/:cycle-(\d+):/.exec(owner!)?.[1]);
        victim.child.kill('SIGKILL');
        // Its slot gets its record from the stalled job's retry (a `ran`, or `down` when a later slot overtook it).
        await waitFor(async () => slotCoverage(await receiptsOf(prefix, 'scan-victim'), 1000).has(killedSlot));
        // The survivor takes over once the lease lapses; wait for several cycles after the kill.
        await waitFor(async () => cyclesOf(await readFleetJournal(client, prefix), 'scan-victim').length >= 5);
        await Promise.all(workers.map((worker) => worker.stop()));
        workers = [];
        await scheduler.close();

        const cycles = cyclesOf(await readFleetJournal(client, prefix), 'scan-victim');
        const receipts = await receiptsOf(prefix, 'scan-victim');
        expect(receipts.filter((r) => r.kind === 'ran')).toHaveLength(cycles.length);
        // Every slot, the killed one included, is closed exactly once: never left open, never doubled.
        expectOneRecordPerSlot(receipts, 1000, Math.max(...cycles.map((c) => c.slot)), 'scan-victim');
        expect(
          receipts.some((r) => r.kind === 'skipped' && r.reason === 'down') || receipts.filter((r) => r.kind === 'ran').length > 0,
        ).toBe(true);
      },
      BACKSTOP_MS,
    );
  });
});
