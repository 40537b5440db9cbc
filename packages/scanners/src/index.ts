/**
 * @heartbeat-kit/scanners — pinned parsers of real bd, tmux, git and GChat output, and the
 * Scanner implementations of spec 000's scan targets. Pure: commands run through the
 * `CommandRunner` port; the execa adapter is `@heartbeat-kit/scanners/execa`.
 * @module @heartbeat-kit/scanners
 */
export * from './beads/bead.js';
export * from './beads/parse-bd-json.js';
export * from './beads/parse-bd-text.js';
export * from './beads/beads-source.js';
export * from './beads/beads-scanner.js';
export * from './tmux/parse-list-sessions.js';
export * from './tmux/normalise-pane.js';
export * from './tmux/tmux-client.js';
export * from './tmux/orchestrators-scanner.js';
export * from './tmux/idle-orchestrators-scanner.js';
export * from './git/parse-worktrees.js';
export * from './git/parse-status.js';
export * from './git/parse-log.js';
export * from './git/git-client.js';
export * from './git/worktree-source.js';
export * from './git/git-scanner.js';
export * from './git/stale-tasks-scanner.js';
export * from './gchat/parse-gchat-poll.js';
export * from './gchat/gchat-scanner.js';
export * from './scanner-support.js';
export type * from './file-exists.js';
export * from './default-scanners.js';
// --- pipelines (scan target 7) ---
export * from './pipelines/index.js';
