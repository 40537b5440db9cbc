import { parseArgs } from 'node:util';
import { BUILTIN_SCANNERS, createPause, describePause } from '@heartbeat-kit/core/host';
import { createFilePauseStore, pausePathFor } from '@heartbeat-kit/core/node';
import { EXIT } from '../exit-codes.js';
import type { CliIo, Command } from '../io.js';
import { commandClock, parseInstantFlag } from '../wiring/instant.js';
import { loadHeartbeatSettings } from '../wiring/heartbeat-settings.js';
import { locateState } from '../wiring/receipts.js';

/** Help text of `heartbeat-kit pause`. */
export const PAUSE_HELP = `Usage: heartbeat-kit pause --note TEXT [--for DURATION | --until ISO] [options]

Pauses this project's heartbeat without stopping its scheduler: every slot of 'cycle' and 'loop'
in the pause writes a 'paused' receipt with the note instead of running ('history' lists them),
'plan' shows the window, and 'check-liveness' answers "paused until …: note" and exits 0 (a pause
is not a death). The pause lives beside the state (state.pause.json), written whole by rename: a
cycle running while it is written honours all of it or none of it. A new pause replaces the old.

Options:
  --note TEXT        why, in one line (required, 1–500 characters): shown in every paused receipt
  --for DURATION     end the pause after this long, e.g. 2h or 90m (a bare number is hours)
  --until ISO        end the pause at this instant, e.g. 2026-02-19T18:00:00Z (must be later than now)
                     (neither: the pause lasts until 'heartbeat-kit resume'; check-liveness warns
                     once it is older than --max-pause-age, default 24h)
  --scanner NAME     pause only this scanner (repeatable): the others run, and every cycle says
                     the paused ones were not looked at (one of: ${BUILTIN_SCANNERS.join(', ')},
                     or the name of a check in HEARTBEAT.md's ## Checks)
  --except-critical  keep P0/P1 (Immediate) findings, orchestrator failures and GChat replies
                     flowing: slots run and report only those; everything else waits for resume
  --cwd DIR          a directory of the project's git repository (default: current directory)
  --state FILE       the state file the pause sits beside (default: as 'cycle')
  --now ISO          rehearse as at this instant: print the pause it would write, write nothing
  --json             print {"paused": {note, since, until?, scanners?, exceptCritical?}, "file", "replaced"?}
  -h, --help         show this help

Exit codes: 0 paused, 2 usage error (an invalid flag: nothing is written; or DIR is not in a git
repository), 3 the pause file cannot be written.
`;

/** Help text of `heartbeat-kit resume`. */
export const RESUME_HELP = `Usage: heartbeat-kit resume [options]

Ends this project's pause (see 'heartbeat-kit pause'): the next slot runs as usual. Resuming when
nothing is paused is not an error. A damaged pause file is removed too.

Options:
  --cwd DIR          a directory of the project's git repository (default: current directory)
  --state FILE       the state file the pause sits beside (default: as 'cycle')
  --json             print {"resumed": true|false, "pause"?: the pause that ended, "file"}
  -h, --help         show this help

Exit codes: 0 resumed (or nothing was paused), 2 usage error, 3 the pause file cannot be removed.
`;

const PAUSE_OPTIONS = {
  note: { type: 'string' },
  for: { type: 'string' },
  until: { type: 'string' },
  scanner: { type: 'string', multiple: true },
  'except-critical': { type: 'boolean' },
  cwd: { type: 'string' },
  state: { type: 'string' },
  now: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const RESUME_OPTIONS = {
  cwd: { type: 'string' },
  state: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

function usageError(io: CliIo, command: string, message: string): number {
  io.stderr(`heartbeat-kit ${command}: ${message}\n`);
  return EXIT.usage;
}

/** Where a pause command keeps its pause, and what it may pause. */
export interface PauseTarget {
  /** `pause` or `woterclip pause`, for messages. */
  readonly command: string;
  readonly help: string;
  /** Scanner names `--scanner` accepts (none: `--scanner` is refused). */
  readonly scanners: readonly string[];
  /**
   * The pause file for these flags, or a usage error; `scanners`: more names `--scanner` accepts
   * there (the project's HEARTBEAT.md checks).
   */
  readonly locate: (
    io: CliIo,
    values: { cwd?: string | undefined; state?: string | undefined },
  ) => Promise<{ ok: true; file: string; scanners?: readonly string[] } | { ok: false; message: string }>;
}

/** A `pause` command over a target: every flag is checked before anything is written. */
export function createPauseCommand(target: PauseTarget): Command {
  return async (argv, io) => {
    const command = target.command;
    let values;
    try {
      ({ values } = parseArgs({ args: [...argv], options: PAUSE_OPTIONS, strict: true, allowPositionals: false }));
    } catch (error) {
      return usageError(io, command, `${(error as Error).message}. Fix: see 'heartbeat-kit ${command} --help'.`);
    }
    if (values.help) {
      io.stdout(target.help);
      return EXIT.ok;
    }
    const now = parseInstantFlag('--now', values.now);
    if (!now.ok) return usageError(io, command, now.message);
    if (target.scanners.length === 0 && values.scanner !== undefined)
      return usageError(
        io,
        command,
        `--scanner: ${command} has no scanners to pause. Fix: drop --scanner (pause the whole beat, or --except-critical for triage only).`,
      );
    const located = await target.locate(io, values);
    if (!located.ok) return usageError(io, command, located.message);
    const { file } = located;
    const made = createPause(
      { note: values.note, for: values.for, until: values.until, scanners: values.scanner, exceptCritical: values['except-critical'] },
      commandClock(io, now.date).now().getTime(),
      [...target.scanners, ...(located.scanners ?? [])],
    );
    if (made.isErr()) return usageError(io, command, `${made.error.flag}: ${made.error.message}`);
    // A pause at another instant is a rehearsal, like `cycle --now`: a written pause would stop real slots.
    if (now.date !== undefined) {
      io.stderr(`heartbeat-kit ${command}: rehearsal at ${now.date.toISOString()} (--now): nothing was written.\n`);
      if (values.json === true) io.stdout(`${JSON.stringify({ paused: made.value, file, rehearsal: true })}\n`);
      else io.stdout(`would pause: ${describePause(made.value)}\n`);
      return EXIT.ok;
    }
    const store = createFilePauseStore({ path: file });
    const before = await store.read();
    const written = await store.write(made.value);
    if (written.isErr()) {
      io.stderr(`heartbeat-kit ${command}: ${written.error.message}. Fix: check that the directory of ${file} is writable.\n`);
      return EXIT.failure;
    }
    const replaced = before.isOk() ? before.value : undefined;
    if (values.json === true)
      io.stdout(`${JSON.stringify({ paused: made.value, file, ...(replaced === undefined ? {} : { replaced }) })}\n`);
    else {
      if (replaced !== undefined) io.stdout(`replaced the earlier pause (${describePause(replaced)})\n`);
      io.stdout(`${describePause(made.value)}\n`);
    }
    return EXIT.ok;
  };
}

/** A `resume` command over a target: ends its pause; the next slot or beat runs. */
export function createResumeCommand(target: Omit<PauseTarget, 'scanners'>): Command {
  return async (argv, io) => {
    const command = target.command;
    let values;
    try {
      ({ values } = parseArgs({ args: [...argv], options: RESUME_OPTIONS, strict: true, allowPositionals: false }));
    } catch (error) {
      return usageError(io, command, `${(error as Error).message}. Fix: see 'heartbeat-kit ${command} --help'.`);
    }
    if (values.help) {
      io.stdout(target.help);
      return EXIT.ok;
    }
    const located = await target.locate(io, values);
    if (!located.ok) return usageError(io, command, located.message);
    const { file } = located;
    const cleared = await createFilePauseStore({ path: file }).clear();
    if (cleared.isErr()) {
      io.stderr(`heartbeat-kit ${command}: ${cleared.error.message}. Fix: check that the directory of ${file} is writable.\n`);
      return EXIT.failure;
    }
    const pause = cleared.value;
    if (values.json === true)
      io.stdout(`${JSON.stringify({ resumed: pause !== undefined, ...(pause === undefined ? {} : { pause }), file })}\n`);
    else io.stdout(pause === undefined ? 'not paused: nothing to resume\n' : `resumed: ended the pause (${describePause(pause)})\n`);
    return EXIT.ok;
  };
}

const locateHeartbeatPause: PauseTarget['locate'] = async (io, values) => {
  const located = await locateState(io, values);
  if (!located.ok) return located;
  // The project's checks can be paused by name too. A HEARTBEAT.md that does not load leaves the
  // built-ins: an operator may be pausing because the config is broken.
  const settings = await loadHeartbeatSettings(located.configDir, undefined, io.env);
  const checks = settings.ok ? settings.value.config.checks.map((check) => check.name) : [];
  return { ok: true, file: pausePathFor(located.statePath), scanners: checks };
};

/** `heartbeat-kit pause`: stores an operator pause beside the state. */
export const pauseCommand: Command = createPauseCommand({
  command: 'pause',
  help: PAUSE_HELP,
  scanners: BUILTIN_SCANNERS,
  locate: locateHeartbeatPause,
});

/** `heartbeat-kit resume`: ends the operator pause; the next slot runs. */
export const resumeCommand: Command = createResumeCommand({ command: 'resume', help: RESUME_HELP, locate: locateHeartbeatPause });
