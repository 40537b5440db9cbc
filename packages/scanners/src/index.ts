/**
 * @heartbeat-kit/scanners — pinned parsers of real bd, tmux, git and GChat output, and the
 * Scanner implementations of the original heartbeat's scan targets (beads, orchestrators, git, stale
 * tasks, idle orchestrators, GChat, pipelines; spec 000). Pure: commands run through the
 * `CommandRunner` port (its Node adapter is `createProcessRunner` in `@heartbeat-kit/core/node`); the
 * scanners' own file adapters are in `@heartbeat-kit/scanners/node`.
 * @module @heartbeat-kit/scanners
 */
export { isBeadId, isBeadPriority, type BeadPriority, type Bead, type BdParseError, BEAD_ID_PATTERN } from './beads/bead.js';
export { parseBdJson } from './beads/parse-bd-json.js';
export { parseBdText } from './beads/parse-bd-text.js';
export { createBeadsSource, type BeadsSourceError, type BeadsSource, type BeadsSourceDeps } from './beads/beads-source.js';
export { readyBeadFindings, createBeadsScanner, type BeadsScannerDeps } from './beads/beads-scanner.js';
export {
  parseTmuxSessions,
  isNoTmuxServer,
  interpretListSessions,
  type TmuxSession,
  type TmuxSessionField,
  TMUX_SESSION_FIELDS,
  TMUX_SESSION_FORMAT,
  type TmuxError,
} from './tmux/parse-list-sessions.js';
export { normalisePaneCapture, hashPaneCapture, PANE_TAIL_LINES } from './tmux/normalise-pane.js';
export { createTmuxSessionsSource, type TmuxDeps, type TmuxClientError, type TmuxSessionsSource } from './tmux/tmux-client.js';
export {
  ownerSessionsOf,
  tmuxDownFinding,
  createOrchestratorsScanner,
  type OrchestratorsScannerDeps,
  type OwnerSession,
  type OwnershipInput,
} from './tmux/orchestrators-scanner.js';
export { createIdleOrchestratorsScanner, type IdleOrchestratorsScannerDeps } from './tmux/idle-orchestrators-scanner.js';
export { parseWorktreeList, scannableWorktrees, type Worktree, type GitParseError } from './git/parse-worktrees.js';
export { parseStatusPorcelainZ, type StatusEntry } from './git/parse-status.js';
export { classifyGitFailure, interpretLastCommitEpoch, interpretCommitCount, type GitFailure } from './git/parse-log.js';
export type { GitDeps, GitClientError } from './git/git-client.js';
export { createWorktreeSource, type WorktreeSource } from './git/worktree-source.js';
export { isGitStale, createGitScanner, type GitScannerDeps, type WorktreeState } from './git/git-scanner.js';
export { createStaleTasksScanner, type StaleTasksScannerDeps } from './git/stale-tasks-scanner.js';
export { parseGChatPoll, type GChatReply, type GChatPoll, type GChatParseError } from './gchat/parse-gchat-poll.js';
export { createGChatScanner, type GChatScannerDeps, GCHAT_POLL_SCRIPT, GCHAT_NO_CREDENTIALS } from './gchat/gchat-scanner.js';
export type { DurationMeter } from './scanner-support.js';
export type { FileExists } from './file-exists.js';
export { createDefaultScanners, type DefaultScannersDeps } from './default-scanners.js';
export { BUILTIN_SCANNERS, type BuiltinScannerName } from './builtin-scanner-names.js';
export {
  BUILTIN_CONFIG_SECTIONS,
  BEADS_CONFIG,
  GCHAT_CONFIG,
  GIT_CONFIG,
  IDLE_ORCHESTRATORS_CONFIG,
  ORCHESTRATORS_CONFIG,
  PIPELINES_CONFIG,
  STALE_TASKS_CONFIG,
} from './builtin-config-sections.js';
export {
  COBUILDER_CATEGORIES,
  type CoBuilderCategory,
  CATEGORY_INFO,
  isCoBuilderCategory,
  DEFAULT_CATEGORIES,
} from './categories/cobuilder-categories.js';
// --- pipelines (scan target 7) ---
export {
  parseDot,
  type DotAttributes,
  type DotNode,
  type DotGraph,
  type DotParseError,
  type ParseDotOptions,
  DEFAULT_MAX_DOT_CHARS,
  dashboardNodeSchema,
  pipelineDashboardSchema,
  type DashboardNode,
  type PipelineDashboard,
  classifyDashboardNode,
  determinePipelineStage,
  type PipelineStage,
  computePromiseProgress,
  computeDashboard,
  type DashboardNodeClass,
  type StageInput,
  observePipeline,
  pipelineFindings,
  type PipelineObservation,
  createPipelineScanner,
  type PipelineFiles,
  type PipelineFileError,
  type PipelineScannerOptions,
  PIPELINE_WARNING_CODES,
  PIPELINE_DIR,
  readPipelineOwners,
  type PipelineBeadNode,
  type PipelineOwners,
} from './pipelines/index.js';
// --- checks (HEARTBEAT.md `## Checks`) ---
export {
  commandScanner,
  runCheck,
  checkArgv,
  CHECK_SLICE,
  DEFAULT_CHECK_OUTPUT_BYTES,
  type CommandScannerSpec,
  type CheckSlice,
  type CheckRun,
} from './checks/command-scanner.js';
export { CHECK_NOT_APPLICABLE } from './checks/check-run-problems.js';
export { type UnconfirmedCheckFinding } from './checks/check-findings.js';
export {
  parseCheckOutput,
  checkFindingLineSchema,
  MAX_CHECK_LINE_BYTES,
  MAX_CHECK_FINDINGS,
  type CheckOutput,
  type CheckFindingLine,
} from './checks/parse-check-output.js';
