import type { Result } from 'neverthrow';
import { oncePerCycle, type DurationMeter } from '../scanner-support.js';
import { listWorktrees, type GitClientError, type GitDeps } from './git-client.js';
import type { Worktree } from './parse-worktrees.js';

/** Lists a repository's worktrees, once per cycle for every scanner that needs them. */
export interface WorktreeSource {
  /**
   * `git worktree list --porcelain -z`; calls with the same `cycle` (the cycle's `now`, the very
   * object every scanner of one cycle receives) share one run.
   */
  readonly list: (cycle: Date, signal: AbortSignal, meter: DurationMeter) => Promise<Result<readonly Worktree[], GitClientError>>;
}

/**
 * Creates a {@link WorktreeSource} for `cwd`. The git and stale-task scanners both need the list;
 * sharing it saves a git process per cycle. Keyed by the `now` object, not its time, so two
 * cycles that happen to share a timestamp (replays, fixed clocks) never share a listing.
 */
export function createWorktreeSource(deps: GitDeps & { readonly cwd: string }): WorktreeSource {
  return {
    list: oncePerCycle(
      (cycle) => cycle,
      (signal, meter) => listWorktrees(deps, deps.cwd, signal, meter),
    ),
  };
}
