/**
 * What the fencing tokens guarantee across a Redis Cluster failover. Replication is asynchronous:
 * a master can acknowledge `INCR` of a lock's fence and die before its replica has it. The replica
 * is stopped (SIGSTOP) and its link cut so that loss happens on every run, not by chance: the master is SIGKILLed
 * right after acknowledging, the replica resumes and is promoted with the older counter.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseRedisUrl } from '../src/index.js';
import { closeRedisClient, createRedisClient, createRedisLockStore, createRedisStateStore, fleetKeys } from '../src/node/index.js';
import { startCluster, type TestCluster } from './support/redis-cluster.js';

let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startCluster();
});
afterAll(async () => {
  await cluster.stop();
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Stops the replica of the lock's master, runs `write` (acknowledged by the master alone), SIGKILLs
 * the master, resumes the replica and waits until it has taken over; then restarts the dead node
 * (it rejoins as a replica) so the next test starts from a whole cluster.
 */
async function loseWritesInFailover(lockKey: string, write: () => Promise<void>, after: () => Promise<void>): Promise<void> {
  const master = await cluster.masterOf(lockKey);
  const [replica] = await cluster.replicasOf(master);
  expect(replica, 'the lock master has a replica').toBeDefined();
  const replicaPid = cluster.node(replica!).child.pid!;
  process.kill(replicaPid, 'SIGSTOP');
  // Cut the replication link too: bytes the master already sent would wait in the stopped
  // replica's socket buffer and arrive after all.
  await cluster.cli(master, 'CLIENT', 'KILL', 'TYPE', 'replica');
  try {
    await write();
  } finally {
    await cluster.kill(master);
    process.kill(replicaPid, 'SIGCONT');
  }
  // The resumed replica sees its master gone and is elected by the other masters.
  while (!(await cluster.cli(replica!, 'ROLE').catch(() => '')).startsWith('master')) await sleep(100);
  await cluster.waitHealthy();
  try {
    await after();
  } finally {
    await cluster.restart(master);
    await cluster.waitHealthy();
  }
}

it('a fence write lost in a failover is handed out again: two holders can carry the same fence', async () => {
  const keys = fleetKeys('lost');
  const lockKey = keys.lock('api');
  const target = parseRedisUrl(cluster.url)._unsafeUnwrap();
  const before = createRedisClient(target);
  const lock = createRedisLockStore({ redis: before, key: lockKey, ttlMs: 60_000, minReplicaAcks: 1 });
  // Holder A: fence 1, confirmed by the replica.
  expect((await lock.acquire({ owner: 'A', nowMs: 1000, staleAfterMs: 1000 }))._unsafeUnwrap().record.fence).toBe(1);
  let fenceB = 0;
  await loseWritesInFailover(
    lockKey,
    async () => {
      // Holder B takes over the stale lock with fence 2: acknowledged by the master only.
      const unconfirmed = createRedisLockStore({ redis: before, key: lockKey, ttlMs: 60_000 });
      fenceB = (await unconfirmed.acquire({ owner: 'B', nowMs: 5000, staleAfterMs: 1000 }))._unsafeUnwrap().record.fence ?? 0;
    },
    async () => {
      const after = createRedisClient(target);
      try {
        expect(Number(await after.get(`${lockKey}:fence`))).toBe(1); // the failover lost fence 2
        const lockC = createRedisLockStore({ redis: after, key: lockKey, ttlMs: 60_000 });
        const fenceC = (await lockC.acquire({ owner: 'C', nowMs: 9000, staleAfterMs: 1000 }))._unsafeUnwrap().record.fence ?? 0;
        expect(fenceB).toBe(2);
        expect(fenceC).toBe(fenceB);
        // Both B and C now pass the fence check: fencing cannot tell them apart.
        const state = createRedisStateStore({ redis: after, key: keys.state('api'), lockFenceKey: `${lockKey}:fence` });
        expect((await state.save({ by: 'C' }, { fence: fenceC }))._unsafeUnwrap()).toBeUndefined();
        expect((await state.save({ by: 'B' }, { fence: fenceB })).isOk()).toBe(true);
        // A fence the replica had confirmed still orders writes after the failover: A is refused.
        expect((await state.save({ by: 'A' }, { fence: 1 }))._unsafeUnwrapErr().kind).toBe('stale-fence');
      } finally {
        await closeRedisClient(after);
      }
    },
  );
  before.disconnect();
});

it('with minReplicaAcks 1 an unconfirmed fence is never acted on, so no two holders share one', async () => {
  const keys = fleetKeys('acked');
  const lockKey = keys.lock('api');
  const target = parseRedisUrl(cluster.url)._unsafeUnwrap();
  const before = createRedisClient(target);
  const lock = createRedisLockStore({ redis: before, key: lockKey, ttlMs: 60_000, minReplicaAcks: 1, replicaAckTimeoutMs: 300 });
  expect((await lock.acquire({ owner: 'A', nowMs: 1000, staleAfterMs: 1000 }))._unsafeUnwrap().record.fence).toBe(1);
  let refusal = '';
  await loseWritesInFailover(
    lockKey,
    async () => {
      const taken = await lock.acquire({ owner: 'B', nowMs: 5000, staleAfterMs: 1000 });
      refusal = taken.isErr() && taken.error.kind === 'io' ? taken.error.message : `acquired: ${JSON.stringify(taken)}`;
    },
    async () => {
      const after = createRedisClient(target);
      try {
        // The promoted master has no replica until the dead node rejoins: C asks for no acks.
        const lockC = createRedisLockStore({ redis: after, key: lockKey, ttlMs: 60_000 });
        // C gets fence 2 — the number B saw but never used, since its acquisition failed.
        expect((await lockC.acquire({ owner: 'C', nowMs: 9000, staleAfterMs: 1000 }))._unsafeUnwrap().record.fence).toBe(2);
      } finally {
        await closeRedisClient(after);
      }
    },
  );
  expect(refusal).toMatch(/fence 2 reached 0 of 1 replica\(s\) within 300 ms; released it/);
  before.disconnect();
});
