import { createPause, describePause } from '@heartbeat-kit/core/host';
import { BUILTIN_SCANNERS } from '@heartbeat-kit/scanners';
import { createFilePauseStore, pausePathFor } from '@heartbeat-kit/core/node';
import { err, ok, type Result } from 'neverthrow';
import { commandFailure, defineCommand, usageFailure, type CommandSpec, type DeclaredCommand, type FlagSpec } from '../cli-kernel/index.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { commandClock, parseInstantFlag } from '../wiring/instant.js';
import { loadHeartbeatSettings } from '../wiring/heartbeat-settings.js';
import { locateState } from '../wiring/receipts.js';

type StringFlag = FlagSpec & { readonly type: 'string'; readonly multiple?: false };
type BooleanFlag = FlagSpec & { readonly type: 'boolean'; readonly multiple?: false };

/** The flags every pause command parses (a target that refuses one hides it and says why). */
export interface PauseFlags {
  readonly [name: string]: FlagSpec;
  readonly note: StringFlag;
  readonly for: StringFlag;
  readonly until: StringFlag;
  readonly scanner: FlagSpec & { readonly type: 'string'; readonly multiple: true };
  readonly 'except-critical': BooleanFlag;
  readonly cwd: StringFlag;
  readonly state: StringFlag;
  readonly now: StringFlag;
  readonly json: BooleanFlag;
}

/** The flags every resume command parses. */
export interface ResumeFlags {
  readonly [name: string]: FlagSpec;
  readonly cwd: StringFlag;
  readonly state: StringFlag;
  readonly json: BooleanFlag;
}

const STATE_FLAG: StringFlag = { type: 'string', value: 'FILE', help: "the state file the pause sits beside (default: as 'cycle')" };
const CWD_FLAG: StringFlag = {
  type: 'string',
  value: 'DIR',
  help: "a directory of the project's git repository (default: current directory)",
};

/** The pause flags as `heartbeat-kit pause` declares them. */
export const PAUSE_FLAGS: PauseFlags = {
  note: { type: 'string', value: 'TEXT', help: 'why, in one line (required, 1–500 characters): shown in every paused receipt' },
  for: { type: 'string', value: 'DURATION', help: 'end the pause after this long, e.g. 2h or 90m (a bare number is hours)' },
  until: {
    type: 'string',
    value: 'ISO',
    help: `end the pause at this instant, e.g. 2026-02-19T18:00:00Z (must be later than now)
(neither: the pause lasts until 'heartbeat-kit resume'; check-liveness warns
once it is older than --max-pause-age, default 24h)`,
  },
  scanner: {
    type: 'string',
    multiple: true,
    value: 'NAME',
    help: `pause only this scanner (repeatable): the others run, and every cycle says
the paused ones were not looked at (one of: ${BUILTIN_SCANNERS.join(', ')},
or the name of a check in HEARTBEAT.md's ## Checks)`,
  },
  'except-critical': {
    type: 'boolean',
    help: `keep P0/P1 (Immediate) findings, orchestrator failures and GChat replies
flowing: slots run and report only those; everything else waits for resume`,
  },
  cwd: CWD_FLAG,
  state: STATE_FLAG,
  now: { type: 'string', value: 'ISO', help: 'rehearse as at this instant: print the pause it would write, write nothing' },
  json: { type: 'boolean', help: 'print {"paused": {note, since, until?, scanners?, exceptCritical?}, "file", "replaced"?}' },
};

/** The resume flags as `heartbeat-kit resume` declares them. */
export const RESUME_FLAGS: ResumeFlags = {
  cwd: CWD_FLAG,
  state: STATE_FLAG,
  json: { type: 'boolean', help: 'print {"resumed": true|false, "pause"?: the pause that ended, "file"}' },
};

/** Where a pause sits: its file and more names `--scanner` accepts there (the project's checks). */
export interface PauseLocation {
  readonly file: string;
  readonly scanners?: readonly string[];
}

/** Where a pause command keeps its pause, and what it may pause. */
export interface PauseTarget {
  /** Scanner names `--scanner` accepts (none: `--scanner` is refused). */
  readonly scanners: readonly string[];
  /** The pause file for these flags, or a usage error's message. */
  readonly locate: (io: CliIo, values: { cwd?: string | undefined; state?: string | undefined }) => Promise<Result<PauseLocation, string>>;
}

/** A `pause` command over a target: every flag is checked before anything is written. */
export function createPauseCommand(target: PauseTarget, spec: CommandSpec<PauseFlags>): DeclaredCommand<PauseFlags> {
  const command = spec.name;
  return defineCommand(spec, async ({ flags: values, io }) => {
    const now = parseInstantFlag('--now', values.now);
    if (now.isErr()) return usageFailure(now.error);
    if (target.scanners.length === 0 && values.scanner !== undefined)
      return usageFailure(
        `--scanner: ${command} has no scanners to pause. Fix: drop --scanner (pause the whole beat, or --except-critical for triage only).`,
      );
    const located = await target.locate(io, values);
    if (located.isErr()) return usageFailure(located.error);
    const { file } = located.value;
    const made = createPause(
      { note: values.note, for: values.for, until: values.until, scanners: values.scanner, exceptCritical: values['except-critical'] },
      commandClock(io, now.value).now().getTime(),
      [...target.scanners, ...(located.value.scanners ?? [])],
    );
    if (made.isErr()) return usageFailure(`${made.error.flag}: ${made.error.message}`);
    // A pause at another instant is a rehearsal, like `cycle --now`: a written pause would stop real slots.
    if (now.value !== undefined) {
      io.stderr(`heartbeat-kit ${command}: rehearsal at ${now.value.toISOString()} (--now): nothing was written.\n`);
      if (values.json === true) io.stdout(`${JSON.stringify({ paused: made.value, file, rehearsal: true })}\n`);
      else io.stdout(`would pause: ${describePause(made.value)}\n`);
      return ok(EXIT.ok);
    }
    const store = createFilePauseStore({ path: file });
    const before = await store.read();
    const written = await store.write(made.value);
    if (written.isErr()) return commandFailure(`${written.error.message}. Fix: check that the directory of ${file} is writable.`);
    const replaced = before.isOk() ? before.value : undefined;
    if (values.json === true)
      io.stdout(`${JSON.stringify({ paused: made.value, file, ...(replaced === undefined ? {} : { replaced }) })}\n`);
    else {
      if (replaced !== undefined) io.stdout(`replaced the earlier pause (${describePause(replaced)})\n`);
      io.stdout(`${describePause(made.value)}\n`);
    }
    return ok(EXIT.ok);
  });
}

/** A `resume` command over a target: ends its pause; the next slot or beat runs. */
export function createResumeCommand(target: Omit<PauseTarget, 'scanners'>, spec: CommandSpec<ResumeFlags>): DeclaredCommand<ResumeFlags> {
  return defineCommand(spec, async ({ flags: values, io }) => {
    const located = await target.locate(io, values);
    if (located.isErr()) return usageFailure(located.error);
    const { file } = located.value;
    const cleared = await createFilePauseStore({ path: file }).clear();
    if (cleared.isErr()) return commandFailure(`${cleared.error.message}. Fix: check that the directory of ${file} is writable.`);
    const pause = cleared.value;
    if (values.json === true)
      io.stdout(`${JSON.stringify({ resumed: pause !== undefined, ...(pause === undefined ? {} : { pause }), file })}\n`);
    else io.stdout(pause === undefined ? 'not paused: nothing to resume\n' : `resumed: ended the pause (${describePause(pause)})\n`);
    return ok(EXIT.ok);
  });
}

const locateHeartbeatPause: PauseTarget['locate'] = async (io, values) => {
  const located = await locateState(io, values);
  if (located.isErr()) return err(located.error);
  // The project's checks can be paused by name too. A HEARTBEAT.md that does not load leaves the
  // built-ins: an operator may be pausing because the config is broken.
  const settings = await loadHeartbeatSettings(located.value.configDir, undefined, io.env);
  const checks = settings.isOk() ? settings.value.config.checks.map((check) => check.name) : [];
  return ok({ file: pausePathFor(located.value.statePath), scanners: checks });
};

/** `heartbeat-kit pause`: stores an operator pause beside the state. */
export const pauseCommand = createPauseCommand(
  { scanners: BUILTIN_SCANNERS, locate: locateHeartbeatPause },
  {
    name: 'pause',
    usage: '--note TEXT [--for DURATION | --until ISO] [options]',
    description: `Pauses this project's heartbeat without stopping its scheduler: every slot of 'cycle' and 'loop'
in the pause writes a 'paused' receipt with the note instead of running ('history' lists them),
'plan' shows the window, and 'check-liveness' answers "paused until …: note" and exits 0 (a pause
is not a death). The pause lives beside the state (state.pause.json), written whole by rename: a
cycle running while it is written honours all of it or none of it. A new pause replaces the old.`,
    flags: PAUSE_FLAGS,
    exitCodes: [
      [EXIT.ok, 'paused'],
      [EXIT.usage, 'usage error (an invalid flag: nothing is written; or DIR is not in a git repository)'],
      [EXIT.failure, 'the pause file cannot be written'],
    ],
  },
);

/** `heartbeat-kit resume`: ends the operator pause; the next slot runs. */
export const resumeCommand = createResumeCommand(
  { locate: locateHeartbeatPause },
  {
    name: 'resume',
    usage: '[options]',
    description: `Ends this project's pause (see 'heartbeat-kit pause'): the next slot runs as usual. Resuming when
nothing is paused is not an error. A damaged pause file is removed too.`,
    flags: RESUME_FLAGS,
    exitCodes: [
      [EXIT.ok, 'resumed (or nothing was paused)'],
      [EXIT.usage, 'usage error'],
      [EXIT.failure, 'the pause file cannot be removed'],
    ],
  },
);
