import { statSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { ResultAsync, errAsync, okAsync } from 'neverthrow';
import { buildChildEnv, inferToolProfile } from '../command/child-environment.js';
import type { CommandError, CommandOutput, CommandRequest, CommandRunner, ToolProfile } from '../ports/command-runner.js';

/** The runner's default cap on a command's stdout and on its stderr, each; a spooled output is read up to it too. */
export const DEFAULT_MAX_OUTPUT_BYTES = 4 * 1024 * 1024;

/** Options of {@link createProcessRunner}. */
export interface ProcessRunnerOptions {
  /** Default per-command timeout (10 s). */
  readonly timeoutMs?: number;
  /** Default cap on stdout and on stderr, each (4 MiB). */
  readonly maxOutputBytes?: number;
  /** The user's environment the policy starts from; `process.env` by default. */
  readonly baseEnv?: Readonly<Record<string, string | undefined>>;
  /** Hardened mode: only the essential variables and these names (or `PREFIX*`) reach children. */
  readonly envAllow?: readonly string[] | undefined;
  /** Profile of requests that name none; absent = guessed from the executable's name. */
  readonly profile?: ToolProfile;
  /** Between SIGTERM and SIGKILL to a timed-out or aborted process group (2 s). */
  readonly killGraceMs?: number;
  /** When it aborts (the CLI's SIGINT/SIGTERM), every running group is killed and new calls fail as `aborted`. */
  readonly shutdownSignal?: AbortSignal;
}

// Groups still running, killed with SIGKILL if this process exits before they finish: a detached
// group no longer receives the terminal's Ctrl-C, so nobody else would end it.
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the whole group is gone already.
  }
}

/**
 * Sends SIGKILL to every process group a runner of this process started that has not ended yet.
 * An ordinary exit does this by itself (an 'exit' hook); call it before an exit that skips the
 * hooks, such as re-raising a signal with its default action. Returns how many groups it signalled.
 */
export function killRunningProcessGroups(): number {
  for (const group of liveGroups) killGroup(group, 'SIGKILL');
  return liveGroups.size;
}

function trackGroup(pid: number): void {
  liveGroups.add(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    killRunningProcessGroups();
  });
}

// Abort listeners, one per distinct signal however many commands wait on it: fifty `git status`
// calls of one scanner share its signal, and a listener each would trip Node's
// MaxListenersExceededWarning (a stray stack trace on the user's stderr) past ten.
const abortWaiters = new WeakMap<AbortSignal, Set<() => void>>();

function onAbort(signal: AbortSignal, callback: () => void): () => void {
  let waiters = abortWaiters.get(signal);
  if (waiters === undefined) {
    const set = new Set<() => void>();
    waiters = set;
    abortWaiters.set(signal, set);
    signal.addEventListener(
      'abort',
      () => {
        for (const waiter of [...set]) waiter();
        set.clear();
      },
      { once: true },
    );
  }
  waiters.add(callback);
  return () => void waiters.delete(callback);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

interface Outcome {
  readonly exitCode?: number | undefined;
  readonly signal?: string | undefined;
  readonly isMaxBuffer?: boolean;
  readonly code?: string | undefined;
  readonly stdout?: string;
  readonly stderr?: string;
}

/** Why the runner itself stopped a command, if it did. */
type StopReason = 'timeout' | 'aborted' | undefined;

function classify(
  request: CommandRequest,
  outcome: Outcome,
  stopped: StopReason,
  limits: { timeoutMs: number; maxOutputBytes: number },
  durationMs: number,
): CommandOutput | CommandError {
  const file = request.file;
  if (stopped === 'aborted') return { kind: 'aborted', file };
  if (stopped === 'timeout')
    return { kind: 'timeout', file, timeoutMs: limits.timeoutMs, stdout: outcome.stdout ?? '', stderr: outcome.stderr ?? '' };
  switch (outcome.code) {
    case 'ENOENT':
      if (request.cwd !== undefined && !isDirectory(request.cwd)) return { kind: 'bad-cwd', file, cwd: request.cwd };
      return { kind: 'not-found', file, message: `${file}: not found (spawn ENOENT)` };
    case 'ENOTDIR':
      return request.cwd !== undefined && !isDirectory(request.cwd)
        ? { kind: 'bad-cwd', file, cwd: request.cwd }
        : { kind: 'not-found', file, message: `${file}: not found (spawn ENOTDIR)` };
    case 'EACCES':
    case 'EISDIR':
    case 'ENOEXEC':
    case 'EPERM':
      return { kind: 'not-executable', file, message: `${file}: cannot execute (spawn ${outcome.code})` };
    case undefined:
    default:
      break;
  }
  if (outcome.isMaxBuffer === true) return { kind: 'output-limit', file, maxOutputBytes: limits.maxOutputBytes };
  if (outcome.exitCode !== undefined)
    return { exitCode: outcome.exitCode, stdout: outcome.stdout ?? '', stderr: outcome.stderr ?? '', durationMs };
  if (outcome.signal !== undefined) return { kind: 'killed', file, signal: outcome.signal };
  // Only the error code: spawn's own messages repeat the argv, which may hold a secret.
  return { kind: 'spawn-failed', file, message: outcome.code === undefined ? 'could not start' : `spawn ${outcome.code}` };
}

/** Collects one pipe as bytes, so the cap counts bytes (a string count would count characters). */
class Collector {
  private readonly chunks: Buffer[] = [];
  private bytes = 0;
  constructor(
    private readonly limit: number,
    private readonly onLimit: () => void,
  ) {}
  add(chunk: Buffer): void {
    if (this.bytes > this.limit) return;
    this.bytes += chunk.length;
    if (this.bytes > this.limit) {
      this.chunks.length = 0;
      this.onLimit();
      return;
    }
    this.chunks.push(chunk);
  }
  text(): string {
    return this.chunks.length === 1 ? this.chunks[0]!.toString('utf8') : Buffer.concat(this.chunks).toString('utf8');
  }
}

function isCommandError(value: CommandOutput | CommandError): value is CommandError {
  return 'kind' in value;
}

/**
 * The one real {@link CommandRunner} of every package: `node:child_process` with argument arrays, never a shell,
 * stdin ignored unless `input` is given, a timeout and an output cap on every call, and the
 * environment policy of `buildChildEnv` (the user's environment minus a short deny-list, plus
 * per-tool quiet defaults; an opt-in allow-list). Each command runs in its own process group:
 * on timeout or abort the whole group gets SIGTERM, then SIGKILL after a grace period, and the
 * runner stops waiting on its pipes, so a hung grandchild cannot hold the call open.
 *
 * @example
 * ```ts
 * import { createProcessRunner } from '@heartbeat-kit/core/node';
 *
 * const runner = createProcessRunner({ timeoutMs: 5_000 });
 * const out = await runner.run({ file: 'git', args: ['--version'] }); // never a shell; a non-zero exit is still ok()
 * if (out.isOk()) console.log(out.value.exitCode, out.value.stdout.trim());
 * else console.log(out.error.kind); // 'not-found' | 'timeout' | 'output-limit' | …
 * ```
 */
export function createProcessRunner(options: ProcessRunnerOptions = {}): CommandRunner {
  const settings: RunnerSettings = {
    defaultTimeoutMs: options.timeoutMs ?? 10_000,
    defaultMaxOutputBytes: options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    killGraceMs: options.killGraceMs ?? 2_000,
    baseEnv: options.baseEnv ?? process.env,
    envAllow: options.envAllow,
    profile: options.profile,
    shutdown: options.shutdownSignal,
  };
  const { shutdown } = settings;
  const run = (request: CommandRequest, signal?: AbortSignal): ResultAsync<CommandOutput, CommandError> => {
    if (signal?.aborted === true || shutdown?.aborted === true) return errAsync({ kind: 'aborted', file: request.file });
    return ResultAsync.fromSafePromise(execute(settings, request, signal)).andThen((value) =>
      isCommandError(value) ? errAsync(value) : okAsync(value),
    );
  };
  return { run };
}

/** A runner's options with their defaults filled in. */
interface RunnerSettings {
  readonly defaultTimeoutMs: number;
  readonly defaultMaxOutputBytes: number;
  readonly killGraceMs: number;
  readonly baseEnv: Readonly<Record<string, string | undefined>>;
  readonly envAllow: readonly string[] | undefined;
  readonly profile: ToolProfile | undefined;
  readonly shutdown: AbortSignal | undefined;
}

/** One command's limits: its own where the request names them, else the runner's. */
interface Limits {
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
}

/** One command being run: what was asked, its limits, when it started and the signal that aborts it. */
interface Run {
  readonly request: CommandRequest;
  readonly limits: Limits;
  readonly started: number;
  readonly signal: AbortSignal | undefined;
}

function execute(
  settings: RunnerSettings,
  request: CommandRequest,
  signal: AbortSignal | undefined,
): Promise<CommandOutput | CommandError> {
  return new Promise((resolve) => {
    const limits = {
      timeoutMs: request.timeoutMs ?? settings.defaultTimeoutMs,
      maxOutputBytes: request.maxOutputBytes ?? settings.defaultMaxOutputBytes,
    };
    const run: Run = { request, limits, started: performance.now(), signal };
    const spawned = spawnChild(settings, run);
    if ('failed' in spawned) {
      resolve(spawned.failed);
      return;
    }
    const { child } = spawned;
    if (child.pid !== undefined) {
      trackGroup(child.pid);
      // Before anything else can run: a spool must name its writer in case this process dies now.
      request.stdoutTo?.onSpawn(child.pid);
    }
    watchChild(settings, run, child, resolve);
  });
}

/** Starts the command in its own process group; a spawn that throws is classified at once. */
function spawnChild(
  settings: RunnerSettings,
  run: Run,
): { readonly child: ChildProcess } | { readonly failed: CommandOutput | CommandError } {
  const { request } = run;
  const profile = request.profile ?? settings.profile ?? inferToolProfile(request.file);
  try {
    const child = spawn(request.file, [...request.args], {
      shell: false,
      env: buildChildEnv(settings.baseEnv, { profile, allow: settings.envAllow, requestEnv: request.env }),
      ...(request.cwd === undefined ? {} : { cwd: request.cwd }),
      stdio: [request.input === undefined ? 'ignore' : 'pipe', request.stdoutTo?.fd ?? 'pipe', 'pipe'],
      // Its own process group, so that a timeout reaches grandchildren too.
      detached: true,
      windowsHide: true,
    });
    return { child };
  } catch (error) {
    // Some spawn errors (ENOTDIR, EISDIR, ENOEXEC, EPERM) and invalid options (a NUL byte in an
    // argument) throw synchronously instead of arriving as 'error'.
    const code = (error as { code?: string }).code;
    return {
      failed:
        code !== undefined && code.startsWith('E')
          ? classify(request, { code }, undefined, run.limits, performance.now() - run.started)
          : { kind: 'spawn-failed', file: request.file, message: code ?? 'invalid options' },
    };
  }
}

/** Collects the child's output under the cap, stops it on timeout or abort, and resolves once with its outcome. */
function watchChild(settings: RunnerSettings, run: Run, child: ChildProcess, resolve: (value: CommandOutput | CommandError) => void): void {
  const { request, limits } = run;
  const pid = child.pid;
  let stopped: StopReason;
  let overLimit = false;
  let settled = false;
  const timers: NodeJS.Timeout[] = [];
  const unsubscribe: (() => void)[] = [];
  // Stop waiting on the pipes: a process that left the group (setsid) may still hold them.
  const release = (): void => {
    child.stdout?.destroy();
    child.stderr?.destroy();
  };
  const stop = (reason: 'timeout' | 'aborted'): void => {
    if (stopped !== undefined || pid === undefined) return;
    stopped = reason;
    killGroup(pid, 'SIGTERM');
    timers.push(
      setTimeout(() => {
        killGroup(pid, 'SIGKILL');
        timers.push(setTimeout(release, 500));
      }, settings.killGraceMs),
    );
  };
  const limitReached = (): void => {
    if (overLimit) return;
    overLimit = true;
    if (pid !== undefined) killGroup(pid, 'SIGKILL');
    release();
  };
  const stdout = new Collector(limits.maxOutputBytes, limitReached);
  const stderr = new Collector(limits.maxOutputBytes, limitReached);
  child.stdout?.on('data', (chunk: Buffer) => stdout.add(chunk));
  child.stderr?.on('data', (chunk: Buffer) => stderr.add(chunk));

  const finish = (outcome: Outcome): void => {
    if (settled) return;
    settled = true;
    for (const timer of timers) clearTimeout(timer);
    for (const off of unsubscribe) off();
    const classified = classify(
      request,
      { ...outcome, isMaxBuffer: overLimit, stdout: stdout.text(), stderr: stderr.text() },
      stopped,
      limits,
      performance.now() - run.started,
    );
    if (pid !== undefined) {
      // Whatever of the group is left after a failure (output cap, killed leader) goes too.
      if (isCommandError(classified)) killGroup(pid, 'SIGKILL');
      liveGroups.delete(pid);
    }
    resolve(classified);
  };
  // A spawn failure (ENOENT, EACCES, bad cwd) arrives as 'error'; 'close' waits for exit and both pipes.
  child.once('error', (error: NodeJS.ErrnoException) => finish({ code: error.code }));
  child.once('close', (code: number | null, sig: NodeJS.Signals | null) =>
    finish({ exitCode: code ?? undefined, signal: sig ?? undefined }),
  );

  if (request.input !== undefined && child.stdin) {
    // A child that exits without reading its input closes the pipe: not our failure.
    child.stdin.on('error', () => undefined);
    child.stdin.end(request.input);
  }
  timers.push(setTimeout(() => stop('timeout'), limits.timeoutMs));
  const aborted = (): void => stop('aborted');
  if (run.signal !== undefined) unsubscribe.push(onAbort(run.signal, aborted));
  if (settings.shutdown !== undefined) unsubscribe.push(onAbort(settings.shutdown, aborted));
}
