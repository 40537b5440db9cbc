import { afterAll, beforeAll } from 'vitest';
import { lockStoreContract } from '../../../core/test/contract/lock-store-contract.js';
import { receiptStoreContract } from '../../../core/test/contract/receipt-store-contract.js';
import { stateStoreContract } from '../../../core/test/contract/state-store-contract.js';
import { ackStoreContract } from '../../../core/test/contract/ack-store-contract.js';
import { createRedisAckStore, createRedisLockStore, createRedisReceiptStore, createRedisStateStore } from '../../src/node/index.js';
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
