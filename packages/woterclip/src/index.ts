/**
 * @heartbeat-kit/woterclip — the WoterClip GitHub-issue beat loop (lock, inbox, pick, dispatch, report,
 * labels; spec 002) over the
 * IssueTracker, Dispatcher, BeatLog and core LockStore ports. Pure: the gh adapter lives in
 * `./github`, file and process adapters in `./node`, fakes in `./testing`.
 * @module @heartbeat-kit/woterclip
 */
export type {
  IssueSummary,
  IssueComment,
  IssueDetail,
  SubIssueState,
  LabelEdit,
  LabelStyle,
  NewIssue,
  TrackerError,
  IssueTracker,
  DispatchRequest,
  ModelUsed,
  DispatchReport,
  DispatchFailure,
  Dispatcher,
  WorkspaceError,
  WorkspaceFiles,
  ToolProbe,
  BeatLogError,
  BeatLog,
} from './ports/index.js';
export {
  parseWoterclipConfig,
  parsePersonaConfig,
  CONFIG_PATH,
  CONFIG_MISSING_MESSAGE,
  INIT_COMMAND,
  DEFAULT_TIME_CEILING_SEC,
  woterclipConfigSchema,
  type WoterclipConfig,
  type PersonaRef,
  personaConfigSchema,
  type PersonaConfig,
  type ConfigError,
} from './config/woterclip-config.js';
export { isQuietTime, quietHoursPlanJudge, type QuietHoursSettings } from './beat/quiet-hours.js';
export { decideBeatPause, type BeatPauseDecision } from './beat/beat-pause.js';
export {
  isStopReason,
  stopReasonInfo,
  STOP_REASONS,
  type StopReason,
  type StopReasonInfo,
  STOP_REASON_TABLE,
} from './beat/stop-reasons.js';
export { decideNextStep, type NextStepInput, type NextStep } from './beat/next-step.js';
export { runBeat } from './beat/run-beat.js';
export {
  BEAT_RECEIPT_SOURCE,
  beatDetailSchema,
  beatDetailOf,
  formatBeatReceipt,
  beatReceiptView,
  type BeatDetail,
} from './beat/beat-detail.js';
export { loadWoterclipConfig } from './beat/load-woterclip-config.js';
export type { BeatDeps, BeatOptions, BeatExit, WorkedIssue, BeatResult, LoadedPersona, LoadedWoterclipConfig } from './beat/beat-types.js';
export { formatWoterclipTimestamp, woterclipLockCodec } from './lock/woterclip-lock-codec.js';
export type { LockView } from './lock/lock-holder.js';
export {
  personaForLabels,
  defaultPersona,
  buildInbox,
  renderDryRun,
  STATUS_LABELS,
  PRIORITY_LABELS,
  type InboxFilter,
  type InboxEntry,
} from './inbox/inbox.js';
export {
  serializeLogLine,
  parseLogText,
  groupBeats,
  decomposedParents,
  ISSUE_STATUSES,
  type IssueStatus,
  type IssueLine,
  type BeatLine,
  type LogLine,
  type ParsedLog,
  type BeatGroup,
} from './log/log-lines.js';
export {
  isAgentComment,
  lastHeartbeatComment,
  nextHeartbeatNumber,
  commentsSinceLastAgent,
  renderStandardComment,
  renderBlockedComment,
  renderStaleCleanupComment,
  renderUnattachedComment,
  type StandardReport,
  type BlockedReport,
} from './report/comments.js';
export {
  parseOutcome,
  OUTCOME_MARKER,
  outcomeSchema,
  type OutcomeCommit,
  type OutcomeSubIssue,
  type Outcome,
  OUTCOME_CONTRACT,
} from './dispatch/outcome.js';
export { composePrompt, parentReference, STATE_OWNERSHIP_PREAMBLE, type PromptInput } from './dispatch/prompt.js';
export { createCommandDispatcher, REFUSED_EXIT_CODE, type CommandDispatcherOptions } from './dispatch/command-dispatcher.js';
export {
  decompose,
  canCloseParent,
  type ChildSpec,
  type CreatedChild,
  type DecomposeResult,
  type MutationGuard,
  type DecomposeError,
} from './subissues/sub-issues.js';
export { buildStatus, renderStatus, STOPPED_AFTER_MS, type StatusInput, type StatusView } from './status/status-view.js';
export { loadStatus, type StatusDeps, type StatusError, type LoadedStatus } from './status/load-status.js';
export { renderInitFiles, type InitFile, type InitLabel, type InitValues, INIT_LABELS } from './init/init-files.js';
