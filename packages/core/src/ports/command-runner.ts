import type { ResultAsync } from 'neverthrow';

/** One external command, always as an argument vector — never a shell string. */
export interface CommandRequest {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  /** Extra environment variables, merged over the runner's allow-listed base environment. */
  readonly env?: Readonly<Record<string, string>>;
  /** Written to stdin; stdin is ignored when absent. */
  readonly input?: string;
  /** Killed after this long (the runner has a default). */
  readonly timeoutMs?: number;
  /** Output beyond this many bytes is an `output-limit` error (the runner has a default). */
  readonly maxOutputBytes?: number;
}

/** A command that ran to completion, whatever its exit code. */
export interface CommandOutput {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly durationMs: number;
}

/** Why a command produced no exit code. A non-zero exit is not an error here: callers classify it. */
export type CommandError =
  | { readonly kind: 'not-found'; readonly file: string; readonly message: string }
  | { readonly kind: 'timeout'; readonly file: string; readonly timeoutMs: number; readonly stdout: string; readonly stderr: string }
  | { readonly kind: 'output-limit'; readonly file: string; readonly maxOutputBytes: number }
  | { readonly kind: 'killed'; readonly file: string; readonly signal: string }
  | { readonly kind: 'aborted'; readonly file: string }
  | { readonly kind: 'spawn-failed'; readonly file: string; readonly message: string };

/** Runs external commands. The execa adapter lives in `@heartbeat-kit/scanners/execa`. */
export interface CommandRunner {
  readonly run: (request: CommandRequest, signal?: AbortSignal) => ResultAsync<CommandOutput, CommandError>;
}
