import type { CommandError, CommandOutput, CommandRequest } from '@heartbeat-kit/core';
import type { ResultAsync } from 'neverthrow';

// The prefetch's types, apart from its implementation: `CliIo` carries a prefetch and the
// prefetch reads a part of `CliIo`, so the types live here to keep io.ts and cycle-prefetch.ts
// out of an import circle.

/**
 * Commands a one-shot `cycle` starts before its scanners ask for them, and what this cycle asked
 * for (the next cycle's plan). Node takes ≈ 200 ms to load the command on one core while the other
 * waits: `git rev-parse` and the listings the last cycle's scanners asked for first (bd ready,
 * bd list, tmux list-sessions, git worktree list; `CommandRequest.speculative`) run meanwhile.
 * The plan only names which of a closed set of listings to start (prefetch-requests.ts); each
 * request is built in code from this invocation's flags and the project its own `git rev-parse`
 * found. A run is handed to one request equal to it in every field, under the same environment
 * policy, so a scanner gets exactly the output it would have got; runs nobody claims are killed.
 */
export interface CyclePrefetch {
  /** The run started for exactly `request` under this environment policy, handed over once; else undefined. */
  readonly claim: (
    request: CommandRequest,
    envAllow: readonly string[] | undefined,
    signal?: AbortSignal,
  ) => ResultAsync<CommandOutput, CommandError> | undefined;
  /** Resolves once the plan was read: how many of its commands were started (0: none, or no plan). */
  readonly planned: Promise<number>;
  /**
   * Why the plan was ignored, for stderr and `--json`'s warnings: a plan this user did not write
   * alone (owner, mode, a link) or that is not exactly a plan. Complete once `planned` resolved.
   */
  readonly warnings: () => readonly string[];
  /** Notes a speculative request the cycle ran, for the next cycle's plan. */
  readonly record: (request: CommandRequest, envAllow: readonly string[] | undefined) => void;
  /** How many runs were started early so far, and how many of them a request took. */
  readonly stats: () => PrefetchStats;
  /** Kills the runs nobody claimed; the final {@link PrefetchStats}. */
  readonly discard: () => PrefetchStats;
  /**
   * Leaves the next cycle its plan: which listings this cycle asked for, valid until `validUntilMs`
   * (the cycle says when its active hours and closed breakers make a prefetch safe), or an empty
   * plan. A cache: a plan that cannot be written is not an error.
   */
  readonly savePlan: (facts: { readonly configFile: string; readonly validUntilMs: number | undefined }) => Promise<void>;
}

/** What a cycle's prefetch did: runs started before the cycle asked, and how many it took (`cycle --json`: `prefetch`). */
export interface PrefetchStats {
  readonly started: number;
  readonly claimed: number;
}
