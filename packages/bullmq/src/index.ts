/**
 * @heartbeat-kit/bullmq — the pure half of heartbeat fleets: registrations, slot arithmetic,
 * the fleet state document, fake scanners and Redis URL parsing. The Redis and BullMQ adapters
 * (lock and state stores, scheduler, worker) are in `@heartbeat-kit/bullmq/node`.
 * @module @heartbeat-kit/bullmq
 */
export * from './fleet/fleet-heartbeat.js';
export * from './fleet/slots.js';
export * from './fleet/fleet-state.js';
export * from './fleet/fake-scanners.js';
export * from './fleet/redis-url.js';
