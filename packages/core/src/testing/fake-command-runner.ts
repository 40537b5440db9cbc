import { err, ok, ResultAsync, type Result } from 'neverthrow';
import type { CommandError, CommandOutput, CommandRequest, CommandRunner } from '../ports/command-runner.js';

/**
 * What a fake command answers: the output (missing fields default to exit 0, empty streams,
 * 0 ms), or `{ error }` for a command that produced no exit code.
 */
export type FakeCommandResponse =
  | Partial<CommandOutput>
  | {
      /** The failure the runner reports instead of an output. */
      readonly error: CommandError;
    };

/** Maps a request to a response; may be async. A thrown error becomes `spawn-failed`. */
export type FakeCommandHandler = (request: CommandRequest, signal?: AbortSignal) => FakeCommandResponse | Promise<FakeCommandResponse>;

/** A {@link CommandRunner} answered by a handler, recording every request. */
export interface FakeCommandRunner extends CommandRunner {
  /** Every request, in order. */
  readonly calls: readonly CommandRequest[];
}

/**
 * A command runner for tests. A request whose signal is already aborted fails with `aborted`
 * without calling the handler, like the real runner.
 *
 * @example
 * ```ts
 * import { createFakeCommandRunner } from '@heartbeat-kit/core/testing';
 *
 * const runner = createFakeCommandRunner((request) =>
 *   request.file === 'bd' ? { stdout: '[]\n', exitCode: 0 } : { error: { kind: 'not-found', file: request.file, message: 'not installed' } },
 * );
 * const out = await runner.run({ file: 'bd', args: ['ready', '--json'] });
 * console.log(out.isOk() && out.value.stdout, runner.calls.length); // '[]\n' 1
 * ```
 */
export function createFakeCommandRunner(handler: FakeCommandHandler): FakeCommandRunner {
  const calls: CommandRequest[] = [];
  const answer = async (request: CommandRequest, signal?: AbortSignal): Promise<Result<CommandOutput, CommandError>> => {
    if (signal?.aborted === true) return err({ kind: 'aborted', file: request.file });
    let response: FakeCommandResponse;
    try {
      response = await handler(request, signal);
    } catch (error) {
      return err({ kind: 'spawn-failed', file: request.file, message: error instanceof Error ? error.message : String(error) });
    }
    if ('error' in response) return err(response.error);
    return ok({
      exitCode: response.exitCode ?? 0,
      stdout: response.stdout ?? '',
      stderr: response.stderr ?? '',
      durationMs: response.durationMs ?? 0,
    });
  };
  return {
    calls,
    run: (request, signal) => {
      calls.push(request);
      return new ResultAsync(answer(request, signal));
    },
  };
}
