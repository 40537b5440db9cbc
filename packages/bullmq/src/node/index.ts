/**
 * @heartbeat-kit/bullmq/node — the Redis and BullMQ adapters: a fenced lock store, a fenced
 * state store, the fleet scheduler (registrations and BullMQ job schedulers) and the worker.
 * @packageDocumentation
 */
export { createRedisClient, redisOptionsFor, describeRedisError } from './redis-connection.js';
export { createRedisLockStore, type RedisLockStore, type RedisLockStoreOptions } from './redis-lock-store.js';
export { createRedisStateStore, type RedisStateStoreOptions } from './redis-state-store.js';
