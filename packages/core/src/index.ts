/**
 * @heartbeat-kit/core — the pure heartbeat engine: domain types, ports, configuration,
 * active hours, the cycle evaluator, message rendering, lock decisions and the loop.
 * No I/O here: adapters live in `@heartbeat-kit/core/node`, fakes in `@heartbeat-kit/core/testing`.
 * @module @heartbeat-kit/core
 */
export { type PriorityClass, type FindingCategory } from './domain/categories.js';
export {
  defineCategories,
  OPEN_CATEGORIES,
  type CategoryTable,
  type CategorySpec,
  type DefineCategoriesOptions,
} from './domain/category-table.js';
export { fingerprintOf, createFinding, type Finding, type FindingInput } from './domain/finding.js';
export { scanOk, type ScanWarning, type ScanResult } from './domain/scan-result.js';
export type { JsonValue } from './domain/json.js';
export type {
  Clock,
  Sleep,
  CommandRequest,
  CommandOutput,
  CommandError,
  CommandRunner,
  LoadedState,
  StateStoreError,
  SaveOptions,
  StateStore,
  LockRecord,
  AcquireRequest,
  Acquired,
  ReleaseOutcome,
  LockError,
  LockStore,
  MessageKind,
  MessageFinding,
  OutboundMessage,
  SinkError,
  SinkHeld,
  SinkDelivery,
  Sink,
  ScanContext,
  Scanner,
  ScannerSliceSpec,
  OperatorActivity,
  ReceiptStoreError,
  ListedReceipts,
  ReceiptStore,
  CycleObserver,
  ObservedStep,
  ObservedValue,
} from './ports/index.js';
export { heartbeatConfigSchema, type HeartbeatConfig, DEFAULT_HEARTBEAT_CONFIG } from './config/heartbeat-config-schema.js';
export { redactSecrets, sanitizeForMessage } from './text/sanitize.js';
export { parseIsoInstant } from './text/iso-instant.js';
export {
  parseHeartbeatConfig,
  formatHeartbeatConfigError,
  type HeartbeatConfigError,
  type ParsedHeartbeatConfig,
} from './config/heartbeat-markdown-parser.js';
export {
  initialHeartbeatState,
  decodeHeartbeatState,
  encodeHeartbeatState,
  type HeartbeatState,
  type DecodedHeartbeatState,
} from './cycle/heartbeat-state.js';
export { evaluateCycle, type CycleContext, type CycleDecision, type CycleEvaluation } from './cycle/evaluate-cycle.js';
export { defineStatefulScanner, type StoredSlice, type StatefulScan, type StatefulScannerDefinition } from './cycle/scanner-slice.js';
export { runCycle, type CycleDeps, type CycleSettings, type CycleOutcome, type StateRefusal } from './cycle/run-cycle.js';
export { runLoop, type LoopOptions, type LoopSummary } from './loop/run-loop.js';
export { HEARTBEAT_OK } from './messages/render-messages.js';
export { skippedReceipt, type Receipt } from './schedule/receipts.js';
