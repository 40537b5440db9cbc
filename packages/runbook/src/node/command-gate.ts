import { execa } from 'execa';
import { ResultAsync, errAsync, okAsync } from 'neverthrow';
import { DEFAULT_GATE_TIMEOUT_MS, parseGateOutput, type Gate, type GateCall, type GateError, type GateResult, type GateState } from '../gate/gate.js';

/** Options of {@link createCommandGate}. */
export interface CommandGateOptions {
  /** The executable (a path or a name on PATH). Never run through a shell. */
  readonly file: string;
  readonly args?: readonly string[];
  readonly cwd?: string;
  /** Extra environment for the script (merged over the parent's). */
  readonly env?: Readonly<Record<string, string>>;
  /** Default 60 s (spec 003). */
  readonly timeoutMs?: number;
  /** Cap on stdout and stderr, each. Default 1 MiB. */
  readonly maxOutputBytes?: number;
  /** Name reported in logs; defaults to the file. */
  readonly name?: string;
}

function firstLine(text: unknown): string {
  return typeof text === 'string' ? (text.trim().split('\n')[0] ?? '').slice(0, 200) : '';
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
  const maxBuffer = options.maxOutputBytes ?? 1024 * 1024;
  const decide = (state: GateState, call: GateCall = {}): ResultAsync<GateResult, GateError> =>
    ResultAsync.fromSafePromise(
      execa(options.file, [...(options.args ?? [])], {
        input: JSON.stringify(state),
        reject: false,
        shell: false,
        timeout: timeoutMs,
        forceKillAfterDelay: 2_000,
        maxBuffer,
        stripFinalNewline: false,
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
        ...(options.env === undefined ? {} : { env: options.env }),
        ...(call.signal === undefined ? {} : { cancelSignal: call.signal }),
      }),
    ).andThen((r): ResultAsync<GateResult, GateError> => {
      if (r.timedOut) return errAsync({ kind: 'timeout', timeoutMs, message: `gate did not answer within ${timeoutMs} ms` });
      if (r.isCanceled) return errAsync({ kind: 'crashed', message: 'gate call was cancelled' });
      if (r.isMaxBuffer) return errAsync({ kind: 'malformed', message: `gate output exceeded ${maxBuffer} bytes` });
      if ((r as { code?: string }).code === 'ENOENT') return errAsync({ kind: 'unavailable', message: `${options.file}: not found` });
      if (r.signal !== undefined && r.signal !== null) return errAsync({ kind: 'crashed', message: `gate was killed by ${r.signal}` });
      if (r.exitCode === undefined) return errAsync({ kind: 'unavailable', message: firstLine(r.message) || 'gate could not be started' });
      if (r.exitCode !== 0) return errAsync({ kind: 'exit-code', exitCode: r.exitCode, message: `gate exited ${r.exitCode}: ${firstLine(r.stderr)}` });
      const parsed = parseGateOutput(typeof r.stdout === 'string' ? r.stdout : '');
      return parsed.ok ? okAsync(parsed.value) : errAsync(parsed.error);
    });
  return { name: options.name ?? options.file, decide };
}
