import { ok } from 'neverthrow';
import { type Finding, sanitizeForMessage, type Scanner, scanOk, type ScanWarning } from '@heartbeat-kit/core';
import { readConfigSection } from '@heartbeat-kit/core/host';
import { failed, formatAge, guardScan, mapConcurrent, PER_SCANNER_CONCURRENCY, skipped, type DurationMeter } from '../scanner-support.js';
import {
  commitEpochs,
  describeGitError,
  excludePathspec,
  lastCommitEpoch,
  worktreeStatus,
  worktreeStatuses,
  type GitDeps,
} from './git-client.js';
import type { StatusEntry } from './parse-status.js';
import { scannableWorktrees, type Worktree } from './parse-worktrees.js';
import { createWorktreeSource, type WorktreeSource } from './worktree-source.js';
import { createCoBuilderFinding } from '../categories/cobuilder-categories.js';
import { GIT_CONFIG } from './git-config.js';

/** Dependencies of {@link createGitScanner}. */
export interface GitScannerDeps extends GitDeps {
  /** Any path inside the repository (its worktrees are listed from here). */
  readonly cwd: string;
  /** The cycle's shared worktree listing (default: one of its own). */
  readonly worktrees?: WorktreeSource;
  /**
   * Absolute paths whose changes are not the user's work (the heartbeat's own state when a user
   * keeps it in a worktree, an older version's `.heartbeat/`): never counted for GIT_STALE.
   */
  readonly ignorePaths?: readonly string[];
  /**
   * Absolute path prefixes (not directory boundaries) of files that are the heartbeat's own, for a
   * state kept in a directory shared with the user's files: `/repo/hb.` covers `/repo/hb.json`,
   * `/repo/hb.receipts/`, `/repo/hb.json.corrupt-…`, but not `/repo/notes.md`.
   */
  readonly ignorePrefixes?: readonly string[];
  /**
   * The config file the heartbeat reads (absolute). Its path relative to the worktree it sits in
   * is never counted as a change, in that worktree or any other: the heartbeat's own config is
   * not the user's work (`init` writes it untracked).
   */
  readonly configFile?: string;
}

/**
 * The path of `file` relative to the worktree among `worktrees` that holds it (the deepest), or
 * undefined when none does or the path could not be a plain relative path (control characters).
 */
export function configPathInWorktree(file: string, worktrees: readonly string[]): string | undefined {
  const holders = worktrees
    .map((w) => w.replace(/\/+$/, ''))
    .filter((w) => w !== '' && file.startsWith(`${w}/`))
    .sort((a, b) => b.length - a.length);
  const holder = holders[0];
  if (holder === undefined) return undefined;
  const rel = file.slice(holder.length + 1);
  const parts = rel.split('/');
  // Only a plain path: no empty, `.` or `..` step, nothing a pathspec or a terminal would read otherwise.
  if (parts.some((p) => p === '' || p === '.' || p === '..')) return undefined;
  if ([...rel].some((c) => c < ' ' || c === '\u007f')) return undefined;
  return rel;
}

/**
 * True when `worktree/entry` is one of `ignored` or inside it (`git status` lists an untracked dir as
 * `dir/`), or starts with one of `prefixes`.
 */
export function isIgnoredChange(worktree: string, entry: string, ignored: readonly string[], prefixes: readonly string[] = []): boolean {
  const path = `${worktree.replace(/\/+$/, '')}/${entry.replace(/\/+$/, '')}`;
  return (
    ignored.some((dir) => {
      const d = dir.replace(/\/+$/, '');
      return path === d || path.startsWith(`${d}/`);
    }) || prefixes.some((prefix) => path.startsWith(prefix))
  );
}

/** What the git scanner learnt about one worktree. */
export interface WorktreeState {
  readonly path: string;
  readonly branch: string | undefined;
  /** Number of `git status --porcelain` entries. */
  readonly changes: number;
  /** Committer time of HEAD (epoch seconds); undefined when the branch has no commit. */
  readonly lastCommitEpoch: number | undefined;
}

/**
 * GIT_STALE decision (pure): dirty and the last commit older than `staleMs`. A worktree without
 * a commit has no age and is never stale.
 */
export function isGitStale(state: WorktreeState, nowMs: number, staleMs: number): boolean {
  return state.changes > 0 && state.lastCommitEpoch !== undefined && nowMs - state.lastCommitEpoch * 1000 > staleMs;
}

/** The GIT_STALE finding of one worktree (subject = its path). */
export function gitStaleFinding(state: WorktreeState, nowMs: number): Finding {
  const path = sanitizeForMessage(state.path, { maxLength: 160 });
  const age = formatAge(nowMs - (state.lastCommitEpoch ?? 0) * 1000);
  const base =
    state.path
      .split('/')
      .filter((p) => p !== '')
      .at(-1) ?? state.path;
  return createCoBuilderFinding({
    category: 'GIT_STALE',
    subject: state.path,
    line: `STALE: ${path} (${state.changes} uncommitted change${state.changes === 1 ? '' : 's'}, last commit ${age} ago)`,
    action: `Commit or stash the changes in ${path}`,
    short: `${sanitizeForMessage(base, { maxLength: 60 })} has stale changes`,
    details: {
      path: state.path,
      changes: state.changes,
      ...(state.branch === undefined ? {} : { branch: state.branch }),
      ...(state.lastCommitEpoch === undefined ? {} : { lastCommitEpoch: state.lastCommitEpoch }),
    },
    // The number of changed files moves while someone edits (that is not news); another branch
    // or last commit is. The age in the line grows by itself and is left out.
    content: {
      ...(state.branch === undefined ? {} : { branch: state.branch }),
      ...(state.lastCommitEpoch === undefined ? {} : { lastCommitEpoch: state.lastCommitEpoch }),
    },
  });
}

const NAME = 'git';

/** One worktree's `git status`: its count of changes that are not ignored, or why it could not be read. */
type WorktreeChanges = { readonly worktree: Worktree; readonly warning?: ScanWarning; readonly changes?: number };

/** The changes of every worktree: the batch's answer where it has one, else one `git status` each. */
function worktreeChanges(
  deps: GitScannerDeps,
  scannable: readonly Worktree[],
  batched: readonly (readonly StatusEntry[] | undefined)[],
  signal: AbortSignal,
  meter: DurationMeter,
  pathspec: readonly string[],
): Promise<readonly WorktreeChanges[]> {
  return mapConcurrent(
    scannable.map((worktree, i) => ({ worktree, answer: batched[i] })),
    PER_SCANNER_CONCURRENCY,
    async ({ worktree, answer }): Promise<WorktreeChanges> => {
      const status = answer === undefined ? await worktreeStatus(deps, worktree.path, signal, meter, pathspec) : ok(answer);
      if (status.isErr())
        return {
          worktree,
          warning: {
            code: 'GIT_STATUS_FAILED',
            message: `${sanitizeForMessage(worktree.path, { maxLength: 160 })}: ${describeGitError(status.error)}`,
          },
        };
      return {
        worktree,
        changes: status.value.filter(
          (entry) => !isIgnoredChange(worktree.path, entry.path, deps.ignorePaths ?? [], deps.ignorePrefixes ?? []),
        ).length,
      };
    },
  );
}

/**
 * Scan target 3: every worktree (the main one included; bare and prunable ones skipped) with
 * uncommitted changes whose last commit is older than `gitStaleMs` (its config section, `GIT_CONFIG`) → GIT_STALE.
 *
 * @example
 * ```ts
 * import { createGitScanner } from '@heartbeat-kit/scanners';
 * import { createProcessRunner } from '@heartbeat-kit/core/node';
 *
 * // GIT_STALE: a worktree with uncommitted changes and a last commit older than gitStaleMs (1 h).
 * const scanner = createGitScanner({ runner: createProcessRunner(), cwd: process.cwd() });
 * ```
 */
export function createGitScanner(deps: GitScannerDeps): Scanner {
  const source = deps.worktrees ?? createWorktreeSource(deps);
  return {
    name: NAME,
    runsOutsideActiveHours: false,
    scan: (ctx) => {
      const meter: DurationMeter = { ms: 0 };
      return guardScan(NAME, meter, async () => {
        const listed = await source.list(ctx.now, ctx.signal, meter);
        if (listed.isErr()) {
          const e = listed.error;
          if (e.kind === 'tool-missing') return skipped(NAME, e.message, meter);
          if (e.kind === 'not-a-repo')
            return skipped(NAME, `not a git repository: ${sanitizeForMessage(deps.cwd, { maxLength: 160 })}`, meter);
          return failed(NAME, `git worktree list: ${describeGitError(e)}`, meter);
        }
        const findings: Finding[] = [];
        const warnings: ScanWarning[] = [];
        const nowMs = ctx.now.getTime();
        const scannable = scannableWorktrees(listed.value);
        const config =
          deps.configFile === undefined
            ? undefined
            : configPathInWorktree(
                deps.configFile,
                listed.value.map((w) => w.path),
              );
        const pathspec = excludePathspec(config === undefined ? [] : [config]);
        // Most worktrees are answered by a few batched processes; the rest one call each.
        const batched = await worktreeStatuses(
          deps,
          deps.cwd,
          scannable.map((w) => w.path),
          ctx.signal,
          meter,
          pathspec,
        );
        const statuses = await worktreeChanges(deps, scannable, batched, ctx.signal, meter, pathspec);
        // Only dirty worktrees need an age: one `git log --no-walk` for all their HEADs.
        const dirty = statuses.filter((s) => s.changes !== undefined && s.changes > 0);
        const heads = dirty.flatMap((s) => (s.worktree.unborn || s.worktree.head === undefined ? [] : [s.worktree.head]));
        const epochs = (await commitEpochs(deps, deps.cwd, heads, ctx.signal, meter)).unwrapOr(new Map<string, number>());
        type Checked = { readonly warning?: ScanWarning; readonly state?: WorktreeState };
        const checked = await mapConcurrent(statuses, PER_SCANNER_CONCURRENCY, async ({ worktree, warning, changes }): Promise<Checked> => {
          if (warning !== undefined) return { warning };
          if (changes === undefined || changes === 0) return {};
          let epoch: number | undefined;
          if (!worktree.unborn) {
            epoch = worktree.head === undefined ? undefined : epochs.get(worktree.head);
            if (epoch === undefined) {
              // Not answered by the batch (no HEAD id, or the batch failed): ask this worktree alone.
              const last = await lastCommitEpoch(deps, worktree.path, ctx.signal, meter);
              if (last.isErr())
                return {
                  warning: {
                    code: 'GIT_LOG_FAILED',
                    message: `${sanitizeForMessage(worktree.path, { maxLength: 160 })}: ${describeGitError(last.error)}`,
                  },
                };
              epoch = last.value;
            }
          }
          return { state: { path: worktree.path, branch: worktree.branch, changes, lastCommitEpoch: epoch } };
        });
        const { gitStaleMs } = readConfigSection(GIT_CONFIG, ctx.config);
        for (const { warning, state } of checked) {
          if (warning) warnings.push(warning);
          if (state && isGitStale(state, nowMs, gitStaleMs)) findings.push(gitStaleFinding(state, nowMs));
        }
        return scanOk(NAME, { findings, warnings, durationMs: meter.ms });
      });
    },
  };
}
