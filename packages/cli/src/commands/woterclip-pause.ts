import { isAbsolute, join, resolve } from 'node:path';
import type { ReceiptStore } from '@heartbeat-kit/core';
import { type Pause, settleSlot } from '@heartbeat-kit/core/host';
import { createFilePauseStore } from '@heartbeat-kit/core/node';
import { decideBeatPause, type BeatPauseDecision } from '@heartbeat-kit/woterclip';
import { printInfo } from '../errors.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { err, ok } from 'neverthrow';
import type { CliIo } from '../io.js';
import { createPauseCommand, createResumeCommand, PAUSE_FLAGS, RESUME_FLAGS, type PauseTarget } from './pause.js';

/** WoterClip's pause file: `.woterclip/pause.json` in the repository root. */
export function woterclipPausePath(repoRoot: string): string {
  return join(repoRoot, '.woterclip', 'pause.json');
}

const locate: PauseTarget['locate'] = (io, values) => {
  if (values.state !== undefined)
    return Promise.resolve(err('--state is for heartbeat cycles; WoterClip keeps its pause in .woterclip/. Fix: drop --state.'));
  const root = values.cwd === undefined ? io.cwd : isAbsolute(values.cwd) ? values.cwd : resolve(io.cwd, values.cwd);
  return Promise.resolve(ok({ file: woterclipPausePath(root) }));
};

const ROOT_FLAG = { type: 'string', value: 'DIR', help: 'repository root (default: current directory)' } as const;

/** `heartbeat-kit woterclip pause`. */
export const woterclipPauseCommand = createPauseCommand(
  { scanners: [], locate },
  {
    name: 'woterclip pause',
    usage: '--note TEXT [--for DURATION | --until ISO] [options]',
    description: `Pauses WoterClip beside its quiet hours: a beat inside the pause takes no lock, calls no GitHub,
dispatches nothing and leaves a 'paused' receipt with the note ('woterclip history'); 'woterclip
status' names the pause and 'check-liveness --woterclip' answers "paused until …: note" (exit 0).
Kept in .woterclip/pause.json, written whole by rename. A new pause replaces the old.`,
    flags: {
      ...PAUSE_FLAGS,
      note: { ...PAUSE_FLAGS.note, help: 'why, in one line (required, 1–500 characters)' },
      until: { ...PAUSE_FLAGS.until, help: "end the pause at this instant (later than now); neither: until 'woterclip resume'" },
      scanner: { ...PAUSE_FLAGS.scanner, hidden: true },
      'except-critical': {
        ...PAUSE_FLAGS['except-critical'],
        help: `beats still run, triage-only (as quiet hours with behavior triage-only: only
the default persona works)`,
      },
      cwd: ROOT_FLAG,
      state: { ...PAUSE_FLAGS.state, hidden: true },
      json: { ...PAUSE_FLAGS.json, help: 'print {"paused": {…}, "file", "replaced"?}' },
    },
    notes: '(--scanner is refused: WoterClip has no scanners.)',
    exitCodes: [
      [EXIT.ok, 'paused'],
      [EXIT.usage, 'usage error (nothing written)'],
      [EXIT.failure, 'the pause file cannot be written'],
    ],
  },
);

/** `heartbeat-kit woterclip resume`. */
export const woterclipResumeCommand = createResumeCommand(
  { locate },
  {
    name: 'woterclip resume',
    usage: '[options]',
    description: "Ends WoterClip's pause: the next beat runs. Resuming when nothing is paused is not an error.",
    flags: {
      ...RESUME_FLAGS,
      cwd: ROOT_FLAG,
      state: { ...RESUME_FLAGS.state, hidden: true },
      json: { ...RESUME_FLAGS.json, help: 'print {"resumed": true|false, "pause"?, "file"}' },
    },
    exitCodes: [
      [EXIT.ok, 'resumed (or nothing was paused)'],
      [EXIT.usage, 'usage error'],
      [EXIT.failure, 'the pause file cannot be removed'],
    ],
  },
);

/** WoterClip's stored pause; a file that cannot be read is ignored with a warning (a damaged pause never stops the beats). */
export async function readWoterclipPause(repoRoot: string, io: CliIo, command: string): Promise<Pause | undefined> {
  const read = await createFilePauseStore({ path: woterclipPausePath(repoRoot) }).read();
  if (read.isOk()) return read.value;
  io.stderr(`heartbeat-kit ${command}: warning: the pause is ignored: ${read.error.message}\n`);
  return undefined;
}

/** The beat's pause decision at `nowMs`. */
export async function beatPause(repoRoot: string, nowMs: number, io: CliIo): Promise<BeatPauseDecision> {
  return decideBeatPause(await readWoterclipPause(repoRoot, io, 'woterclip beat'), nowMs);
}

/** A beat the pause skipped whole: a `paused` receipt (none for a dry run), exit 0. */
export async function pausedBeat(
  decision: Extract<BeatPauseDecision, { kind: 'skip' }>,
  beat: { io: CliIo; receipts: ReceiptStore; nowMs: number; json: boolean; dryRun: boolean },
): Promise<ExitCode> {
  const { io } = beat;
  // Before the beat's walk (a whole pause skips before the config is used or the lock taken), but
  // through the one ending-to-receipt step every runner settles its slot with.
  const { recorded: written } = await settleSlot({
    body: () => Promise.resolve({ end: { kind: 'paused' as const, pause: decision.pause, line: decision.line } }),
    stamp: () => ({ slotMs: Math.floor(beat.nowMs / 1000) * 1000, atMs: beat.nowMs, source: 'woterclip' }),
    record: async ({ receipt }) => (beat.dryRun || receipt === undefined ? undefined : beat.receipts.append(receipt)),
  });
  if (written?.isErr() === true) io.stderr(`heartbeat-kit woterclip beat: cannot write the receipt: ${written.error.message}\n`);
  if (beat.json) io.stdout(`${JSON.stringify({ exit: 'paused', pause: decision.pause, messages: [decision.line], exitCode: EXIT.ok })}\n`);
  else printInfo(io, `WoterClip ${decision.line}. Skipping (resume: heartbeat-kit woterclip resume).\n`);
  return written?.isErr() === true ? EXIT.failure : EXIT.ok;
}
