import { err, ok, type Result } from 'neverthrow';
import { type CommandOutput, type CommandRunner, sanitizeForMessage } from '@heartbeat-kit/core';
import { firstStderrLine, mapConcurrent, runTool, type DurationMeter } from '../scanner-support.js';
import { classifyGitFailure, interpretCommitCount, interpretLastCommitEpoch, type GitFailure } from './parse-log.js';
import { parseWorktreeList, type Worktree } from './parse-worktrees.js';
import { parseStatusBlocksZ, parseStatusPorcelainZ, type StatusEntry } from './parse-status.js';

/** How the scanners reach git. */
export interface GitDeps {
  readonly runner: CommandRunner;
  /** The git executable (default `git`). */
  readonly gitFile?: string;
}

/** Why a git call gave nothing usable. */
export type GitClientError =
  GitFailure | { readonly kind: 'tool-missing'; readonly message: string } | { readonly kind: 'run-failed'; readonly message: string };

// Read-only scans must not refresh the index (and take index.lock) under a running agent.
const GIT_ENV = { GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0' } as const;

async function git(
  deps: GitDeps,
  repo: string,
  args: readonly string[],
  signal: AbortSignal,
  meter: DurationMeter,
  options: { readonly input?: string; readonly speculative?: boolean } = {},
): Promise<Result<CommandOutput, GitClientError>> {
  const request = {
    file: deps.gitFile ?? 'git',
    args: ['-C', repo, '--no-optional-locks', ...args],
    env: GIT_ENV,
    profile: 'git' as const,
    ...(options.input === undefined ? {} : { input: options.input }),
    ...(options.speculative === true ? { speculative: true } : {}),
  };
  const outcome = await runTool(deps.runner, request, signal, meter);
  if (outcome.kind === 'missing') return err({ kind: 'tool-missing', message: outcome.reason });
  if (outcome.kind === 'failed') return err({ kind: 'run-failed', message: outcome.reason });
  return ok(outcome.output);
}

/** `git worktree list --porcelain -z` in `repo`. */
export async function listWorktrees(
  deps: GitDeps,
  repo: string,
  signal: AbortSignal,
  meter: DurationMeter,
): Promise<Result<readonly Worktree[], GitClientError>> {
  // The git scanners' first call, needing nothing else: a cycle may start it before they ask.
  const out = await git(deps, repo, ['worktree', 'list', '--porcelain', '-z'], signal, meter, { speculative: true });
  return out.andThen((o) => (o.exitCode === 0 ? parseWorktreeList(o.stdout) : err(classifyGitFailure(o))));
}

/** `git status --porcelain=v1 -z` of one worktree, limited by `pathspec` (see {@link excludePathspec}). */
export async function worktreeStatus(
  deps: GitDeps,
  path: string,
  signal: AbortSignal,
  meter: DurationMeter,
  pathspec: readonly string[] = [],
): Promise<Result<readonly StatusEntry[], GitClientError>> {
  const out = await git(deps, path, ['status', '--porcelain=v1', '-z', ...pathspec], signal, meter);
  return out.andThen((o) => (o.exitCode === 0 ? parseStatusPorcelainZ(o.stdout) : err(classifyGitFailure(o))));
}

/**
 * The pathspec that leaves the worktree-relative `paths` out of `git status` (none: empty). git
 * then also stops listing an untracked directory that holds nothing else (`?? .claude/` for a
 * fresh `.claude/HEARTBEAT.md`), which no filter of its output could tell apart. `literal`: a
 * name with `*` or `?` is that name, not a pattern.
 */
export function excludePathspec(paths: readonly string[]): readonly string[] {
  return paths.length === 0 ? [] : ['--', '.', ...paths.map((p) => `:(exclude,literal)${p}`)];
}

// Command-line config key under which `git for-each-repo` gets the worktrees of one batch.
const BATCH_KEY = 'heartbeatkit.worktree';
/** Batches run side by side, like the four `git status` at a time of `xargs -P 4`. */
const STATUS_BATCHES = 4;
// A batch runs its statuses one after the other under one command timeout: keep it short.
const STATUS_BATCH_MAX = 32;
// git hands `-c` values on to its children in one environment variable, which Linux caps at 128 KiB.
const STATUS_BATCH_BYTES = 32 * 1024;

function statusBatches(paths: readonly string[]): (readonly number[])[] {
  // Only absolute paths without control characters: for-each-repo expands `~` and `%(prefix)/`.
  const plain = (path: string) => path.startsWith('/') && [...path].every((c) => c >= ' ' && c !== '\u007f');
  const batchable = paths.flatMap((path, i) => (plain(path) ? [i] : []));
  const size = Math.min(STATUS_BATCH_MAX, Math.ceil(batchable.length / STATUS_BATCHES));
  const batches: number[][] = [];
  let bytes = 0;
  for (const i of batchable) {
    const last = batches.at(-1);
    const length = paths[i]!.length + BATCH_KEY.length + 8;
    if (last === undefined || last.length >= size || bytes + length > STATUS_BATCH_BYTES) {
      batches.push([i]);
      bytes = length;
    } else {
      last.push(i);
      bytes += length;
    }
  }
  return batches.filter((b) => b.length > 1);
}

/**
 * `git status --porcelain=v1 -z` of many worktrees from a few `git for-each-repo` processes
 * instead of one process each: git has no status of several worktrees, but for-each-repo runs
 * `git -C <path> status` for each path of a config key, one after the other, from a small git
 * process (the key is set with `-c`, never written to a file), each with `--git-dir=.git
 * --work-tree=.` so none inherits the repository of the worktree the batch runs from. `--branch` opens each
 * worktree's output with a `## …` field, so the output splits into one block per path, in
 * order. for-each-repo stops at the first failing worktree: the blocks before the last one
 * printed are still whole, and the rest are left to the caller. One element per path: its
 * entries, or `undefined` where the batch did not answer (ask that worktree alone).
 */
export async function worktreeStatuses(
  deps: GitDeps,
  repo: string,
  paths: readonly string[],
  signal: AbortSignal,
  meter: DurationMeter,
  pathspec: readonly string[] = [],
): Promise<readonly (readonly StatusEntry[] | undefined)[]> {
  const answers: (readonly StatusEntry[] | undefined)[] = paths.map(() => undefined);
  await mapConcurrent(statusBatches(paths), STATUS_BATCHES, async (batch) => {
    const args = [
      ...batch.flatMap((i) => ['-c', `${BATCH_KEY}=${paths[i]!}`]),
      'for-each-repo',
      `--config=${BATCH_KEY}`,
      // Each worktree's own repository, named outright: run from a linked worktree (a `.git` file),
      // git exports that worktree's GIT_DIR to for-each-repo's children, and every other worktree's
      // files were compared with its index (a clean worktree read as hundreds of deletions).
      '--',
      '--git-dir=.git',
      '--work-tree=.',
      'status',
      '--porcelain=v1',
      '-z',
      '--branch',
      ...pathspec,
    ];
    const out = await deps.runner.run(
      { file: deps.gitFile ?? 'git', args: ['-C', repo, '--no-optional-locks', ...args], env: GIT_ENV, profile: 'git' },
      signal,
    );
    // A batch that ran out of time (its statuses run one after the other under one timeout)
    // still printed whole blocks for the worktrees before the one it was on.
    if (out.isErr() && out.error.kind === 'timeout') meter.ms += out.error.timeoutMs;
    else if (out.isOk()) meter.ms += out.value.durationMs;
    const printed = out.isOk() ? out.value : out.error.kind === 'timeout' ? { exitCode: -1, stdout: out.error.stdout } : undefined;
    if (printed === undefined) return;
    const blocks = parseStatusBlocksZ(printed.stdout);
    if (blocks.isErr() || blocks.value.length > batch.length) return;
    const complete = printed.exitCode === 0 && blocks.value.length === batch.length ? blocks.value.length : blocks.value.length - 1;
    for (let k = 0; k < complete; k++) answers[batch[k]!] = blocks.value[k];
  });
  return answers;
}

/** Committer epoch of HEAD in a worktree; `undefined` when it has no commits. */
export async function lastCommitEpoch(
  deps: GitDeps,
  path: string,
  signal: AbortSignal,
  meter: DurationMeter,
): Promise<Result<number | undefined, GitClientError>> {
  const out = await git(deps, path, ['log', '-1', '--format=%ct'], signal, meter);
  return out.andThen(interpretLastCommitEpoch);
}

/** Commits on `refs/heads/<branch>` since `sinceEpoch` (seconds); the branch is an outside value, so it follows `--end-of-options`. */
export async function commitsSince(
  deps: GitDeps,
  repo: string,
  branch: string,
  sinceEpoch: number,
  signal: AbortSignal,
  meter: DurationMeter,
): Promise<Result<number, GitClientError>> {
  const out = await git(
    deps,
    repo,
    ['log', `--since=@${Math.floor(sinceEpoch)}`, '--format=%H', '--end-of-options', `refs/heads/${branch}`, '--'],
    signal,
    meter,
  );
  return out.andThen(interpretCommitCount);
}

const OID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * Committer epochs (seconds) of many commits in one `git log --no-walk --stdin` call, by commit
 * id: the worktree list already names every worktree's HEAD, so one process answers what a
 * `git log -1` per worktree did. Ids git could not read are missing from the map.
 */
export async function commitEpochs(
  deps: GitDeps,
  repo: string,
  oids: readonly string[],
  signal: AbortSignal,
  meter: DurationMeter,
): Promise<Result<ReadonlyMap<string, number>, GitClientError>> {
  const wanted = [...new Set(oids)].filter((oid) => OID.test(oid));
  if (wanted.length === 0) return ok(new Map());
  const out = await git(deps, repo, ['log', '--no-walk=unsorted', '--format=%H %ct', '--stdin'], signal, meter, {
    input: `${wanted.join('\n')}\n`,
  });
  return out.andThen((o) => {
    if (o.exitCode !== 0) return err(classifyGitFailure(o));
    const epochs = new Map<string, number>();
    for (const line of o.stdout.split('\n')) {
      const match = /^([0-9a-f]+) (\d+)$/.exec(line);
      if (match) epochs.set(match[1]!, Number(match[2]));
    }
    return ok(epochs);
  });
}

/**
 * Committer epoch (seconds) of every local branch tip by short name, from one
 * `git for-each-ref`. `git log --since=@T refs/heads/B` lists nothing exactly when B's tip is
 * older than T (git stops walking at the first commit older than `--since`), so this one call
 * answers the stale-task question for every branch. Branches whose tip is not a commit are left out.
 */
export async function branchTipEpochs(
  deps: GitDeps,
  repo: string,
  signal: AbortSignal,
  meter: DurationMeter,
): Promise<Result<ReadonlyMap<string, number>, GitClientError>> {
  // Ref names cannot hold control characters, so a tab and a newline delimit safely.
  const out = await git(deps, repo, ['for-each-ref', '--format=%(committerdate:unix)%09%(refname)', 'refs/heads/'], signal, meter);
  return out.andThen((o) => {
    if (o.exitCode !== 0) return err(classifyGitFailure(o));
    const tips = new Map<string, number>();
    for (const line of o.stdout.split('\n')) {
      const tab = line.indexOf('\t');
      const epoch = line.slice(0, tab);
      const ref = line.slice(tab + 1);
      if (tab > 0 && /^\d+$/.test(epoch) && ref.startsWith('refs/heads/')) tips.set(ref.slice('refs/heads/'.length), Number(epoch));
    }
    return ok(tips);
  });
}

/** One sanitised line for a git failure (stderr and parse errors can quote hostile paths). */
export function describeGitError(error: GitClientError): string {
  switch (error.kind) {
    case 'tool-missing':
    case 'run-failed':
    case 'malformed-output':
      return sanitizeForMessage(error.message, { maxLength: 200 });
    case 'not-a-repo':
      return 'not a git repository';
    case 'unborn':
      return 'no commits yet';
    case 'unknown-revision':
      return 'unknown revision';
    case 'git-failed':
      return `git exited ${error.exitCode}: ${firstStderrLine(error.stderr)}`;
  }
}
