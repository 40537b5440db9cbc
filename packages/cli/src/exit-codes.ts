import type { BeatExit } from '@heartbeat-kit/woterclip';

/**
 * Every exit code the `heartbeat-kit` binary can end with. Commands return one of these; the
 * libraries return typed outcomes (a `BeatExit`, a `Result`) and the CLI maps them here, so no
 * package below the CLI knows a process exit code.
 */
export const EXIT = {
  /** Success (including a quiet cycle and a cycle that reported). */
  ok: 0,
  /** The command ran and its answer is "no" (e.g. `runbook check` rejected the file). */
  rejected: 1,
  /** Bad usage or an invalid config file: a one-line error names the fix. */
  usage: 2,
  /** Something outside the user's input failed (I/O, a tool). */
  failure: 3,
  /**
   * Nothing was done because another live run holds the cycle lock (`cycle`). Not 0, so cron
   * and supervisors notice a heartbeat that keeps skipping; the reason is on stderr.
   */
  skipped: 4,
  /** A bug: an error no command anticipated (BSD `EX_SOFTWARE`); its stack trace is on stderr. */
  internal: 70,
  /**
   * `cycle` was cut off by a second Ctrl-C (SIGINT; the first lets it finish) or `woterclip beat` was
   * stopped by Ctrl-C: 128 + 2, as a shell reports it, so `cycle && next` stops too.
   */
  interrupted: 130,
  /** As {@link EXIT.interrupted}, for SIGTERM (a supervisor, `timeout`): 128 + 15. */
  terminated: 143,
} as const;

/** One of the codes in {@link EXIT}. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** One row of {@link EXIT_CODE_TABLE}. */
export interface ExitCodeRow {
  readonly code: ExitCode;
  readonly name: keyof typeof EXIT;
  /** What the code means, for every command; each command's `--help` says its own cases. */
  readonly meaning: string;
}

/**
 * The complete table: every code the binary exits with and its meaning. docs/reference/cli.md
 * prints it; a test checks that every command's `--help` names only these codes.
 */
export const EXIT_CODE_TABLE: readonly ExitCodeRow[] = [
  {
    code: EXIT.ok,
    name: 'ok',
    meaning: 'done: the cycle ran (quiet or reported), the loop stopped cleanly, the beat ran or skipped as planned',
  },
  {
    code: EXIT.rejected,
    name: 'rejected',
    meaning:
      'the command ran and its answer is "no": not alive, a file exists, decisions differ, a runbook is rejected, ' +
      'a WoterClip beat is blocked (run gh auth login)',
  },
  { code: EXIT.usage, name: 'usage', meaning: 'bad usage or an invalid config file; a one-line error names the fix' },
  {
    code: EXIT.failure,
    name: 'failure',
    meaning:
      'something outside the input failed: I/O, a lock, a receipt, delivery (failed, or held back by the sink breaker), a tool, Redis; or state written by a newer version',
  },
  {
    code: EXIT.skipped,
    name: 'skipped',
    meaning: '`cycle` did nothing because another live cycle holds the cycle lock (who and why on stderr)',
  },
  {
    code: EXIT.internal,
    name: 'internal',
    meaning:
      'a bug in heartbeat-kit: an error no command anticipated; stderr says "internal error" with the stack trace (please report it). ' +
      'Kept apart from 1 so that a crash is never read as a "no"',
  },
  {
    code: EXIT.interrupted,
    name: 'interrupted',
    meaning:
      '`cycle` was cut off by a second Ctrl-C (SIGINT, 128 + 2): it still evaluates and saves what it scanned (what the signal cut off was not looked at). ' +
      'After a first signal alone the cycle finishes its scan, delivers and exits with its own code. `woterclip beat` stopped by Ctrl-C: it writes no beat line and releases its lock',
  },
  {
    code: EXIT.terminated,
    name: 'terminated',
    meaning: '`cycle` cut off by a second SIGTERM, or `woterclip beat` stopped by SIGTERM (128 + 15), as with Ctrl-C',
  },
];

/**
 * The exit code of a run stopped by the user or a supervisor: 130 after SIGINT, 143 after SIGTERM
 * (the binary aborts the shutdown signal with the signal's name as its reason); undefined when no
 * such signal arrived (a reader closing stdout also stops a run, and that is not a failure).
 */
export function stopSignalExit(signal: AbortSignal): ExitCode | undefined {
  if (!signal.aborted) return undefined;
  if (signal.reason === 'SIGINT') return EXIT.interrupted;
  if (signal.reason === 'SIGTERM') return EXIT.terminated;
  return undefined;
}

/**
 * The exit code of a WoterClip beat. Every stop is 0 except `blocked-exit` (a human must act, e.g.
 * `gh auth login`). `lock-conflict` is 0 on purpose: a cron schedule overlapping a long beat is
 * expected, and a non-zero code would page someone on every overlap; the message still says so.
 * `breaker-open` is 0 for the same reason: the dispatch breaker's advisory was said once, when it
 * tripped, and every held-back beat says so on stdout and in its receipt.
 */
export function beatExitCode(exit: BeatExit): ExitCode {
  switch (exit) {
    case 'blocked-exit':
      return EXIT.rejected;
    case 'config-missing':
    case 'config-invalid':
    case 'usage':
      return EXIT.usage;
    case 'lock-error':
      return EXIT.failure;
    case 'interrupted':
      return EXIT.interrupted;
    case 'lock-conflict':
    case 'breaker-open':
    case 'quiet-hours':
    case 'dry-run':
    case 'queue-empty':
    case 'complete':
    case 'superseded':
    case 'withdrawn':
    case 'time-ceiling':
    case 'issue-budget':
      return EXIT.ok;
  }
}
