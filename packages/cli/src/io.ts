import type { Clock, Sleep } from '@heartbeat-kit/core';
import type { CyclePrefetch } from './wiring/cycle-prefetch-types.js';
/**
 * What a command needs from the outside world. `main` never calls `process.exit` or touches
 * `process.stdout` directly, so tests can run every command in-process.
 */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /**
   * Informational lines (a stale lock taken over, a worker running, a slot skipped by design):
   * stderr in text mode, `{"info": …}` with `--json`. Write them through `printInfo`; absent =
   * stderr, so an embedder's io needs nothing new.
   */
  readonly info?: (text: string) => void;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Aborts when the user asks to stop (the first SIGINT/SIGTERM in the real binary, the signal's name as reason). */
  readonly shutdownSignal: AbortSignal;
  /**
   * Aborts when the user insists (a second SIGINT/SIGTERM): `cycle` and `loop` let the scan in
   * flight finish at the first signal and kill its tools only at this one. Absent: the shutdown
   * signal cuts off at once.
   */
  readonly cutOffSignal?: AbortSignal;
  /**
   * Resolves once everything written to stdout so far has left the process (rejects when stdout
   * is gone): `inbox drain` marks messages delivered only after this. Absent: writes are done when
   * `stdout` returns (an in-process test's buffer).
   */
  readonly flushStdout?: () => Promise<void>;
  /** Standard input, when a command reads it. */
  readonly stdin?: () => Promise<string>;
  /**
   * Time for `loop`, injected by in-process tests to simulate a sleep or a clock jump (the wall
   * clock moving without the monotonic one). Absent: the system clocks.
   */
  readonly time?: LoopTime;
  /**
   * The wall clock of every command (absent: the system's). In-process tests set it to run real,
   * writing cycles at a chosen instant; `--now` is a rehearsal that writes nothing.
   */
  readonly clock?: Clock;
  /**
   * Commands the bin started before a one-shot `cycle` loaded (see `cycle-prefetch.ts`); the
   * cycle's runners take a run only for an equal request. Absent: nothing was started early.
   */
  readonly prefetch?: CyclePrefetch;
}

/** The clocks and the wait `loop` uses. */
export interface LoopTime {
  readonly clock: Clock;
  readonly sleep: Sleep;
  /** Does not advance while the machine is suspended (Node: `performance.now()`). */
  readonly monotonicMs: () => number;
}

/** A subcommand: parses its own argv (after the subcommand name) and returns the exit code. */
export type Command = (argv: readonly string[], io: CliIo) => Promise<number>;
