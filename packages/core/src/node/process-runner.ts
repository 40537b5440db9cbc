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
  const defaultTimeoutMs = options.timeoutMs ?? 10_000;
  const defaultMaxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const killGraceMs = options.killGraceMs ?? 2_000;
  const baseEnv = options.baseEnv ?? process.env;
  const shutdown = options.shutdownSignal;

  const execute = (request: CommandRequest, signal: AbortSignal | undefined): Promise<CommandOutput | CommandError> =>
    new Promise((resolve) => {
      const timeoutMs = request.timeoutMs ?? defaultTimeoutMs;
      const maxOutputBytes = request.maxOutputBytes ?? defaultMaxOutputBytes;
      const limits = { timeoutMs, maxOutputBytes };
      const profile = request.profile ?? options.profile ?? inferToolProfile(request.file);
      const started = performance.now();
      let child: ChildProcess;
      try {
        child = spawn(request.file, [...request.args], {
          shell: false,
          env: buildChildEnv(baseEnv, { profile, allow: options.envAllow, requestEnv: request.env }),
          ...(request.cwd === undefined ? {} : { cwd: request.cwd }),
          stdio: [request.input === undefined ? 'ignore' : 'pipe', request.stdoutTo?.fd ?? 'pipe', 'pipe'],
          // Its own process group, so that a timeout reaches grandchildren too.
          detached: true,
          windowsHide: true,
        });
      } catch (error) {
        // Some spawn errors (ENOTDIR, EISDIR, ENOEXEC, EPERM) and invalid options (a NUL byte in an
        // argument) throw synchronously instead of arriving as 'error'.
        const code = (error as { code?: string }).code;
        resolve(
          code !== undefined && code.startsWith('E')
            ? classify(request, { code }, undefined, limits, performance.now() - started)
            : { kind: 'spawn-failed', file: request.file, message: code ?? 'invalid options' },
        );
        return;
      }
      const pid = child.pid;
      if (pid !== undefined) {
        trackGroup(pid);
        // Before anything else can run: a spool must name its writer in case this process dies now.
        request.stdoutTo?.onSpawn(pid);
      }

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
          }, killGraceMs),
        );
      };
      const limitReached = (): void => {
        if (overLimit) return;
        overLimit = true;
        if (pid !== undefined) killGroup(pid, 'SIGKILL');
        release();
      };
      const stdout = new Collector(maxOutputBytes, limitReached);
      const stderr = new Collector(maxOutputBytes, limitReached);
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
          performance.now() - started,
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
      timers.push(setTimeout(() => stop('timeout'), timeoutMs));
      const aborted = (): void => stop('aborted');
      if (signal !== undefined) unsubscribe.push(onAbort(signal, aborted));
      if (shutdown !== undefined) unsubscribe.push(onAbort(shutdown, aborted));
    });

  const run = (request: CommandRequest, signal?: AbortSignal): ResultAsync<CommandOutput, CommandError> => {
    if (signal?.aborted === true || shutdown?.aborted === true) return errAsync({ kind: 'aborted', file: request.file });
    return ResultAsync.fromSafePromise(execute(request, signal)).andThen((value) =>
      isCommandError(value) ? errAsync(value) : okAsync(value),
    );
  };

  return { run };
}
