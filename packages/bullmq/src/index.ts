/**
 * @heartbeat-kit/bullmq — the pure half of heartbeat fleets: registrations, slot arithmetic,
 * the fleet state document and Redis URL parsing. The Redis and BullMQ adapters
 * (lock, state and receipt stores, scheduler, worker) are in `@heartbeat-kit/bullmq/node`; the
 * fakes for tests and benchmarks in `@heartbeat-kit/bullmq/testing`.
 * @module @heartbeat-kit/bullmq
 */
export {
  isFleetHeartbeatId,
  parseFleetHeartbeat,
  MIN_FLEET_INTERVAL_MS,
  MAX_FLEET_INTERVAL_MS,
  MAX_FAKE_SCAN_MS,
  fleetSourceSchema,
  fleetHeartbeatSchema,
  type FleetHeartbeat,
  type FleetHeartbeatInput,
} from './fleet/fleet-heartbeat.js';
export { slotOf, spreadOffsetMs } from './fleet/slots.js';
export {
  decodeFleetState,
  encodeFleetState,
  decideSlot,
  wasDelivered,
  recordDelivery,
  recordPending,
  fleetMetaSchema,
  type FleetMeta,
  type FleetStateDocument,
} from './fleet/fleet-state.js';
export { redactRedisUrl, parseRedisUrl, type RedisTarget, type ParseRedisUrlOptions } from './fleet/redis-url.js';
export { keySlot, hashTagOf, crc16, CLUSTER_SLOTS } from './fleet/key-slot.js';
