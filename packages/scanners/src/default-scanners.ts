import type { CommandRunner, Scanner } from '@heartbeat-kit/core';
import type { OutputSpool, ReplyInbox } from '@heartbeat-kit/core/host';
import type { Bead } from './beads/bead.js';
import { createBeadsScanner } from './beads/beads-scanner.js';
import { createBeadsSource } from './beads/beads-source.js';
import type { FileExists } from './file-exists.js';
import { createGChatScanner } from './gchat/gchat-scanner.js';
import { createGitScanner } from './git/git-scanner.js';
import { createStaleTasksScanner } from './git/stale-tasks-scanner.js';
import { createIdleOrchestratorsScanner } from './tmux/idle-orchestrators-scanner.js';
import { createOrchestratorsScanner } from './tmux/orchestrators-scanner.js';
import { createTmuxSessionsSource } from './tmux/tmux-client.js';
import { createWorktreeSource } from './git/worktree-source.js';
import { createPipelineScanner, type PipelineFiles } from './pipelines/pipeline-scanner.js';
import { readPipelineOwners } from './pipelines/pipeline-owners.js';

/** Dependencies of {@link createDefaultScanners}. */
export interface DefaultScannersDeps {
  readonly runner: CommandRunner;
  /** Project directory: bd workspace, git repository and `.claude/` live here. */
  readonly cwd: string;
  readonly fileExists: FileExists;
  /** tmux socket selection, e.g. `['-L', 'work']`; default the user's server. */
  readonly tmuxArgs?: readonly string[];
  /** Branch of a bead when no worktree branch names its id. */
  readonly branchForBead?: (bead: Bead) => string | undefined;
  /** Executables, for installs off PATH. */
  readonly bdFile?: string;
  readonly tmuxFile?: string;
  readonly gitFile?: string;
  readonly python?: string;
  /** Where the GChat scanner makes each reply durable before anything else (`createFileReplyInbox` beside the state file). */
  readonly replyInbox?: ReplyInbox;
  /** With `replyInbox`: where the GChat poll's stdout is spooled so a SIGKILLed cycle cannot lose it. */
  readonly replySpool?: OutputSpool;
  /** Paths the git scanner never counts as uncommitted work (the heartbeat's own files). */
  readonly ignorePaths?: readonly string[];
  /** Path prefixes of the heartbeat's own files in a directory shared with the user's (see the git scanner). */
  readonly ignorePrefixes?: readonly string[];
  /** The config file the heartbeat reads: never an uncommitted change of the worktree it sits in (see the git scanner). */
  readonly configFile?: string;
  /** File access of the pipeline scanner (`createNodePipelineFiles` from `./node`); without it there is no pipeline scanner. */
  readonly pipelineFiles?: PipelineFiles;
}

/**
 * The built-in scanners in the original heartbeat's scan-target order (beads first; spec 000). The bd, tmux and git listings are shared,
 * so a cycle runs `bd list --status=in_progress`, `tmux list-sessions` and `git worktree list` once
 * each, however many scanners read them.
 *
 * @example
 * ```ts
 * import { createDefaultScanners } from '@heartbeat-kit/scanners';
 * import { createProcessRunner } from '@heartbeat-kit/core/node';
 * import { nodeFileExists } from '@heartbeat-kit/scanners/node';
 *
 * // The first six scan targets (beads to GChat), in order, over real bd, tmux, git and the GChat script;
 * // the seventh, createPipelineScanner, reads DOT files and is added by the caller.
 * const scanners = createDefaultScanners({ runner: createProcessRunner(), cwd: process.cwd(), fileExists: nodeFileExists, tmuxArgs: ['-L', 'work'] });
 * console.log(scanners.map((s) => s.name)); // ['beads', 'orchestrators', 'git', 'stale-tasks', 'idle-orchestrators', 'gchat']
 * ```
 */
export function createDefaultScanners(deps: DefaultScannersDeps): readonly Scanner[] {
  const { runner, cwd } = deps;
  const beads = createBeadsSource({ runner, cwd, ...(deps.bdFile === undefined ? {} : { bdFile: deps.bdFile }) });
  const tmux = {
    runner,
    ...(deps.tmuxArgs === undefined ? {} : { tmuxArgs: deps.tmuxArgs }),
    ...(deps.tmuxFile === undefined ? {} : { tmuxFile: deps.tmuxFile }),
  };
  const sessions = createTmuxSessionsSource(tmux);
  const gitDeps = { runner, cwd, ...(deps.gitFile === undefined ? {} : { gitFile: deps.gitFile }) };
  const git = { ...gitDeps, worktrees: createWorktreeSource(gitDeps) };
  return [
    createBeadsScanner({ source: beads }),
    createOrchestratorsScanner({
      ...tmux,
      beads,
      sessions,
      ...(deps.pipelineFiles === undefined
        ? {}
        : { pipelineOwners: (now: Date) => readPipelineOwners(cwd, deps.pipelineFiles as PipelineFiles, now) }),
    }),
    createGitScanner({
      ...git,
      ...(deps.ignorePaths === undefined ? {} : { ignorePaths: deps.ignorePaths }),
      ...(deps.ignorePrefixes === undefined ? {} : { ignorePrefixes: deps.ignorePrefixes }),
      ...(deps.configFile === undefined ? {} : { configFile: deps.configFile }),
    }),
    createStaleTasksScanner({ ...git, beads, ...(deps.branchForBead === undefined ? {} : { branchForBead: deps.branchForBead }) }),
    createIdleOrchestratorsScanner({ ...tmux, sessions }),
    createGChatScanner({
      runner,
      cwd,
      fileExists: deps.fileExists,
      ...(deps.python === undefined ? {} : { python: deps.python }),
      ...(deps.replyInbox === undefined ? {} : { inbox: deps.replyInbox }),
      ...(deps.replySpool === undefined ? {} : { spool: deps.replySpool }),
    }),
    ...(deps.pipelineFiles === undefined ? [] : [createPipelineScanner({ cwd, files: deps.pipelineFiles, runner })]),
  ];
}
