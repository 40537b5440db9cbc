import { execa } from 'execa';
import { ResultAsync, errAsync, okAsync } from 'neverthrow';
import type { CommandError, CommandOutput, CommandRequest, CommandRunner } from '@heartbeat-kit/core';

/** Variables copied from the base environment; everything else (tokens, agent-mode switches) stays out. */
export const ALLOWED_ENV_KEYS = ['PATH', 'HOME', 'USER', 'LANG', 'TMPDIR', 'TMUX_TMPDIR'] as const;

/** Options of {@link createExecaCommandRunner}. */
export interface ExecaCommandRunnerOptions {
  /** Default per-command timeout (10 s). */
  readonly timeoutMs?: number;
  /** Default cap on stdout and on stderr, each (4 MiB). */
  readonly maxOutputBytes?: number;
  /** Where the allow-listed variables are read from; `process.env` by default. */
  readonly baseEnv?: Readonly<Record<string, string | undefined>>;
}

/** Builds the child environment: allow-listed base variables, quiet defaults, then the request's own. */
export function buildChildEnv(
  baseEnv: Readonly<Record<string, string | undefined>>,
  requestEnv: Readonly<Record<string, string>> | undefined,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of ALLOWED_ENV_KEYS) {
    const value = baseEnv[key];
    if (value !== undefined) env[key] = value;
  }
  // Tools must not colour their output or translate the messages we classify.
  env.NO_COLOR = '1';
  env.LC_ALL = 'C';
  return { ...env, ...requestEnv };
}

interface ExecaOutcome {
  readonly exitCode?: number | undefined;
  readonly signal?: string | undefined;
  readonly timedOut: boolean;
  readonly isCanceled: boolean;
  readonly isMaxBuffer: boolean;
  readonly failed: boolean;
  readonly code?: string | undefined;
  readonly message?: string | undefined;
  readonly stdout: unknown;
  readonly stderr: unknown;
  readonly durationMs: number;
}

const decoder = new TextDecoder('utf-8');

// Output is collected as bytes so that `maxBuffer` counts bytes (with a string encoding execa counts characters).
function text(value: unknown): string {
  if (typeof value === 'string') return value;
  return value instanceof Uint8Array ? decoder.decode(value) : '';
}

/** Maps execa's result flags to the closed `CommandError` union (order matters: the most specific cause wins). */
export function classifyExecaOutcome(
  file: string,
  outcome: ExecaOutcome,
  limits: { readonly timeoutMs: number; readonly maxOutputBytes: number },
): CommandOutput | CommandError {
  if (outcome.code === 'ENOENT') return { kind: 'not-found', file, message: outcome.message ?? `${file}: not found` };
  if (outcome.isCanceled) return { kind: 'aborted', file };
  if (outcome.timedOut) return { kind: 'timeout', file, timeoutMs: limits.timeoutMs, stdout: text(outcome.stdout), stderr: text(outcome.stderr) };
  if (outcome.isMaxBuffer) return { kind: 'output-limit', file, maxOutputBytes: limits.maxOutputBytes };
  if (outcome.exitCode !== undefined) {
    return { exitCode: outcome.exitCode, stdout: text(outcome.stdout), stderr: text(outcome.stderr), durationMs: outcome.durationMs };
  }
  if (outcome.signal !== undefined) return { kind: 'killed', file, signal: outcome.signal };
  return { kind: 'spawn-failed', file, message: outcome.message ?? 'spawn failed' };
}

function isCommandError(value: CommandOutput | CommandError): value is CommandError {
  return 'kind' in value;
}

/**
 * The real `CommandRunner`: execa with argument arrays, `reject: false`, no shell, stdin ignored
 * unless `input` is given, a timeout and an output cap on every call, and an allow-listed
 * environment so tokens and agent-mode switches (`BD_AGENT_MODE`, `CLAUDE_CODE*`) never leak.
 *
 * @example
 * ```ts
 * import { createExecaCommandRunner } from '@heartbeat-kit/scanners/execa';
 *
 * const runner = createExecaCommandRunner({ timeoutMs: 5_000 });
 * const out = await runner.run({ file: 'git', args: ['--version'] }); // never a shell; a non-zero exit is still ok()
 * if (out.isOk()) console.log(out.value.exitCode, out.value.stdout.trim());
 * else console.log(out.error.kind); // 'not-found' | 'timeout' | 'output-limit' | …
 * ```
 */
export function createExecaCommandRunner(options: ExecaCommandRunnerOptions = {}): CommandRunner {
  const defaultTimeoutMs = options.timeoutMs ?? 10_000;
  const defaultMaxOutputBytes = options.maxOutputBytes ?? 4 * 1024 * 1024;
  const baseEnv = options.baseEnv ?? process.env;

  const run = (request: CommandRequest, signal?: AbortSignal): ResultAsync<CommandOutput, CommandError> => {
    if (signal?.aborted) return errAsync({ kind: 'aborted', file: request.file });
    const timeoutMs = request.timeoutMs ?? defaultTimeoutMs;
    const maxOutputBytes = request.maxOutputBytes ?? defaultMaxOutputBytes;
    const started = performance.now();
    const promise = execa(request.file, [...request.args], {
      reject: false,
      shell: false,
      extendEnv: false,
      env: buildChildEnv(baseEnv, request.env),
      ...(request.cwd === undefined ? {} : { cwd: request.cwd }),
      ...(request.input === undefined ? { stdin: 'ignore' as const } : { input: request.input }),
      timeout: timeoutMs,
      maxBuffer: maxOutputBytes,
      encoding: 'buffer',
      stripFinalNewline: false,
      ...(signal === undefined ? {} : { cancelSignal: signal }),
      forceKillAfterDelay: 2_000,
    }).then(
      (result) => result as unknown as ExecaOutcome,
      // `reject: false` still rejects on invalid options; treat that as a spawn failure.
      (error: unknown): ExecaOutcome => ({
        failed: true,
        timedOut: false,
        isCanceled: false,
        isMaxBuffer: false,
        message: error instanceof Error ? error.message : String(error),
        stdout: '',
        stderr: '',
        durationMs: performance.now() - started,
      }),
    );
    return ResultAsync.fromSafePromise(promise).andThen((outcome) => {
      const classified = classifyExecaOutcome(request.file, outcome, { timeoutMs, maxOutputBytes });
      return isCommandError(classified) ? errAsync(classified) : okAsync(classified);
    });
  };

  return { run };
}
