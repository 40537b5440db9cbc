import { afterAll, beforeAll, expect, it } from 'vitest';
import { lockStoreContract } from '../../../core/test/contract/lock-store-contract.js';
import { receiptStoreContract } from '../../../core/test/contract/receipt-store-contract.js';
import { stateStoreContract } from '../../../core/test/contract/state-store-contract.js';
import { ackStoreContract } from '../../../core/test/contract/ack-store-contract.js';
import { pauseStoreContract } from '../../../core/test/contract/pause-store-contract.js';
import {
  createRedisAckStore,
  createRedisLockStore,
  createRedisPauseStore,
  createRedisReceiptStore,
  createRedisStateStore,
} from '../../src/node/index.js';
import { startRedis, type TestRedis } from '../support/redis-server.js';
import type { Redis } from 'ioredis';

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

stateStoreContract('redis', () => createRedisStateStore({ redis: client, key: `contract:state:${(counter += 1)}` }));
stateStoreContract('redis with a lock fence key', () => {
  const key = `contract:fenced:${(counter += 1)}`;
  return createRedisStateStore({ redis: client, key, lockFenceKey: `${key}:lock:fence` });
});
lockStoreContract('redis', () => createRedisLockStore({ redis: client, key: `contract:lock:${(counter += 1)}` }));
receiptStoreContract('redis', (bounds, clock) =>
  createRedisReceiptStore({ redis: client, key: `contract:receipts:${(counter += 1)}`, bounds, clock }),
);
ackStoreContract('redis', () => createRedisAckStore({ redis: client, key: `contract:acks:${(counter += 1)}` }));
pauseStoreContract('redis', () => createRedisPauseStore({ redis: client, key: `contract:pause:${(counter += 1)}` }));

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
