import { statSync } from 'node:fs';
import { execa } from 'execa';
import { ResultAsync, errAsync, okAsync } from 'neverthrow';
import { buildChildEnv, inferToolProfile } from '../command/child-environment.js';
import type { CommandError, CommandOutput, CommandRequest, CommandRunner, ToolProfile } from '../ports/command-runner.js';

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

function trackGroup(pid: number): void {
  liveGroups.add(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const group of liveGroups) killGroup(group, 'SIGKILL');
  });
}

const decoder = new TextDecoder('utf-8');

// Output is collected as bytes so that `maxBuffer` counts bytes (with a string encoding execa counts characters).
function text(value: unknown): string {
  if (typeof value === 'string') return value;
  return value instanceof Uint8Array ? decoder.decode(value) : '';
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
  readonly stdout?: unknown;
  readonly stderr?: unknown;
}

/** Why the runner itself stopped a command, if it did. */
type StopReason = 'timeout' | 'aborted' | undefined;

function classify(request: CommandRequest, outcome: Outcome, stopped: StopReason, limits: { timeoutMs: number; maxOutputBytes: number }, durationMs: number): CommandOutput | CommandError {
  const file = request.file;
  if (stopped === 'aborted') return { kind: 'aborted', file };
  if (stopped === 'timeout') return { kind: 'timeout', file, timeoutMs: limits.timeoutMs, stdout: text(outcome.stdout), stderr: text(outcome.stderr) };
  switch (outcome.code) {
    case 'ENOENT':
      if (request.cwd !== undefined && !isDirectory(request.cwd)) return { kind: 'bad-cwd', file, cwd: request.cwd };
      return { kind: 'not-found', file, message: `${file}: not found (spawn ENOENT)` };
    case 'ENOTDIR':
      return request.cwd !== undefined && !isDirectory(request.cwd) ? { kind: 'bad-cwd', file, cwd: request.cwd } : { kind: 'not-found', file, message: `${file}: not found (spawn ENOTDIR)` };
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
  if (outcome.exitCode !== undefined) return { exitCode: outcome.exitCode, stdout: text(outcome.stdout), stderr: text(outcome.stderr), durationMs };
  if (outcome.signal !== undefined) return { kind: 'killed', file, signal: outcome.signal };
  // Only the error code: execa's own messages repeat the argv, which may hold a secret.
  return { kind: 'spawn-failed', file, message: outcome.code === undefined ? 'could not start' : `spawn ${outcome.code}` };
}

function spawn(request: CommandRequest, env: Record<string, string>, maxOutputBytes: number) {
  return execa(request.file, [...request.args], {
    reject: false,
    shell: false,
    extendEnv: false,
    env,
    ...(request.cwd === undefined ? {} : { cwd: request.cwd }),
    ...(request.input === undefined ? { stdin: 'ignore' as const } : { input: request.input }),
    maxBuffer: maxOutputBytes,
    encoding: 'buffer',
    stripFinalNewline: false,
    // Its own process group, so that a timeout reaches grandchildren too; execa's cleanup
    // ignores detached children, hence the exit hook above.
    detached: true,
    cleanup: false,
  });
}

function isCommandError(value: CommandOutput | CommandError): value is CommandError {
  return 'kind' in value;
}

/**
 * The one real {@link CommandRunner} of every package: execa with argument arrays, never a shell,
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
  const defaultMaxOutputBytes = options.maxOutputBytes ?? 4 * 1024 * 1024;
  const killGraceMs = options.killGraceMs ?? 2_000;
  const baseEnv = options.baseEnv ?? process.env;
  const shutdown = options.shutdownSignal;

  const execute = async (request: CommandRequest, signal: AbortSignal | undefined): Promise<CommandOutput | CommandError> => {
    const timeoutMs = request.timeoutMs ?? defaultTimeoutMs;
    const maxOutputBytes = request.maxOutputBytes ?? defaultMaxOutputBytes;
    const profile = request.profile ?? options.profile ?? inferToolProfile(request.file);
    const started = performance.now();
    let subprocess: ReturnType<typeof spawn>;
    try {
      subprocess = spawn(request, buildChildEnv(baseEnv, { profile, allow: options.envAllow, requestEnv: request.env }), maxOutputBytes);
    } catch (error) {
      // Invalid options throw synchronously even with `reject: false`.
      return { kind: 'spawn-failed', file: request.file, message: (error as { code?: string }).code ?? 'invalid options' };
    }
    const pid = subprocess.pid;
    if (pid !== undefined) trackGroup(pid);

    let stopped: StopReason;
    const timers: NodeJS.Timeout[] = [];
    const stop = (reason: 'timeout' | 'aborted'): void => {
      if (stopped !== undefined || pid === undefined) return;
      stopped = reason;
      killGroup(pid, 'SIGTERM');
      timers.push(
        setTimeout(() => {
          killGroup(pid, 'SIGKILL');
          // A process that left the group (setsid) may still hold the pipes: stop waiting on them.
          timers.push(
            setTimeout(() => {
              subprocess.stdout?.destroy();
              subprocess.stderr?.destroy();
            }, 500),
          );
        }, killGraceMs),
      );
    };
    const onAbort = (): void => stop('aborted');
    timers.push(setTimeout(() => stop('timeout'), timeoutMs));
    signal?.addEventListener('abort', onAbort, { once: true });
    shutdown?.addEventListener('abort', onAbort, { once: true });
    let classified: CommandOutput | CommandError;
    try {
      const result = await subprocess;
      const outcome: Outcome = {
        exitCode: result.exitCode,
        signal: result.signal,
        isMaxBuffer: result.isMaxBuffer,
        code: result.code ?? (result.cause as { code?: string } | undefined)?.code,
        stdout: result.stdout,
        stderr: result.stderr,
      };
      classified = classify(request, outcome, stopped, { timeoutMs, maxOutputBytes }, performance.now() - started);
    } catch (error) {
      classified = classify(request, { code: (error as { code?: string }).code }, stopped, { timeoutMs, maxOutputBytes }, performance.now() - started);
    }
    for (const timer of timers) clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    shutdown?.removeEventListener('abort', onAbort);
    if (pid !== undefined) {
      // Whatever of the group is left after a failure (output cap, killed leader) goes too.
      if (isCommandError(classified)) killGroup(pid, 'SIGKILL');
      liveGroups.delete(pid);
    }
    return classified;
  };

  const run = (request: CommandRequest, signal?: AbortSignal): ResultAsync<CommandOutput, CommandError> => {
    if (signal?.aborted === true || shutdown?.aborted === true) return errAsync({ kind: 'aborted', file: request.file });
    return ResultAsync.fromSafePromise(execute(request, signal)).andThen((value) => (isCommandError(value) ? errAsync(value) : okAsync(value)));
  };

  return { run };
}
