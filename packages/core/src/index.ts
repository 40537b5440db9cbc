/**
 * @heartbeat-kit/core — the pure heartbeat engine: domain types, ports, configuration,
 * active hours, the cycle evaluator, message rendering, lock decisions and the loop.
 * No I/O here: adapters live in `@heartbeat-kit/core/node`, fakes in `@heartbeat-kit/core/testing`.
 * @module @heartbeat-kit/core
 */
export {
  isCoBuilderCategory,
  compareCategories,
  type PriorityClass,
  COBUILDER_CATEGORIES,
  type CoBuilderCategory,
  type FindingCategory,
  type CategoryInfo,
  CATEGORY_INFO,
} from './domain/categories.js';
export {
  defineCategories,
  DEFAULT_CATEGORIES,
  categoryComparator,
  unregisteredCategoryError,
  recoveryNoticeOf,
  type CategoryTable,
  type CategorySpec,
  type DefineCategoriesOptions,
  type TableFindingInput,
  type UnregisteredCategoryError,
} from './domain/category-table.js';
export { categoryTableFingerprint } from './domain/category-fingerprint.js';
export { fingerprintOf, createFinding, findingContentHash, type Finding, type FindingInput, findingSchema } from './domain/finding.js';
export {
  scanOk,
  BUILTIN_SCANNERS,
  type ScannerName,
  type ScanWarning,
  OUTSIDE_ACTIVE_HOURS_REASON,
  NOT_DUE_SKIP_CODE,
  type ScanResult,
} from './domain/scan-result.js';
export type { JsonValue } from './domain/json.js';
export type {
  Clock,
  Sleep,
  ToolProfile,
  CommandRequest,
  CommandOutput,
  CommandError,
  CommandRunner,
  LoadedState,
  StateStoreError,
  SaveOptions,
  StateStore,
  LockRecord,
  HolderLiveness,
  InspectedLock,
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
  ReplyInboxError,
  ListedInbox,
  ReplyInbox,
  OutputSpoolError,
  OpenSpool,
  SpoolStdout,
  LeftoverSpool,
  RefusedSpool,
  SpoolText,
  LeftoverSpools,
  OutputSpool,
  CycleObserver,
  ObservedStep,
  ObservedValue,
} from './ports/index.js';
export { heldWhy } from './ports/sink.js';
export {
  ENV_DENY_LIST,
  ENV_NAME_PATTERN,
  envPatternMatches,
  ESSENTIAL_ENV_KEYS,
  TOOL_ENV_DEFAULTS,
  TOOL_PROFILES,
  type ChildEnvOptions,
  type EnvDenyRule,
  describeCommandError,
} from './command/index.js';
export { heartbeatConfigSchema, type HeartbeatConfig, DEFAULT_HEARTBEAT_CONFIG } from './config/heartbeat-config-schema.js';
export {
  checkSchema,
  checksSchema,
  type CheckSpec,
  CHECK_NAME_PATTERN,
  CHECK_CATEGORY_PATTERN,
  DEFAULT_CHECK_TIMEOUT_MS,
  MAX_CHECK_TIMEOUT_MS,
  MAX_CHECKS,
  checkCategoryOf,
  defaultCheckCategory,
  isCheckDue,
  checkDueAtMs,
  describeCheckEvery,
} from './config/check-schema.js';
export { stripTerminalEscapes, sanitizeForTerminal, type TerminalTextMode } from './text/terminal-escapes.js';
export { redactSecrets, sanitizeForMessage, type SanitizeOptions } from './text/sanitize.js';
export { REDACTED } from './text/secret-shapes.js';
export { parseIsoInstant, type IsoInstantError } from './text/iso-instant.js';
export { splitCommaList, type CommaListOptions } from './text/comma-list.js';
export {
  parseHeartbeatConfig,
  formatHeartbeatConfigError,
  DEFAULT_HEARTBEAT_FILE,
  type HeartbeatConfigError,
  type ParsedHeartbeatConfig,
  type ParseHeartbeatConfigOptions,
} from './config/heartbeat-markdown-parser.js';
export { renderHeartbeatMarkdown } from './config/heartbeat-markdown-renderer.js';
export { heartbeatConfigJsonSchema } from './config/heartbeat-config-json-schema.js';
export { daysSchema, timeOfDaySchema } from './config/window-schema.js';
export {
  activeHoursStatus,
  isWithinActiveHours,
  activeDays,
  formatActiveHours,
  type ActiveHoursWindow,
  type ActiveHoursStatus,
} from './active-hours/index.js';
export {
  wallClockIn,
  isKnownZone,
  type WallClock,
  formatLocalTimestamp,
  calendarDateIn,
  isValidCalendarDate,
  daysBetween,
  addCalendarDays,
  nearestMonthDay,
  type CalendarDate,
  type MonthDay,
  WEEKDAY_NAMES,
  type Weekday,
  formatDays,
  isValidTimeZone,
  resolveTimeZone,
  type InvalidTimeZoneError,
  parseDuration,
  parseDurationStrict,
  formatDuration,
  type DurationUnit,
  type DurationError,
} from './time/index.js';
export {
  initialHeartbeatState,
  decodeHeartbeatState,
  encodeHeartbeatState,
  HEARTBEAT_STATE_VERSION,
  heartbeatStateSchema,
  type HeartbeatState,
  type DecodedHeartbeatState,
} from './cycle/heartbeat-state.js';
export {
  evaluateCycle,
  markDelivered,
  type CycleContext,
  type SuppressionReason,
  type SuppressedFinding,
  type UnconfirmedFinding,
  type ScannerSummary,
  type CycleDecision,
  type CycleEvaluation,
  type DeliveredPart,
  UNREGISTERED_CATEGORY_CODE,
} from './cycle/evaluate-cycle.js';
export {
  applyInhibition,
  failingSources,
  inhibitorOf,
  stepRecoveries,
  settleRecoveries,
  recoveryMemorySchema,
  resolvedNoticeSchema,
  MAX_WATCHED_RECOVERIES,
  type InhibitedFinding,
  type RecoveryCycle,
  type RecoveryMemory,
  type ResolvedNotice,
  type WatchedFinding,
} from './cycle/recovery-notices.js';
export { splitByRoute, DEFAULT_ROUTE, type RouteName, type RoutedPart, type RouteRenderContext } from './cycle/route-split.js';
export { deliverRoutes, type DeliveryRoute, type RouteDelivery, type RouteDeliveryContext } from './cycle/deliver-routes.js';
export {
  decideRepeat,
  rememberDelivery,
  repeatIntervalMs,
  repeatScheduleOf,
  repeatScheduleFor,
  type RepeatDecision,
  type ReportMemory,
} from './cycle/repeat-schedule.js';
export { DEFAULT_SCANNER_TIMEOUT_MS, runScanners, type RunScannersOptions } from './cycle/run-scanners.js';
export { scanAndEvaluate, type CycleStep, type CycleStepDeps, type CycleStepInput } from './cycle/cycle-step.js';
export {
  defineStatefulScanner,
  DEFAULT_MAX_SLICE_BYTES,
  MAX_SCANNER_SLICES,
  SLICE_SET_ASIDE_CODE,
  SLICE_REJECTED_CODE,
  type StoredSlice,
  type StatefulScan,
  type StatefulScannerDefinition,
} from './cycle/scanner-slice.js';
export { runCycle, type CycleDeps, type CycleSettings, type CycleOutcome, type StateRefusal } from './cycle/run-cycle.js';
export {
  scanProblems,
  cutOffScanners,
  notLookedAtScanners,
  formatScanProblems,
  type ScanProblemKind,
  type ScanProblem,
} from './cycle/scan-problems.js';
export {
  breakerSkips,
  updateBreakers,
  BREAKER_SKIP_CODE,
  MAX_BREAKERS,
  SCANNER_FAILING,
  scannerBreakerSchema,
  type ScannerBreaker,
  type BreakerEvent,
  type BreakerUpdate,
  type BreakerContext,
} from './cycle/scanner-breaker.js';
export {
  sinkDeliveryHeld,
  updateSinkBreaker,
  sinkBreakerSchema,
  SINK_FAILING,
  SINK_BREAKER_OPEN,
  type SinkBreaker,
  type SinkAttempt,
  type SinkBreakerReport,
  type SinkBreakerEvent,
  type SinkBreakerContext,
} from './cycle/sink-breaker.js';
export {
  stepBreaker,
  breakerHoldsBack,
  isBreakerTripped,
  type BreakerSettings,
  type BreakerStreak,
  type BreakerObservation,
  type BreakerStep,
} from './cycle/breaker-decision.js';
export { deterministicJitter, runLoop, type LoopOptions, type LoopSummary } from './loop/run-loop.js';
export {
  groupByCategory,
  renderWorkFound,
  renderOnline,
  renderShutdown,
  renderCostAlert,
  HEARTBEAT_OK,
  type WorkFoundInput,
  type RenderedReport,
} from './messages/render-messages.js';

export { stableFindingId } from './messages/message-id.js';
export { type TokenEstimator, estimateTokensByChars } from './messages/token-estimate.js';
export {
  createCycleRecord,
  parseCycleRecord,
  replayCycleRecords,
  type CycleRecord,
  type ReplayMismatch,
  type ReplayLineError,
  type ReplayOptions,
  type ReplayOtherTable,
  type ReplayReport,
} from './replay/cycle-record.js';
export {
  isLockStale,
  decideAcquire,
  decideRelease,
  ownsLock,
  type AcquireDecision,
  type ReleaseDecision,
  lockRecordSchema,
} from './lock/lock-decisions.js';
export { type LockCodec, jsonLockCodec } from './lock/lock-codecs.js';
export {
  receiptForOutcome,
  ranReceipt,
  type RanCycle,
  skippedReceipt,
  receiptForSkippedSlots,
  futureRecordedSlotMs,
  lastRecordedSlotMs,
  pruneReceipts,
  formatReceipt,
  SKIP_REASONS,
  type SkipReason,
  SKIP_REASON_NAMES,
  MAX_SOURCE_DETAIL_CHARS,
  type DescribeRanReceipt,
  type ReceiptSource,
  receiptSchema,
  type Receipt,
  type RanReceipt,
  type PausedReceipt,
  pausedReceipt,
  type ReceiptBounds,
  DEFAULT_RECEIPT_BOUNDS,
} from './schedule/receipts.js';
export {
  judgeLiveness,
  NOT_LIVE_REASONS,
  type NotLiveReason,
  type LivenessVerdict,
  type LivenessInput,
  type LivenessTerms,
} from './schedule/liveness.js';
export {
  planSlots,
  nextGridSlot,
  type PlanSchedule,
  type PlanJudge,
  type SlotJudgement,
  type PlanRunbook,
  type PlanInput,
  type SlotVerdict,
  type PlannedSlot,
} from './schedule/plan.js';
export {
  decideSlots,
  decideCronSlot,
  CATCH_UP_POLICIES,
  type CatchUpPolicy,
  type CatchUpSettings,
  DEFAULT_CATCH_UP,
  type GapCause,
  type SkippedSlots,
  type SlotDecisionInput,
  type SlotDecision,
  type CronSlotInput,
} from './schedule/catch-up.js';
export {
  runSlot,
  slotReceipt,
  type SlotEnd,
  type SlotStamp,
  type SlotGrid,
  type SlotPorts,
  type SlotPlan,
  type SlotRun,
  type UnwrittenReceipt,
} from './schedule/run-slot.js';
export { type InboxEntry, inboxEntrySchema } from './inbox/inbox-entries.js';
export {
  ACK_BOOK_VERSION,
  MAX_ACK_NOTE_CHARS,
  MAX_ACKS,
  ackSchema,
  ackMatchSchema,
  emptyAckBook,
  decodeAckBook,
  encodeAckBook,
  ackMatches,
  ackActive,
  type Ack,
  type AckMatch,
  type AckBook,
  type DecodedAckBook,
} from './operator/ack-book.js';
export type { AckStore, AckStoreError, LoadedAcks } from './operator/ack-store.js';
export {
  validateAckNote,
  ackEnd,
  knownFindingsOf,
  resolveAckSelector,
  addAck,
  removeAcks,
  type AckInputError,
  type KnownFinding,
  type ResolvedSelector,
  type NewAck,
} from './operator/ack-input.js';
export {
  decideAcks,
  MAX_ACK_MEMORY,
  ackMemoryEntrySchema,
  type AckMemoryEntry,
  type AckMemory,
  type AckEndReason,
  type AckHeldFinding,
  type AckEndedFinding,
  type AckDecision,
} from './operator/ack-decision.js';
export { acksOverPlan, ackHolding, type PlannedAck, type AckHolding } from './operator/ack-status.js';
// Operator pause (issue 27): the pure decision, the pause record and its port.
export {
  PAUSE_NOTE_MAX,
  pauseSchema,
  createPause,
  describePause,
  type Pause,
  type PauseRequest,
  type PauseInputError,
} from './operator/pause-model.js';
export {
  PAUSED_SCANNER_CODE,
  pauseActiveAt,
  decidePause,
  isCriticalFinding,
  pausedScanResult,
  pausedScannerSkips,
  keepCriticalFindings,
  pauseLiveness,
  type PauseLiveness,
  type PauseDecision,
  type SlotPause,
} from './operator/pause-decision.js';
export type { PauseStore, PauseStoreError } from './operator/pause-store.js';
