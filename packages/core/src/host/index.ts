/**
 * @heartbeat-kit/core/host — what the hosts of the engine share beyond the embedder's main entry:
 * the CLI, the fleet (@heartbeat-kit/bullmq), WoterClip, the runbook, the MCP server and the
 * OpenTelemetry observer build on these slot, receipt, lock, ack, pause, breaker and formatting
 * pieces, and a scanner declares its own HEARTBEAT.md keys with the config-section API here
 * (`ConfigSection`, `readConfigSection`). Pure like the main entry (no I/O); an embedder rarely
 * needs them, and they may change in a minor release more readily than the main entry.
 * @module @heartbeat-kit/core/host
 */
export { type CategoryInfo } from '../domain/categories.js';
export { type TableFindingInput, type UnregisteredCategoryError } from '../domain/category-table.js';
export { categoryTableFingerprint } from '../domain/category-fingerprint.js';
export { findingContentHash } from '../domain/finding.js';
export { type ScannerName, OUTSIDE_ACTIVE_HOURS_REASON, NOT_DUE_SKIP_CODE } from '../domain/scan-result.js';
export type {
  ToolProfile,
  HolderLiveness,
  InspectedLock,
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
} from '../ports/index.js';
export { heldWhy } from '../ports/sink.js';
export {
  ENV_DENY_LIST,
  ENV_NAME_PATTERN,
  envPatternMatches,
  ESSENTIAL_ENV_KEYS,
  TOOL_ENV_DEFAULTS,
  type EnvDenyRule,
  describeCommandError,
} from '../command/index.js';
export { checkSchema, type CheckSpec, checkCategoryOf, isCheckDue, checkDueAtMs, describeCheckEvery } from '../config/check-schema.js';
export { stripTerminalEscapes, sanitizeForTerminal, type TerminalTextMode } from '../text/terminal-escapes.js';
export { type SanitizeOptions } from '../text/sanitize.js';
export { REDACTED } from '../text/secret-shapes.js';
export { type IsoInstantError } from '../text/iso-instant.js';
export { splitCommaList, type CommaListOptions } from '../text/comma-list.js';
export { DEFAULT_HEARTBEAT_FILE, type ParseHeartbeatConfigOptions } from '../config/heartbeat-markdown-parser.js';
export { renderHeartbeatMarkdown } from '../config/heartbeat-markdown-renderer.js';
/** A setter of a duration key for a config section's HEARTBEAT.md keys (a bare number is in the unit given). */
export { duration as durationSetter } from '../config/heartbeat-value-readers.js';
/** A value cut to what a HEARTBEAT.md warning or error shows. */
export { shorten as shortenSettingValue } from '../config/heartbeat-markdown-text.js';
export { heartbeatConfigSchemaFor, type ConfigHost } from '../config/heartbeat-config-schema.js';
export {
  readConfigSection,
  type ConfigSection,
  type ConfigSectionSlot,
  type SectionDraft,
  type SectionSetter,
  type SectionSetterContext,
  type SettingProblem,
} from '../config/config-section.js';
export { heartbeatConfigJsonSchema } from '../config/heartbeat-config-json-schema.js';
export { daysSchema, timeOfDaySchema } from '../config/window-schema.js';
export { activeHoursStatus, isWithinActiveHours, type ActiveHoursWindow, type ActiveHoursStatus } from '../active-hours/index.js';
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
} from '../time/index.js';
export { HEARTBEAT_STATE_VERSION, heartbeatStateSchema } from '../cycle/heartbeat-state.js';
export {
  markDelivered,
  type SuppressionReason,
  type SuppressedFinding,
  type UnconfirmedFinding,
  type ScannerSummary,
  type DeliveredPart,
} from '../cycle/evaluate-cycle.js';
export { resolvedNoticeSchema, type InhibitedFinding, type ResolvedNotice } from '../cycle/recovery-notices.js';
export { DEFAULT_ROUTE, type RouteName } from '../cycle/route-split.js';
export { type DeliveryRoute, type RouteDelivery } from '../cycle/deliver-routes.js';
export { DEFAULT_SCANNER_TIMEOUT_MS, runScanners, type RunScannersOptions } from '../cycle/run-scanners.js';
export { scanAndEvaluate, type CycleStep, type CycleStepDeps, type CycleStepInput } from '../cycle/cycle-step.js';
export { MAX_SCANNER_SLICES } from '../cycle/scanner-slice.js';
export { cutOffScanners, formatScanProblems, type ScanProblemKind, type ScanProblem } from '../cycle/scan-problems.js';
export {
  breakerSkips,
  updateBreakers,
  MAX_BREAKERS,
  SCANNER_FAILING,
  scannerBreakerSchema,
  type ScannerBreaker,
  type BreakerEvent,
  type BreakerUpdate,
  type BreakerContext,
} from '../cycle/scanner-breaker.js';
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
} from '../cycle/sink-breaker.js';
export {
  stepBreaker,
  type BreakerSettings,
  type BreakerStreak,
  type BreakerObservation,
  type BreakerStep,
} from '../cycle/breaker-decision.js';
export { deterministicJitter } from '../loop/run-loop.js';
export {
  groupByCategory,
  renderWorkFound,
  renderOnline,
  renderShutdown,
  renderCostAlert,
  type WorkFoundInput,
  type RenderedReport,
} from '../messages/render-messages.js';
export { type TokenEstimator } from '../messages/token-estimate.js';
export {
  createCycleRecord,
  replayCycleRecords,
  type CycleRecord,
  type ReplayMismatch,
  type ReplayLineError,
  type ReplayOptions,
  type ReplayOtherTable,
  type ReplayReport,
} from '../replay/cycle-record.js';
export { decideAcquire, decideRelease, ownsLock, type AcquireDecision, type ReleaseDecision } from '../lock/lock-decisions.js';
export { type LockCodec, jsonLockCodec } from '../lock/lock-codecs.js';
export {
  receiptForOutcome,
  ranReceipt,
  type RanCycle,
  receiptForSkippedSlots,
  futureRecordedSlotMs,
  lastRecordedSlotMs,
  pruneReceipts,
  formatReceipt,
  SKIP_REASONS,
  type SkipReason,
  SKIP_REASON_NAMES,
  type ReceiptSource,
  receiptSchema,
  type RanReceipt,
  type PausedReceipt,
  pausedReceipt,
  type ReceiptBounds,
} from '../schedule/receipts.js';
export {
  judgeLiveness,
  NOT_LIVE_REASONS,
  type NotLiveReason,
  type LivenessVerdict,
  type LivenessInput,
  type LivenessTerms,
} from '../schedule/liveness.js';
export { planSlots, nextGridSlot, type PlanSchedule, type PlanRunbook, type SlotVerdict, type PlannedSlot } from '../schedule/plan.js';
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
} from '../schedule/catch-up.js';
export {
  ACK_BOOK_VERSION,
  MAX_ACK_NOTE_CHARS,
  ackSchema,
  ackMatchSchema,
  decodeAckBook,
  encodeAckBook,
  ackActive,
  type Ack,
  type AckMatch,
  type AckBook,
  type DecodedAckBook,
} from '../operator/ack-book.js';
export type { AckStore, AckStoreError, LoadedAcks } from '../operator/ack-store.js';
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
} from '../operator/ack-input.js';
export {
  decideAcks,
  ackMemoryEntrySchema,
  type AckMemoryEntry,
  type AckMemory,
  type AckEndReason,
  type AckHeldFinding,
  type AckEndedFinding,
  type AckDecision,
} from '../operator/ack-decision.js';
export { acksOverPlan, ackHolding, type PlannedAck, type AckHolding } from '../operator/ack-status.js';
export { pauseSchema, createPause, describePause, type Pause, type PauseRequest, type PauseInputError } from '../operator/pause-model.js';
export {
  pauseActiveAt,
  decidePause,
  isCriticalFinding,
  pauseLiveness,
  type PauseLiveness,
  type PauseDecision,
  type SlotPause,
} from '../operator/pause-decision.js';
export type { PauseStore, PauseStoreError } from '../operator/pause-store.js';

// One slot lifecycle (lock, missed slots, pause, run, one receipt) and the plan's companions.
export { type DescribeRanReceipt, MAX_SOURCE_DETAIL_CHARS } from '../schedule/receipts.js';
export { type PlanInput, type PlanJudge, type SlotJudgement } from '../schedule/plan.js';
export {
  type SettledSlot,
  type SlotBody,
  type SlotEnd,
  type SlotGrid,
  type SlotPlan,
  type SlotPorts,
  type SlotRun,
  type SlotStamp,
  type SlotSteps,
  type UnwrittenReceipt,
  runSlot,
  settleSlot,
  slotReceipt,
} from '../schedule/run-slot.js';
// The pure planner behind every runner's slot (core's runSlot, the fleet's cycle job, WoterClip's beat).
export {
  type ConfigFact,
  type GateFact,
  type LockFact,
  type RunFact,
  type SlotFacts,
  type SlotShape,
  type SlotStep,
  nextSlotStep,
} from '../schedule/slot-planner.js';
