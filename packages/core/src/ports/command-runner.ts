import type { ResultAsync } from 'neverthrow';
import type { SpoolStdout } from './output-spool.js';

/**
 * Which tool a request runs, so the runner applies that tool's environment rules (deny-list and
 * quiet defaults) to that tool only. `command` is any other program (sinks, dashboard commands).
 */
export type ToolProfile = 'bd' | 'git' | 'tmux' | 'gh' | 'gchat' | 'agent' | 'gate' | 'command';

/** One external command, always as an argument vector — never a shell string. */
export interface CommandRequest {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  /** Extra environment variables, set over the runner's environment policy (they always win). */
  readonly env?: Readonly<Record<string, string>>;
  /** Written to stdin; stdin is ignored when absent. */
  readonly input?: string;
  /** Killed after this long (the runner has a default). */
  readonly timeoutMs?: number;
  /** Output beyond this many bytes is an `output-limit` error (the runner has a default). */
  readonly maxOutputBytes?: number;
  /** The tool's environment profile; absent = the runner's default, else guessed from `file` (`bd`, `git`, `tmux`, `gh`). */
  readonly profile?: ToolProfile;
  /**
   * The child's stdout goes to this spool instead of a pipe: the bytes reach durable storage
   * even if this process dies; `stdout` of the output is then empty (read the spool) and the
   * output cap does not apply to it.
   */
  readonly stdoutTo?: SpoolStdout;
  /**
   * Only reads, and needs no other command's output: a one-shot cycle may start it before its
   * scanner asks (from what the last cycle ran) and hand the scanner that run. Never set on a
   * command that changes anything or consumes what it reads (the GChat poll marks replies read).
   * Runners ignore it.
   */
  readonly speculative?: boolean;
}

/** A command that ran to completion, whatever its exit code. */
export interface CommandOutput {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly durationMs: number;
}

/**
 * Why a command produced no exit code — the one closed failure classification of every runner.
 * A non-zero exit is not an error here: callers classify it. Messages never carry environment
 * values.
 */
export type CommandError =
  /** The executable (or its `#!` interpreter) does not exist. */
  | { readonly kind: 'not-found'; readonly file: string; readonly message: string }
  /** It exists but may not be executed (no `x` bit, a directory, a bad binary format). */
  | { readonly kind: 'not-executable'; readonly file: string; readonly message: string }
  /** The working directory does not exist or is not a directory. */
  | { readonly kind: 'bad-cwd'; readonly file: string; readonly cwd: string }
  /** It outlived its timeout; its whole process group was killed. */
  | { readonly kind: 'timeout'; readonly file: string; readonly timeoutMs: number; readonly stdout: string; readonly stderr: string }
  /** It printed more than the cap on stdout or stderr; it was killed. */
  | { readonly kind: 'output-limit'; readonly file: string; readonly maxOutputBytes: number }
  /** Something other than the runner killed it with a signal. */
  | { readonly kind: 'killed'; readonly file: string; readonly signal: string }
  /** The caller's signal (or the runner's shutdown) stopped it; its whole process group was killed. */
  | { readonly kind: 'aborted'; readonly file: string }
  /** Any other reason it could not start. */
  | { readonly kind: 'spawn-failed'; readonly file: string; readonly message: string };

/** Runs external commands. The real adapter is `createProcessRunner` in `@heartbeat-kit/core/node`. */
export interface CommandRunner {
  readonly run: (request: CommandRequest, signal?: AbortSignal) => ResultAsync<CommandOutput, CommandError>;
}
