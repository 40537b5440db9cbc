import { Queue } from 'bullmq';
import { DEFAULT_HEARTBEAT_CONFIG, type JsonValue, type Receipt, type Scanner } from '@heartbeat-kit/core';
import { ACK_BOOK_VERSION } from '@heartbeat-kit/core/host';
import { errAsync, ok, okAsync } from 'neverthrow';
import { beforeAll, describe, expect, it } from 'vitest';
import { FLEET_BACKENDS, useFleetBackend } from '../../test/support/fleet-backends.js';
import type { RedisTarget } from '../fleet/redis-url.js';
import { decodeFleetState } from '../fleet/fleet-state.js';
import { cycleJobId, slotOf } from '../fleet/slots.js';
import { fleetKeys } from './fleet-keys.js';
import type { BullConnection, RedisClient } from './redis-connection.js';
import { createRedisReceiptStore } from './redis-receipt-store.js';
import { createRedisAckStore } from './redis-ack-store.js';
import { createRedisPauseStore } from './redis-pause-store.js';
import { createFleetScheduler } from './fleet-scheduler.js';
import { createFakeResolver } from '../testing/index.js';
import { createFleetWorker, readFleetJournal, type FleetDelivery, type FleetEvent } from './fleet-worker.js';

// The suite runs twice: on one redis-server and on a 3 + 3 Redis Cluster (every key hash-tagged).
let client: RedisClient;
let target: RedisTarget;
let bull: () => BullConnection['connection'];

/** Polls until `predicate` holds, however long a loaded machine takes (the test timeout is the backstop; `what` names the wait). */
const waitFor = async (predicate: () => boolean | Promise<boolean>, what: string): Promise<void> => {
  void what;
  while (!(await predicate())) await new Promise((resolve) => setTimeout(resolve, 50));
};

describe.each(FLEET_BACKENDS)('on %s', (kind) => {
  const backend = useFleetBackend(kind);
  beforeAll(() => {
    ({ client, target } = backend.current());
    bull = () => backend.current().bull();
  });

  describe('fleet worker acks (in-process)', () => {
    it('holds the findings an operator acked in Redis: a slot reads the acks and delivers nothing for them', async () => {
      const prefix = 'acked';
      const scheduler = createFleetScheduler({ target, prefix });
      const delivered: FleetDelivery[] = [];
      const events: FleetEvent[] = [];
      const acks = createRedisAckStore({ redis: client, key: fleetKeys(prefix).acks('quiet') });
      const ack = {
        id: 'ack-1',
        selector: 'ORCH_FAILURE',
        match: { kind: 'category' as const, category: 'ORCH_FAILURE' },
        note: 'known: fake crashes',
        by: 'alice',
        at: '2026-02-19T14:00:00.000Z',
        snooze: false,
      };
      (await acks.save({ version: ACK_BOOK_VERSION, acks: [ack] }))._unsafeUnwrap();
      const worker = createFleetWorker({
        target,
        resolve: createFakeResolver(),
        prefix,
        sink: { deliver: (d) => (delivered.push(d), okAsync(undefined)) },
        onEvent: (e) => events.push(e),
      });
      for (const id of ['quiet', 'loud'])
        (await scheduler.add({ id, intervalMs: 300, source: { kind: 'scanners', set: 'fake', reportEvery: 2 } }))._unsafeUnwrap();
      await waitFor(
        () =>
          events.filter((e) => e.type === 'cycle' && e.heartbeatId === 'quiet').length >= 5 &&
          delivered.some((d) => d.heartbeatId === 'loud'),
        'cycles of both heartbeats',
      );
      await scheduler.remove('quiet');
      await scheduler.remove('loud');
      await worker.close();
      await scheduler.close();
      expect(delivered.filter((d) => d.heartbeatId === 'quiet')).toEqual([]);
      const stored = JSON.parse((await client.get(fleetKeys(prefix).state('quiet')))!) as JsonValue;
      const state = decodeFleetState(stored).state.heartbeat;
      expect(Object.values(state.acked ?? {}).map((entry) => entry.ack)).toContain('ack-1');
    });
  });

  describe('fleet worker (in-process, one worker)', () => {
    it('runs each due slot once, delivers each report once, and remembers it only after delivery', async () => {
      const prefix = 'inproc';
      const scheduler = createFleetScheduler({ target, prefix });
      const delivered: FleetDelivery[] = [];
      const events: FleetEvent[] = [];
      const worker = createFleetWorker({
        target,
        resolve: createFakeResolver(),
        prefix,
        journal: true,
        sink: { deliver: (d) => (delivered.push(d), okAsync(undefined)) },
        onEvent: (e) => events.push(e),
      });
      for (const id of ['alpha', 'beta', 'gamma']) {
        (await scheduler.add({ id, intervalMs: 300, source: { kind: 'scanners', set: 'fake', reportEvery: 4 } }))._unsafeUnwrap();
      }
      expect((await scheduler.list())._unsafeUnwrap().map((h) => h.id)).toEqual(['alpha', 'beta', 'gamma']);
      await waitFor(
        () => events.filter((e) => e.type === 'cycle').length >= 15 && events.filter((e) => e.type === 'delivered').length >= 4,
        'cycles and deliveries',
      );
      await scheduler.remove('alpha');
      await worker.close();

      const journal = await readFleetJournal(client, prefix);
      const cycles = journal.filter((e): e is Extract<FleetEvent, { type: 'cycle' }> => e.type === 'cycle');
      for (const id of ['alpha', 'beta', 'gamma']) {
        const mine = cycles.filter((c) => c.heartbeatId === id);
        expect(mine.length).toBeGreaterThan(2);
        expect(new Set(mine.map((c) => c.slot)).size).toBe(mine.length);
        expect(mine.map((c) => c.cycle)).toEqual(mine.map((_, index) => index + 1));
        // Due times come from BullMQ's job ids: one interval apart, and no cycle starts early.
        for (const c of mine) {
          expect((c.dueMs - mine[0]!.dueMs) % 300).toBe(0);
          expect(c.slot - mine[0]!.slot).toBe((c.dueMs - mine[0]!.dueMs) / 300);
          expect(c.startedAtMs).toBeGreaterThanOrEqual(c.dueMs);
        }
      }
      // One message per report window and heartbeat: dedup memory holds the repeats back.
      const ids = delivered.map((d) => d.id);
      expect(new Set(ids).size).toBe(ids.length);
      // Each message reports the window's ORCH_FAILURE, or is a recovery notice for the last
      // window's (its finding cleared after the hysteresis while the new one was still deduped).
      for (const d of delivered)
        if (d.message.kind === 'resolved') expect(d.message.content).toMatch(/^RESOLVED: CRASHED: orch-/);
        else expect(d.message.content).toContain('ORCH_FAILURE');
      // Each finding (one per window of four slots) is reported by exactly one cycle.
      const summaries = delivered.filter((d) => d.message.kind !== 'resolved').map((d) => `${d.heartbeatId} ${d.message.summary}`);
      expect(new Set(summaries).size).toBe(summaries.length);

      const status = (await scheduler.status())._unsafeUnwrap();
      expect(status.map((s) => s.heartbeat.id)).toEqual(['beta', 'gamma']);
      const beta = status[0]!;
      expect(beta.lastCycle).toBeGreaterThan(2);
      // The last message is the window's report, or the recovery notice of the window before.
      expect(beta.lastReportSummary).toMatch(/crashed|^RESOLVED -- ORCH_FAILURE:orch-beta-/);
      expect(beta.nextSlotAt).toBeDefined();
      await scheduler.close();
    });

    it('slots missed while no worker ran collapse into one late cycle', async () => {
      const prefix = 'collapse';
      const scheduler = createFleetScheduler({ target, prefix });
      (await scheduler.add({ id: 'sleepy', intervalMs: 300, source: { kind: 'scanners', set: 'fake', reportEvery: 0 } }))._unsafeUnwrap();
      // About seven slots fall due with nobody working.
      await new Promise((resolve) => setTimeout(resolve, 2100));
      const workerStartedAt = Date.now();
      const events: FleetEvent[] = [];
      const worker = createFleetWorker({
        target,
        prefix,
        resolve: createFakeResolver(),
        sink: { deliver: () => okAsync(undefined) },
        onEvent: (e) => events.push(e),
      });
      await waitFor(() => events.filter((e) => e.type === 'cycle').length >= 4, 'cycles after the downtime');
      await worker.close();
      await scheduler.close();
      const cycles = events.filter((e): e is Extract<FleetEvent, { type: 'cycle' }> => e.type === 'cycle');
      const late = cycles.filter((c) => c.dueMs < workerStartedAt - 300);
      expect(late).toHaveLength(1);
      expect(cycles[0]).toBe(late[0]);
      // The next cycle is the next slot after the worker came back, not the missed ones in between.
      expect(cycles[1]!.slot - cycles[0]!.slot).toBeGreaterThanOrEqual(5);
      expect(cycles[1]!.dueMs).toBeGreaterThanOrEqual(workerStartedAt - 300);
      // The slots between the late cycle and the next one have one record: a `down` range.
      const receipts = await receiptsOf(prefix, 'sleepy');
      expect(receipts.find((r) => r.kind === 'skipped' && r.reason === 'down')).toMatchObject({
        reason: 'down',
        slot: new Date(cycles[0]!.dueMs + 300).toISOString(),
      });
      const coverage = slotCoverage(receipts, 300);
      for (let slot = cycles[0]!.slot; slot <= cycles.at(-1)!.slot; slot += 1) expect(coverage.get(slot) ?? 0, `slot ${slot}`).toBe(1);
    });

    it('a cycle that fails after enqueuing its message is retried without a second message', async () => {
      const prefix = 'flaky';
      const keys = fleetKeys(prefix);
      // A wrong-typed fence key makes every state save fail (WRONGTYPE) after the outbox add.
      await client.hset(`${keys.state('flaky')}:fence`, 'broken', '1');
      const scheduler = createFleetScheduler({ target, prefix });
      const delivered: FleetDelivery[] = [];
      const events: FleetEvent[] = [];
      const worker = createFleetWorker({
        target,
        resolve: createFakeResolver(),
        prefix,
        sink: { deliver: (d) => (delivered.push(d), okAsync(undefined)) },
        onEvent: (e) => events.push(e),
      });
      (
        await scheduler.add({ id: 'flaky', intervalMs: 300, source: { kind: 'scanners', set: 'fake', reportEvery: 1_000_000_000 } })
      )._unsafeUnwrap();
      await waitFor(() => delivered.length >= 1, 'the first delivery');
      // Several slots keep failing after their enqueue; only then does the save start working.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(events.filter((e) => e.type === 'cycle')).toEqual([]);
      await client.del(`${keys.state('flaky')}:fence`);
      await waitFor(
        () => events.filter((e) => e.type === 'cycle').length >= 3 && events.some((e) => e.type === 'delivered'),
        'commits after the repair',
      );
      await worker.close();
      await scheduler.close();
      expect(delivered.map((d) => d.id)).toEqual(['flaky__1']);
      const state = decodeFleetState(JSON.parse((await client.get(keys.state('flaky'))) ?? 'null') as never).state;
      expect(state.heartbeat.reportsSent).toBe(1);
      expect(Object.keys(state.heartbeat.reported)).toHaveLength(1);
      expect(state.fleet.delivered).toEqual(['flaky__1']);
      expect(state.fleet.pending).toEqual([]);
    });

    it('a slow heartbeat skips the slots its running cycle covers and never starves the others', async () => {
      const prefix = 'slow';
      const scheduler = createFleetScheduler({ target, prefix });
      const events: FleetEvent[] = [];
      const worker = createFleetWorker({
        target,
        resolve: createFakeResolver(),
        prefix,
        concurrency: 2,
        sink: { deliver: () => okAsync(undefined) },
        onEvent: (e) => events.push(e),
      });
      (
        await scheduler.add({ id: 'slow', intervalMs: 300, source: { kind: 'scanners', set: 'fake', scanMs: 1000, reportEvery: 0 } })
      )._unsafeUnwrap();
      (await scheduler.add({ id: 'quick', intervalMs: 300, source: { kind: 'scanners', set: 'fake', reportEvery: 0 } }))._unsafeUnwrap();
      const cyclesOf = (heartbeatId: string) =>
        events.filter((e): e is Extract<FleetEvent, { type: 'cycle' }> => e.type === 'cycle' && e.heartbeatId === heartbeatId);
      // Quick cycles that ran wholly inside a slow one: the quick heartbeat was not held up by it.
      const quickDuringSlow = () =>
        cyclesOf('quick').filter((q) => cyclesOf('slow').some((s) => q.startedAtMs >= s.startedAtMs && q.endedAtMs <= s.endedAtMs));
      await waitFor(() => cyclesOf('slow').length >= 3 && quickDuringSlow().length >= 2, 'three slow cycles, two quick ones inside them');
      await worker.close();
      await scheduler.close();
      const slow = cyclesOf('slow');
      for (let index = 1; index < slow.length; index += 1)
        expect(slow[index]!.startedAtMs).toBeGreaterThanOrEqual(slow[index - 1]!.endedAtMs);
      expect(events.some((e) => e.type === 'skip' && e.heartbeatId === 'slow' && e.reason === 'overlap')).toBe(true);
      // Behaviour, not throughput: quick cycles ran while a slow one was running (no count per second).
      expect(quickDuringSlow().length).toBeGreaterThanOrEqual(2);
    });

    it('a heartbeat whose setup cannot be resolved fails its slot visibly and commits nothing', async () => {
      const prefix = 'broken';
      const scheduler = createFleetScheduler({ target, prefix });
      const events: FleetEvent[] = [];
      const worker = createFleetWorker({
        target,
        prefix,
        resolve: createFakeResolver(),
        sink: { deliver: () => okAsync(undefined) },
        onEvent: (e) => events.push(e),
      });
      (await scheduler.add({ id: 'elsewhere', intervalMs: 300, source: { kind: 'project', cwd: '/nonexistent' } }))._unsafeUnwrap();
      await waitFor(() => events.filter((e) => e.type === 'failed').length >= 2, 'failed slots');
      await worker.close();
      await scheduler.close();
      expect(events.find((e) => e.type === 'failed')).toMatchObject({
        heartbeatId: 'elsewhere',
        message: 'heartbeat elsewhere scans a project; this worker has no project resolver',
      });
      expect(events.filter((e) => e.type === 'cycle')).toEqual([]);
      expect(await client.get(fleetKeys(prefix).state('elsewhere'))).toBeNull();
    });
  });

  /** Every slot from the first receipt's to `lastSlot` closed by exactly one receipt (ranges count per slot). */
  const slotCoverage = (receipts: readonly Receipt[], intervalMs: number): Map<number, number> => {
    const count = new Map<number, number>();
    for (const r of receipts) {
      const first = slotOf(Date.parse(r.slot), intervalMs);
      const last = r.kind === 'skipped' && r.through !== undefined ? slotOf(Date.parse(r.through), intervalMs) : first;
      for (let s = first; s <= last; s += 1) count.set(s, (count.get(s) ?? 0) + 1);
    }
    return count;
  };

  const receiptsOf = async (prefix: string, heartbeatId: string): Promise<Receipt[]> =>
    (
      await createRedisReceiptStore({
        redis: client,
        key: fleetKeys(prefix).receipts(heartbeatId),
        clock: { now: () => new Date() },
      }).list()
    )._unsafeUnwrap().receipts as Receipt[];

  describe('fleet worker pause (in-process)', () => {
    it('a paused heartbeat: every slot writes a paused receipt with the note and delivers nothing; after resume its slots run and report', async () => {
      const prefix = 'paused';
      const scheduler = createFleetScheduler({ target, prefix });
      const delivered: FleetDelivery[] = [];
      const events: FleetEvent[] = [];
      const pause = createRedisPauseStore({ redis: client, key: fleetKeys(prefix).pause('held') });
      // Written before the heartbeat is added: no slot of it can run unpaused.
      (await pause.write({ v: 1, note: 'deploying the runner', since: '2026-01-01T00:00:00.000Z' }))._unsafeUnwrap();
      const worker = createFleetWorker({
        target,
        resolve: createFakeResolver(),
        prefix,
        sink: { deliver: (d) => (delivered.push(d), okAsync(undefined)) },
        onEvent: (e) => events.push(e),
      });
      for (const id of ['held', 'free'])
        (await scheduler.add({ id, intervalMs: 300, source: { kind: 'scanners', set: 'fake', reportEvery: 1 } }))._unsafeUnwrap();
      const pausedSkips = () => events.filter((e) => e.type === 'skip' && e.heartbeatId === 'held' && e.reason === 'paused').length;
      await waitFor(
        () => pausedSkips() >= 3 && delivered.some((d) => d.heartbeatId === 'free'),
        'paused slots and a delivery of the other',
      );
      expect(events.filter((e) => e.type === 'cycle' && e.heartbeatId === 'held')).toEqual([]);
      expect(delivered.filter((d) => d.heartbeatId === 'held')).toEqual([]);
      const whilePaused = await receiptsOf(prefix, 'held');
      const pausedReceipts = whilePaused.filter((r) => r.kind === 'paused');
      expect(pausedReceipts.length).toBeGreaterThanOrEqual(3);
      expect(pausedReceipts.every((r) => r.kind === 'paused' && r.note === 'deploying the runner' && r.source === 'fleet')).toBe(true);
      expect(whilePaused.filter((r) => r.kind === 'ran')).toEqual([]);

      expect((await pause.clear())._unsafeUnwrap()?.note).toBe('deploying the runner');
      await waitFor(() => delivered.some((d) => d.heartbeatId === 'held'), 'a delivery of the resumed heartbeat');
      await scheduler.remove('held');
      await scheduler.remove('free');
      await worker.close();
      await scheduler.close();
      const after = await receiptsOf(prefix, 'held');
      expect(after.some((r) => r.kind === 'ran')).toBe(true);
      // Every paused slot came before the first slot that ran: the pause ended at resume.
      const firstRan = after.findIndex((r) => r.kind === 'ran');
      expect(after.slice(firstRan).some((r) => r.kind === 'paused')).toBe(false);
    });
  });

  describe('fleet worker: the shared cycle step and receipts', () => {
    it('a scanner failing every cycle raises SCANNER_FAILING once and is then skipped per the back-off; operator-activity errors are reported; every slot has one receipt', async () => {
      const prefix = 'breaker';
      const intervalMs = 300;
      let scans = 0;
      const failing: Scanner = {
        name: 'bd',
        runsOutsideActiveHours: true,
        scan: () => {
          scans += 1;
          return Promise.resolve({ scanner: 'bd', status: 'error' as const, error: 'bd list exited 1: database locked', durationMs: 1 });
        },
      };
      const config = {
        ...DEFAULT_HEARTBEAT_CONFIG,
        activeHours: { ...DEFAULT_HEARTBEAT_CONFIG.activeHours, start: '00:00', end: '00:00', weekend: true },
      };
      const scheduler = createFleetScheduler({ target, prefix });
      const delivered: FleetDelivery[] = [];
      const events: FleetEvent[] = [];
      const worker = createFleetWorker({
        target,
        prefix,
        resolve: () =>
          Promise.resolve(
            ok({
              scanners: [failing],
              config,
              timeZone: 'UTC',
              operatorActivity: { lastActiveAt: () => errAsync({ kind: 'io' as const, message: 'cannot read ~/.claude: EACCES' }) },
            }),
          ),
        sink: { deliver: (d) => (delivered.push(d), okAsync(undefined)) },
        onEvent: (e) => events.push(e),
      });
      (await scheduler.add({ id: 'flaky-bd', intervalMs, source: { kind: 'scanners', set: 'fake' } }))._unsafeUnwrap();
      const cycles = () => events.filter((e): e is Extract<FleetEvent, { type: 'cycle' }> => e.type === 'cycle');
      await waitFor(() => cycles().length >= 12 && events.some((e) => e.type === 'delivered'), 'twelve cycles and the advisory delivered');
      await worker.close();
      await scheduler.close();

      // One advisory, delivered once; the breaker then keeps the scanner from running every cycle.
      const advisories = delivered.filter((d) => d.message.content.includes('SCANNER_FAILING'));
      expect(advisories).toHaveLength(1);
      expect(advisories[0]!.message.content).toContain('bd');
      const done = cycles();
      expect(scans).toBeLessThan(done.length);
      expect(done.length - scans).toBeGreaterThanOrEqual(3);
      // The operator-activity failure is said every cycle, as runCycle says it.
      for (const c of done) expect(c.warnings).toEqual(['operator activity unknown: cannot read ~/.claude: EACCES']);

      // Receipts: one `ran` per committed slot, and every slot from the first to the last has exactly one record.
      const receipts = await receiptsOf(prefix, 'flaky-bd');
      const ran = receipts.filter((r) => r.kind === 'ran');
      expect(ran.map((r) => r.slot).sort()).toEqual(done.map((c) => new Date(c.dueMs).toISOString()).sort());
      expect(ran.every((r) => r.source === 'fleet' && r.kind === 'ran' && r.notLookedAt?.includes('bd'))).toBe(true);
      const reported = ran.find((r) => r.kind === 'ran' && r.status === 'report');
      expect(reported).toMatchObject({ delivery: 'queued' });
      const coverage = slotCoverage(receipts, intervalMs);
      const first = Math.min(...coverage.keys());
      const last = Math.max(...done.map((c) => c.slot));
      for (let slot = first; slot <= last; slot += 1) expect(coverage.get(slot) ?? 0, `slot ${slot}`).toBe(1);
    });

    it('a late job overtaken by the first commit closes its slot and every unrecorded slot up to that commit, once', async () => {
      // Seen in the three-worker stress test at load 20: the first tick's job ran 16 slots late,
      // after the next slot's commit (the heartbeat's first, so it had no earlier commit to measure
      // a gap from); the late job closed only its own slot and the 15 slots between stayed unrecorded.
      const prefix = 'late-first';
      const keys = fleetKeys(prefix);
      const intervalMs = 60_000;
      await client.hset(
        keys.registry,
        'late',
        JSON.stringify({ id: 'late', intervalMs, source: { kind: 'scanners', set: 'fake', reportEvery: 0 } }),
      );
      const cycles = new Queue(keys.cycleQueue, { connection: bull(), prefix: keys.bullPrefix });
      const events: FleetEvent[] = [];
      const worker = createFleetWorker({
        target,
        prefix,
        resolve: createFakeResolver(),
        sink: { deliver: () => okAsync(undefined) },
        onEvent: (e) => events.push(e),
      });
      const committed = slotOf(Date.now(), intervalMs);
      const lateSlot = committed - 5;
      const add = (slot: number) =>
        cycles.add('cycle', { heartbeatId: 'late', slot, dueMs: slot * intervalMs + 7 }, { jobId: cycleJobId('late', slot) });
      await add(committed);
      await waitFor(() => events.some((e) => e.type === 'cycle'), 'the first commit');
      await add(lateSlot);
      await waitFor(() => events.some((e) => e.type === 'skip' && e.slot === lateSlot), 'the late job');
      // A second late job, inside the range the first one closed, adds nothing.
      await add(lateSlot + 2);
      await waitFor(() => events.some((e) => e.type === 'skip' && e.slot === lateSlot + 2), 'the second late job');
      await worker.close();
      await cycles.close();

      const receipts = await receiptsOf(prefix, 'late');
      const coverage = slotCoverage(receipts, intervalMs);
      for (let slot = lateSlot; slot <= committed; slot += 1) expect(coverage.get(slot) ?? 0, `slot ${slot}`).toBe(1);
      expect(receipts.filter((r) => r.kind === 'skipped').map((r) => (r.kind === 'skipped' ? [r.reason, r.count] : []))).toEqual([
        ['down', 5],
      ]);
    });
  });
});
