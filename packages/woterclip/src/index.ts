/**
 * @heartbeat-kit/woterclip — the WoterClip GitHub-issue beat loop (spec 002) over the
 * IssueTracker, Dispatcher, BeatLog and core LockStore ports. Pure: the gh adapter lives in
 * `./github`, file and process adapters in `./node`, fakes in `./testing`.
 * @module @heartbeat-kit/woterclip
 */
export type * from './ports/index.js';
export * from './config/woterclip-config.js';
export * from './beat/quiet-hours.js';
export * from './beat/stop-reasons.js';
export * from './beat/next-step.js';
export * from './beat/run-beat.js';
export * from './lock/woterclip-lock-codec.js';
export * from './inbox/inbox.js';
export * from './log/log-lines.js';
export * from './report/comments.js';
export * from './dispatch/outcome.js';
export * from './dispatch/prompt.js';
export * from './dispatch/command-dispatcher.js';
export * from './subissues/sub-issues.js';
export * from './status/status-view.js';
export * from './init/init-files.js';
