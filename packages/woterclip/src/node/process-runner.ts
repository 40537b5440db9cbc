import type { CommandError, CommandRunner } from '@heartbeat-kit/core';
import { execa } from 'execa';
import { errAsync, okAsync, ResultAsync } from 'neverthrow';

/** Options of {@link createProcessRunner}. */
export interface ProcessRunnerOptions {
  readonly defaultTimeoutMs?: number;
  readonly maxOutputBytes?: number;
  /** The base environment (default: this process's). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * A small execa-backed {@link CommandRunner} for WoterClip's own real-process tests and for
 * embedders without `@heartbeat-kit/scanners`. Argument vectors only, never a shell; the CLI
 * wires the scanners' runner instead.
 */
export function createProcessRunner(options: ProcessRunnerOptions = {}): CommandRunner {
  return {
    run: (request, signal) => {
      const timeoutMs = request.timeoutMs ?? options.defaultTimeoutMs ?? 120_000;
      const maxBuffer = request.maxOutputBytes ?? options.maxOutputBytes ?? 16 * 1024 * 1024;
      const started = performance.now();
      return ResultAsync.fromSafePromise(
        execa(request.file, [...request.args], {
          reject: false,
          shell: false,
          ...(request.cwd === undefined ? {} : { cwd: request.cwd }),
          env: { ...options.env, ...request.env },
          extendEnv: options.env === undefined,
          ...(request.input === undefined ? { stdin: 'ignore' as const } : { input: request.input }),
          timeout: timeoutMs,
          maxBuffer,
          stripFinalNewline: false,
          ...(signal === undefined ? {} : { cancelSignal: signal }),
        }),
      ).andThen((r) => {
        const stdout = typeof r.stdout === 'string' ? r.stdout : '';
        const stderr = typeof r.stderr === 'string' ? r.stderr : '';
        const file = request.file;
        let error: CommandError | undefined;
        if (r.isCanceled) error = { kind: 'aborted', file };
        else if (r.timedOut) error = { kind: 'timeout', file, timeoutMs, stdout, stderr };
        else if (r.isMaxBuffer) error = { kind: 'output-limit', file, maxOutputBytes: maxBuffer };
        else if (r.exitCode === undefined && r.signal !== undefined) error = { kind: 'killed', file, signal: r.signal };
        else if (r.exitCode === undefined) {
          const code = (r.cause as { code?: string } | undefined)?.code;
          error = code === 'ENOENT' ? { kind: 'not-found', file, message: `${file}: command not found` } : { kind: 'spawn-failed', file, message: r.shortMessage ?? 'could not start' };
        }
        if (error !== undefined) return errAsync(error);
        return okAsync({ exitCode: r.exitCode ?? 0, stdout, stderr, durationMs: performance.now() - started });
      });
    },
  };
}
