/**
 * @heartbeat-kit/bullmq/node — the Redis and BullMQ adapters: a fenced lock store, a fenced
 * state store, a receipt store, the fleet scheduler (registrations and BullMQ job schedulers) and the worker.
 * @module @heartbeat-kit/bullmq/node
 */
export {
  closeRedisClient,
  createRedisClient,
  redisOptionsFor,
  clusterOptionsFor,
  bullConnectionFor,
  type BullConnection,
  type RedisClient,
  describeRedisError,
  pingRedis,
  waitForRedis,
  type RedisProbeFailure,
  type WaitForRedisOptions,
} from './redis-connection.js';
export { createRedisLockStore, type RedisLockStore, type RedisLockStoreOptions } from './redis-lock-store.js';
export { createRedisStateStore, type RedisStateStoreOptions } from './redis-state-store.js';
export { createRedisAckStore, type RedisAckStoreOptions } from './redis-ack-store.js';
export { createRedisPauseStore, type RedisPauseStoreOptions } from './redis-pause-store.js';
export { createRedisReceiptStore, DEFAULT_FLEET_RECEIPT_BOUNDS, type RedisReceiptStoreOptions } from './redis-receipt-store.js';
export { fleetKeys, DEFAULT_FLEET_PREFIX, type FleetKeys } from './fleet-keys.js';
export {
  createFleetScheduler,
  readRegistry,
  type FleetScheduler,
  type FleetSchedulerOptions,
  type FleetHeartbeatStatus,
  type FleetError,
  type TickJobData,
  type UnreadableRegistration,
} from './fleet-scheduler.js';
export {
  createFleetWorker,
  DEFAULT_TICK_WATCHDOG_MS,
  readFleetJournal,
  type FleetWorker,
  type FleetWorkerOptions,
  type FleetSink,
  type FleetDelivery,
  type FleetEvent,
  type CycleSetup,
  type ResolveHeartbeat,
  type CycleJobData,
  type OutboxBreakerSettings,
  type OutboxJobData,
  FLEET_QUEUE_NAMES,
  type FleetJobEvent,
  type FleetJobOutcome,
  type FleetQueueCounts,
  type FleetQueueName,
} from './fleet-worker.js';
