/**
 * @heartbeat-kit/core — the pure heartbeat engine: domain types, ports, configuration,
 * active hours, the cycle evaluator, message rendering, lock decisions and the loop.
 * No I/O here: adapters live in `@heartbeat-kit/core/node`, fakes in `@heartbeat-kit/core/testing`.
 * @module @heartbeat-kit/core
 */
export * from './domain/categories.js';
export * from './domain/finding.js';
export * from './domain/scan-result.js';
export type * from './domain/json.js';
export type * from './ports/index.js';
export * from './command/index.js';
export * from './config/heartbeat-config-schema.js';
export * from './text/sanitize.js';
export * from './text/iso-instant.js';
export * from './config/heartbeat-markdown-parser.js';
export * from './config/heartbeat-markdown-renderer.js';
export * from './config/duration.js';
export * from './config/heartbeat-config-json-schema.js';
export * from './active-hours/index.js';
export * from './cycle/heartbeat-state.js';
export * from './cycle/evaluate-cycle.js';
export * from './cycle/run-scanners.js';
export * from './cycle/run-cycle.js';
export * from './cycle/scan-problems.js';
export * from './loop/run-loop.js';
export * from './messages/render-messages.js';
export * from './messages/local-time.js';
export * from './messages/token-estimate.js';
export * from './messages/message-id.js';
export * from './replay/cycle-record.js';
export * from './lock/lock-decisions.js';
export * from './lock/lock-codecs.js';
export * from './schedule/receipts.js';
export * from './schedule/liveness.js';
export * from './schedule/plan.js';
export * from './schedule/catch-up.js';
export * from './inbox/inbox-entries.js';
