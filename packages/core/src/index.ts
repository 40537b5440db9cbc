/**
 * @heartbeat-kit/core — the pure heartbeat engine: domain types, ports, configuration,
 * active hours, the cycle evaluator, message rendering, lock decisions and the loop.
 * No I/O here: adapters live in `@heartbeat-kit/core/node`, fakes in `@heartbeat-kit/core/testing`.
 * @packageDocumentation
 */
export * from './domain/categories.js';
export * from './domain/finding.js';
export * from './domain/scan-result.js';
export type * from './domain/json.js';
export type * from './ports/index.js';
export * from './config/heartbeat-config-schema.js';
export * from './text/sanitize.js';
export * from './lock/lock-decisions.js';
export * from './stop-reasons/stop-reasons.js';
