import type { CommandError, CommandRunner } from '@heartbeat-kit/core';
import { describeCommandError } from '@heartbeat-kit/core/host';
import { createProcessRunner } from '@heartbeat-kit/core/node';
import { errAsync, okAsync, type ResultAsync } from 'neverthrow';
import {
  DEFAULT_GATE_TIMEOUT_MS,
  parseGateOutput,
  type Gate,
  type GateCall,
  type GateError,
  type GateResult,
  type GateState,
} from '../gate/gate.js';

/** Options of {@link createCommandGate}. */
export interface CommandGateOptions {
  /** The executable (a path or a name on PATH). Never run through a shell. */
  readonly file: string;
  readonly args?: readonly string[];
  readonly cwd?: string;
  /** Extra environment for the script (set over the runner's environment policy). */
  readonly env?: Readonly<Record<string, string>>;
  /** Default 60 s: a gate that takes longer is an error verdict, and the gate fails open (spec 003). */
  readonly timeoutMs?: number;
  /** Cap on stdout and stderr, each. Default 1 MiB. */
  readonly maxOutputBytes?: number;
  /** Name reported in logs; defaults to the file. */
  readonly name?: string;
  /** The process runner (default: core's, with the `gate` environment profile). */
  readonly runner?: CommandRunner;
}

function firstLine(text: string): string {
  return (text.trim().split('\n')[0] ?? '').slice(0, 200);
}

// The runner's closed failure classification, mapped onto the gate's (every one fails open).
function gateErrorOf(error: CommandError): GateError {
  switch (error.kind) {
    case 'timeout':
      return { kind: 'timeout', timeoutMs: error.timeoutMs, message: `gate did not answer within ${error.timeoutMs} ms` };
    case 'aborted':
      return { kind: 'crashed', message: 'gate call was cancelled' };
    case 'killed':
      return { kind: 'crashed', message: `gate was killed by ${error.signal}` };
    case 'output-limit':
      return { kind: 'malformed', message: `gate output exceeded ${error.maxOutputBytes} bytes` };
    case 'not-found':
    case 'not-executable':
    case 'bad-cwd':
    case 'spawn-failed':
      return { kind: 'unavailable', message: describeCommandError(error) };
  }
}

/**
 * A gate that runs a command: the compact state as JSON on stdin, `{quiet, reason, summary}` on
 * stdout. A timeout, a signal, a non-zero exit, a spawn failure or malformed output is a typed
 * error, which the tick turns into the fail-open `error` verdict.
 *
 * @example
 * ```ts
 * import { runGate, type GateState } from '@heartbeat-kit/runbook';
 * import { createCommandGate } from '@heartbeat-kit/runbook/node';
 *
 * declare const state: GateState;
 * // Any script: the gate state as JSON on stdin, {"quiet", "reason", "summary"} on stdout.
 * const gate = createCommandGate({ file: './scripts/my-gate', timeoutMs: 60_000 });
 * const verdict = await runGate(gate, state);
 * ```
 */
export function createCommandGate(options: CommandGateOptions): Gate {
  const timeoutMs = options.timeoutMs ?? DEFAULT_GATE_TIMEOUT_MS;
  const runner = options.runner ?? createProcessRunner({ profile: 'gate' });
  const decide = (state: GateState, call: GateCall = {}): ResultAsync<GateResult, GateError> =>
    runner
      .run(
        {
          file: options.file,
          args: [...(options.args ?? [])],
          input: JSON.stringify(state),
          profile: 'gate',
          timeoutMs,
          maxOutputBytes: options.maxOutputBytes ?? 1024 * 1024,
          ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
          ...(options.env === undefined ? {} : { env: options.env }),
        },
        call.signal,
      )
      .mapErr(gateErrorOf)
      .andThen((r): ResultAsync<GateResult, GateError> => {
        if (r.exitCode !== 0)
          return errAsync({ kind: 'exit-code', exitCode: r.exitCode, message: `gate exited ${r.exitCode}: ${firstLine(r.stderr)}` });
        const parsed = parseGateOutput(r.stdout);
        return parsed.isOk() ? okAsync(parsed.value) : errAsync(parsed.error);
      });
  return { name: options.name ?? options.file, decide };
}
