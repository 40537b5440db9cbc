/**
 * @heartbeat-kit/runbook — the server runbook's rules (spec 003) as pure decisions: the runbook model and date tokens, the
 * tracked-item date check, due items, the prune plan, the checklist tick and its gate, boot triage,
 * the quiet fast path and gate agreement. I/O adapters live in `./node` and `./github`.
 * @module @heartbeat-kit/runbook
 */
export {
  formatMonthDay,
  formatCalendarDate,
  calendarDateIn,
  type MonthDay,
  type CalendarDate,
  type LineTokens,
} from './dates/date-tokens.js';
export {
  dueItems,
  dueItemsOn,
  checkDates,
  itemsAtOrPastDate,
  itemsAtOrPastDateOn,
  type DueReason,
  type DueItem,
  type DatedReason,
  type DatedItem,
} from './dates/due-items.js';
export { isEffectivelyEmpty } from './model/effectively-empty.js';
export {
  classifySection,
  findPullRequestTriggers,
  hasLiftTrigger,
  parseRunbook,
  TRACKED_SECTIONS,
  REFERENCE_SECTIONS,
  type SectionKind,
  type PullRequestRef,
  type RunbookItem,
  type RunbookSection,
  type Runbook,
} from './model/runbook.js';
export {
  validateRunbook,
  TRACKED_ITEM_SOFT_CAP,
  TRACKED_ITEM_HARD_CAP,
  type RunbookIssueCode,
  type RunbookIssue,
  type RunbookValidation,
} from './validate/validate-runbook.js';
export {
  readPullRequestStates,
  planPrune,
  planPruneOn,
  applyPrunePlan,
  type PruneReason,
  type PruneAction,
  type PruneEntry,
  type PruneWarning,
  type PrunePlan,
  type PullRequestStateMap,
} from './prune/prune-plan.js';
export type { PullRequestState, PullRequestStateError, PullRequestStates } from './ports/pull-request-states.js';
export type { TaskStoreError, TaskStore } from './ports/task-store.js';
export {
  parseSystemStatus,
  previousChecklist,
  hasOpenTaskOfType,
  TASK_STATUSES,
  statusTaskSchema,
  statusAgentSchema,
  statusScheduleSchema,
  statusMentionSchema,
  systemStatusSchema,
  type SystemStatus,
  type StatusTask,
  type StatusAgent,
  type StatusValidationError,
  TERMINAL_STATUSES,
} from './status/system-status.js';
export {
  classifyFailureReason,
  isNeverRetried,
  isRealFailureReason,
  FAILURE_REASONS,
  type FailureClass,
  NEVER_RETRIED_TASK_TYPES,
} from './status/failure-reasons.js';
export {
  stalledTasks,
  recentFailures,
  failedAt,
  rebootInterrupted,
  orphanedTasks,
  stuckOnOfflineAgents,
  supersededWithoutResume,
  recentRealFailures,
  unansweredMentions,
  DEFAULT_STALL_THRESHOLD_MIN,
  type RebootInterrupted,
} from './status/status-views.js';
export { renderSystemStatus } from './status/render-status.js';
export {
  parseGateOutput,
  toVerdict,
  runGate,
  gateEffect,
  DEFAULT_GATE_TIMEOUT_MS,
  type GateDueItem,
  type GateFailure,
  type GateState,
  type GateResult,
  type GateError,
  type GateCall,
  type Gate,
  gateResultSchema,
  type GateVerdictKind,
  type GateVerdict,
  GATE_TAGS,
  type GateMode,
  type GateEffect,
} from './gate/gate.js';
export {
  selectGate,
  readChecklistSettings,
  DEFAULT_CHECKLIST_INTERVAL_MS,
  DEFAULT_GATE_SCRIPT,
  type Env,
  type GateSelection,
  type ChecklistSettings,
} from './gate/checklist-env.js';
export { buildGateState } from './gate/gate-state.js';
export { decideByRules, createRulesGate } from './gate/rules-gate.js';
export {
  computeGateAgreement,
  parseGateLog,
  gateLogRecordSchema,
  type GateLogRecord,
  type GateAgreement,
  type AgreementOptions,
} from './gate/gate-agreement.js';
export {
  checkTickPreconditions,
  renderChecklistPrompt,
  decideChecklistTask,
  runChecklistTick,
  type TickSkipReason,
  type TaskToCreate,
  type TickInput,
  type PreconditionOutcome,
  type TickDecision,
  type TickDeps,
} from './tick/checklist-tick.js';
export {
  gatherBootFindings,
  bootNeedsTriage,
  decideBootTriage,
  BOOT_TRIAGE_DELAY_MS,
  type BootFindings,
  type BootTriageInput,
  type BootTriageDecision,
} from './boot/boot-triage.js';
export { decideQuietFastPath, quietLine, type ScriptReports, type NotQuietReason, type QuietDecision } from './quiet/quiet-fast-path.js';
export {
  scriptReportsFromStatus,
  parseScheduleHealth,
  parseFailureAudit,
  SCHEDULE_FAILURE_THRESHOLD,
  type ScriptReportError,
} from './quiet/script-reports.js';
