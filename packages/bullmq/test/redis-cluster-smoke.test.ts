/**
 * The fleet's keys on a real Redis Cluster (3 masters + 3 replicas): `keySlot` agrees with
 * CLUSTER KEYSLOT, and every store's multi-key script runs (an untagged key layout gets CROSSSLOT).
 */
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { keySlot, parseRedisUrl } from '../src/index.js';
import {
  clusterOptionsFor,
  createRedisClient,
  createRedisLockStore,
  closeRedisClient,
  fleetKeys,
  type RedisClient,
} from '../src/node/index.js';
import { startCluster, type TestCluster } from './support/redis-cluster.js';

let cluster: TestCluster;
let client: RedisClient;
beforeAll(async () => {
  cluster = await startCluster();
  client = createRedisClient(parseRedisUrl(cluster.url)._unsafeUnwrap());
}, 900_000);
afterAll(async () => {
  await closeRedisClient(client);
  await cluster.stop();
});

it('computes the slot CLUSTER KEYSLOT answers for every fleet key', async () => {
  const keys = fleetKeys('hbk');
  const names = [
    keys.registry,
    keys.journal,
    `${keys.bullPrefix}:ticks:wait`,
    keys.lock('api'),
    `${keys.lock('api')}:fence`,
    keys.state('a.b-c'),
    keys.receipts('x'),
    keys.delivered('x__3'),
    'plain',
    '{}x',
    'a{b}c',
  ];
  for (const name of names)
    expect(keySlot(name), name).toBe(Number((await cluster.cli(cluster.nodes[0]!.port, 'CLUSTER', 'KEYSLOT', name)).trim()));
});

it('runs the fenced lock script on the cluster, and an untagged layout is refused with CROSSSLOT', async () => {
  const keys = fleetKeys('smoke');
  const lock = createRedisLockStore({ redis: client, key: keys.lock('api'), ttlMs: 10_000 });
  const taken = await lock.acquire({ owner: 'w1', nowMs: 1, staleAfterMs: 10_000 });
  expect(taken._unsafeUnwrap().record.fence).toBe(1);
  const untagged = createRedisLockStore({ redis: client, key: 'smoke:hb:api:lock', ttlMs: 10_000 });
  const refused = await untagged.acquire({ owner: 'w1', nowMs: 1, staleAfterMs: 10_000 });
  const error = refused._unsafeUnwrapErr();
  expect(error.kind).toBe('io');
  expect(error.kind === 'io' ? error.message : '').toContain('CROSSSLOT');
  expect(clusterOptionsFor(parseRedisUrl(cluster.url)._unsafeUnwrap()).scaleReads).toBe('master');
  expect(client).toBeInstanceOf(Cluster);
});
