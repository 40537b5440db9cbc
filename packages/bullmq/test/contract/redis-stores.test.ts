import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  createRedisAckStore,
  createRedisLockStore,
  createRedisPauseStore,
  createRedisReceiptStore,
  createRedisStateStore,
} from '../../src/node/index.js';
import { startRedis, type TestRedis } from '../support/redis-server.js';
import type { Redis } from 'ioredis';
import {
  lockStoreContract,
  receiptStoreContract,
  stateStoreContract,
  ackStoreContract,
  pauseStoreContract,
} from '@heartbeat-kit/core/testing';

let redis: TestRedis;
let client: Redis;
let counter = 0;
beforeAll(async () => {
  redis = await startRedis();
  client = redis.client();
});
afterAll(async () => {
  await redis.stop();
});

await stateStoreContract('redis', () => createRedisStateStore({ redis: client, key: `contract:state:${(counter += 1)}` }));
await stateStoreContract('redis with a lock fence key', () => {
  const key = `contract:fenced:${(counter += 1)}`;
  return createRedisStateStore({ redis: client, key, lockFenceKey: `${key}:lock:fence` });
});
await lockStoreContract('redis', () => createRedisLockStore({ redis: client, key: `contract:lock:${(counter += 1)}` }));
await receiptStoreContract('redis', (bounds, clock) =>
  createRedisReceiptStore({ redis: client, key: `contract:receipts:${(counter += 1)}`, bounds, clock }),
);
await ackStoreContract('redis', () => createRedisAckStore({ redis: client, key: `contract:acks:${(counter += 1)}` }));
await pauseStoreContract('redis', () => createRedisPauseStore({ redis: client, key: `contract:pause:${(counter += 1)}` }));

it('a damaged Redis pause is an invalid error naming the key and fleet resume, and resume still removes it', async () => {
  const key = `contract:pause:${(counter += 1)}`;
  await client.set(key, '{"v":1,"note":""');
  const store = createRedisPauseStore({ redis: client, key });
  const read = (await store.read())._unsafeUnwrapErr();
  expect(read.kind).toBe('invalid');
  expect(read.message).toContain(key);
  expect(read.message).toContain('fleet resume');
  expect((await store.clear())._unsafeUnwrap()).toBeUndefined();
  expect(await client.exists(key)).toBe(0);
});
