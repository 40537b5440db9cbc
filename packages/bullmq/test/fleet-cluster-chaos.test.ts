/**
 * Failover under load: three worker processes run 24 heartbeats on a 3 + 3 Redis Cluster; then the
 * master serving the fleet's queues (slot of `{prefix}`) is SIGKILLed — its replica takes over —
 * and so is one worker. Afterwards: no finding lost (every report reached the sink, none left
 * pending), none delivered under two message ids, no slot run twice (one `ran` receipt per cycle,
 * at most one record per slot). Workers require a replica's ack of each new fence (see
 * fleet-cluster-fence-failover.test.ts for why). The figures are printed for docs/performance.md.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Receipt } from '@heartbeat-kit/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { decodeFleetState, parseRedisUrl, slotOf } from '../src/index.js';
import {
  closeRedisClient,
  createFleetScheduler,
  createRedisClient,
  createRedisReceiptStore,
  fleetKeys,
  readFleetJournal,
  type FleetEvent,
  type RedisClient,
} from '../src/node/index.js';
import { bundleChild, type BundledChild } from './support/bundle-child.js';
import { startCluster, type TestCluster } from './support/redis-cluster.js';
import { startWorker, type WorkerProcess } from './support/worker-processes.js';

let cluster: TestCluster;
let bundle: BundledChild;
let client: RedisClient;
const workers: WorkerProcess[] = [];
beforeAll(async () => {
  [cluster, bundle] = await Promise.all([
    startCluster(),
    bundleChild(fileURLToPath(new URL('./children/fleet-worker-child.ts', import.meta.url))),
  ]);
  client = createRedisClient(parseRedisUrl(cluster.url)._unsafeUnwrap());
  client.on('error', () => undefined);
});
afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop()));
  await closeRedisClient(client);
  await cluster.stop();
  bundle.dispose();
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const waitFor = async (predicate: () => Promise<boolean>): Promise<void> => {
  while (!(await predicate().catch(() => false))) await sleep(100);
};
interface SinkLine {
  readonly id: string;
  readonly heartbeatId: string;
  readonly cycle: number;
  readonly summary: string;
}
const sinkLines = (file: string): SinkLine[] =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as SinkLine)
    : [];

it('a master and a worker SIGKILLed under load: 0 lost findings, 0 findings under two ids, 0 slots run twice', async () => {
  const prefix = 'chaos';
  const keys = fleetKeys(prefix);
  const intervalMs = 1000;
  const ids = Array.from({ length: 24 }, (_, index) => `hb-${index}`);
  const target = parseRedisUrl(cluster.url)._unsafeUnwrap();
  const scheduler = createFleetScheduler({ target, prefix });
  for (const id of ids)
    (await scheduler.add({ id, intervalMs, source: { kind: 'scanners', set: 'fake', scanMs: 30, reportEvery: 3 } }))._unsafeUnwrap();
  const sinkFile = join(cluster.dir, 'chaos-sink.jsonl');
  const env = {
    FLEET_REDIS_URL: cluster.url,
    FLEET_PREFIX: prefix,
    FLEET_SINK_FILE: sinkFile,
    FLEET_CONCURRENCY: '8',
    FLEET_LOCK_TTL_MS: '3000',
    FLEET_JOB_LOCK_MS: '3000',
    FLEET_STALLED_MS: '1000',
    FLEET_MIN_REPLICA_ACKS: '1',
    // A failover can lose a heartbeat's next tick (the write BullMQ makes when a worker takes a
    // tick): the watchdog restarts such a chain; once a second here instead of every 30 s.
    FLEET_TICK_WATCHDOG_MS: '1000',
  };
  workers.push(...(await Promise.all([1, 2, 3].map(() => startWorker(bundle.file, env)))));
  const ranReceipts = async (id: string): Promise<readonly Receipt[]> =>
    (await createRedisReceiptStore({ redis: client, key: keys.receipts(id), clock: { now: () => new Date() } }).list())._unsafeUnwrap()
      .receipts;
  const ranCount = async (): Promise<number[]> =>
    Promise.all(ids.map(async (id) => (await ranReceipts(id)).filter((r) => r.kind === 'ran').length));
  // Load first: every heartbeat has run and reported.
  await waitFor(
    async () => (await ranCount()).every((n) => n >= 3) && new Set(sinkLines(sinkFile).map((l) => l.heartbeatId)).size === ids.length,
  );

  const queueMaster = await cluster.masterOf(keys.registry);
  const [replica] = await cluster.replicasOf(queueMaster);
  const killedAt = Date.now();
  await cluster.kill(queueMaster);
  const victim = workers.shift()!;
  victim.child.kill('SIGKILL');
  while (!(await cluster.cli(replica!, 'ROLE').catch(() => '')).startsWith('master')) await sleep(100);
  const failoverMs = Date.now() - killedAt;
  // A supervisor restarts the dead node; it rejoins as the new master's replica. Until then the
  // promoted master has no replica, and workers that require a replica's ack of each new fence
  // take no lock on its slots: safety over availability.
  await cluster.restart(queueMaster);
  // Past the failover: every heartbeat keeps running on the two surviving workers.
  const atKill = await ranCount();
  const progress = reportProgress(client, keys, ids, ranCount);
  await waitFor(async () => (await ranCount()).every((n, index) => n >= atKill[index]! + 4));
  progress.stop();
  // Stop the ticks, then let the outbox drain: a finding is lost only if its message never leaves.
  for (const id of ids) (await scheduler.remove(id))._unsafeUnwrap();
  const pendingNow = async (): Promise<number> => {
    let count = 0;
    for (const id of ids)
      count += decodeFleetState(JSON.parse((await client.get(keys.state(id))) ?? 'null') as never).state.fleet.pending.length;
    return count;
  };
  await waitFor(async () => (await pendingNow()) === 0);
  await Promise.all(workers.map((worker) => worker.stop()));
  await scheduler.close();

  let lost = 0;
  let runTwice = 0;
  let cycles = 0;
  const lines = sinkLines(sinkFile);
  const twice: { readonly heartbeatId: string; readonly slot: number; readonly receipts: readonly Receipt[] }[] = [];
  for (const id of ids) {
    const receipts = await ranReceipts(id);
    const ran = receipts.filter((r) => r.kind === 'ran');
    cycles += ran.length;
    const perSlot = new Map<number, number>();
    for (const r of receipts) {
      const first = slotOf(Date.parse(r.slot), intervalMs);
      const last = r.kind === 'skipped' && r.through !== undefined ? slotOf(Date.parse(r.through), intervalMs) : first;
      for (let s = first; s <= last; s += 1) perSlot.set(s, (perSlot.get(s) ?? 0) + 1);
    }
    const counted = [...perSlot].filter(([, n]) => n > 1).map(([slot]) => slot);
    runTwice += counted.length;
    for (const slot of counted) twice.push({ heartbeatId: id, slot, receipts: receipts.filter((r) => covers(r, slot, intervalMs)) });
    const state = decodeFleetState(JSON.parse((await client.get(keys.state(id))) ?? 'null') as never).state;
    // Lost: a message the state still holds undelivered, or a remembered report that never reached the sink.
    lost += state.fleet.pending.length;
    const mine = lines.filter((line) => line.heartbeatId === id);
    lost += Math.max(0, state.heartbeat.reportsSent - new Set(mine.map((line) => line.id)).size);
  }
  const idsPerFinding = new Map<string, Set<string>>();
  for (const line of lines) {
    const finding = `${line.heartbeatId} ${line.summary}`;
    idsPerFinding.set(finding, (idsPerFinding.get(finding) ?? new Set()).add(line.id));
  }
  const underTwoIds = [...idsPerFinding.values()].filter((set) => set.size > 1).length;
  const sameIdAgain = lines.length - new Set(lines.map((line) => line.id)).size;
  const restarted = (await readFleetJournal(client, prefix)).filter((event) => event.type === 'ticks-restarted').length;
  console.log(
    `fleet-cluster-chaos: 1 run · kills: master :${queueMaster} (queues' slot, failover ${failoverMs} ms) + 1 worker · ${ids.length} heartbeats · ${cycles} cycles · ${lines.length} messages (${sameIdAgain} re-sent under the same id) · lost ${lost} · under two ids ${underTwoIds} · slots run twice ${runTwice} · tick chains restarted ${restarted}`,
  );
  if (twice.length > 0) console.log(describeTwice(twice, await readFleetJournal(client, prefix)));
  expect({ lost, underTwoIds, runTwice }).toEqual({ lost: 0, underTwoIds: 0, runTwice: 0 });
});

/**
 * While the fleet recovers, prints once a minute where it stands, so that a run that stops making
 * progress says why when it is killed: cycles per heartbeat, the tick queue's jobs by state, and
 * the heartbeats whose scheduler's next tick is over 5 s late.
 */
function reportProgress(
  redis: RedisClient,
  keys: ReturnType<typeof fleetKeys>,
  ids: readonly string[],
  ranCount: () => Promise<number[]>,
): { readonly stop: () => void } {
  const queueKey = (name: string): string => `${keys.bullPrefix}:${keys.tickQueue}:${name}`;
  const timer = setInterval(() => {
    void (async () => {
      const [ran, wait, delayed, active, late] = await Promise.all([
        ranCount(),
        redis.llen(queueKey('wait')),
        redis.zcard(queueKey('delayed')),
        redis.llen(queueKey('active')),
        redis.zrangebyscore(queueKey('repeat'), '-inf', Date.now() - 5000),
      ]);
      console.log(
        `fleet-cluster-chaos: still recovering · ran ${ran.join(',')} · ticks wait ${wait} delayed ${delayed} active ${active} · late schedulers ${late.length}/${ids.length}`,
      );
    })().catch((error: unknown) => console.log(`fleet-cluster-chaos: progress unreadable: ${String(error)}`));
  }, 60_000);
  return { stop: () => clearInterval(timer) };
}

/** True when receipt `r` closes `slot` (a range receipt closes every slot through `through`). */
function covers(r: Receipt, slot: number, intervalMs: number): boolean {
  const first = slotOf(Date.parse(r.slot), intervalMs);
  const last = r.kind === 'skipped' && r.through !== undefined ? slotOf(Date.parse(r.through), intervalMs) : first;
  return first <= slot && slot <= last;
}

/**
 * What a failure needs to tell a double run from a double record: each slot counted twice with its
 * receipts (kind, reason, times) and every journal event of that slot (worker, fence, times).
 */
function describeTwice(
  twice: readonly { readonly heartbeatId: string; readonly slot: number; readonly receipts: readonly Receipt[] }[],
  journal: readonly FleetEvent[],
): string {
  const out = [`fleet-cluster-chaos: ${twice.length} slot(s) with more than one record:`];
  for (const { heartbeatId, slot, receipts } of twice) {
    out.push(`  ${heartbeatId} slot ${slot}:`);
    for (const r of receipts) out.push(`    receipt ${JSON.stringify(r)}`);
    for (const e of journal.filter((event) => 'slot' in event && event.heartbeatId === heartbeatId && event.slot === slot))
      out.push(`    event ${JSON.stringify(e)}`);
  }
  return out.join('\n');
}
