import { isAbsolute, join, resolve } from 'node:path';
import { type ReceiptStore } from '@heartbeat-kit/core';
import { pausedReceipt, type Pause } from '@heartbeat-kit/core/host';
import { createFilePauseStore } from '@heartbeat-kit/core/node';
import { decideBeatPause, type BeatPauseDecision } from '@heartbeat-kit/woterclip';
import { printInfo } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo, Command } from '../io.js';
import { createPauseCommand, createResumeCommand, type PauseTarget } from './pause.js';

/** WoterClip's pause file: `.woterclip/pause.json` in the repository root. */
export function woterclipPausePath(repoRoot: string): string {
  return join(repoRoot, '.woterclip', 'pause.json');
}

/** Help text of `heartbeat-kit woterclip pause`. */
export const WOTERCLIP_PAUSE_HELP = `Usage: heartbeat-kit woterclip pause --note TEXT [--for DURATION | --until ISO] [options]

Pauses WoterClip beside its quiet hours: a beat inside the pause takes no lock, calls no GitHub,
dispatches nothing and leaves a 'paused' receipt with the note ('woterclip history'); 'woterclip
status' names the pause and 'check-liveness --woterclip' answers "paused until …: note" (exit 0).
Kept in .woterclip/pause.json, written whole by rename. A new pause replaces the old.

Options:
  --note TEXT        why, in one line (required, 1–500 characters)
  --for DURATION     end the pause after this long, e.g. 2h or 90m (a bare number is hours)
  --until ISO        end the pause at this instant (later than now); neither: until 'woterclip resume'
  --except-critical  beats still run, triage-only (as quiet hours with behavior triage-only: only
                     the default persona works)
  --cwd DIR          repository root (default: current directory)
  --now ISO          rehearse as at this instant: print the pause it would write, write nothing
  --json             print {"paused": {…}, "file", "replaced"?}
  -h, --help         show this help

(--scanner is refused: WoterClip has no scanners.)

Exit codes: 0 paused, 2 usage error (nothing written), 3 the pause file cannot be written.
`;

/** Help text of `heartbeat-kit woterclip resume`. */
export const WOTERCLIP_RESUME_HELP = `Usage: heartbeat-kit woterclip resume [options]

Ends WoterClip's pause: the next beat runs. Resuming when nothing is paused is not an error.

Options:
  --cwd DIR          repository root (default: current directory)
  --json             print {"resumed": true|false, "pause"?, "file"}
  -h, --help         show this help

Exit codes: 0 resumed (or nothing was paused), 2 usage error, 3 the pause file cannot be removed.
`;

const locate: PauseTarget['locate'] = (io, values) => {
  if (values.state !== undefined)
    return Promise.resolve({
      ok: false,
      message: '--state is for heartbeat cycles; WoterClip keeps its pause in .woterclip/. Fix: drop --state.',
    });
  const root = values.cwd === undefined ? io.cwd : isAbsolute(values.cwd) ? values.cwd : resolve(io.cwd, values.cwd);
  return Promise.resolve({ ok: true, file: woterclipPausePath(root) });
};

/** `heartbeat-kit woterclip pause`. */
export const woterclipPauseCommand: Command = createPauseCommand({
  command: 'woterclip pause',
  help: WOTERCLIP_PAUSE_HELP,
  scanners: [],
  locate,
});

/** `heartbeat-kit woterclip resume`. */
export const woterclipResumeCommand: Command = createResumeCommand({ command: 'woterclip resume', help: WOTERCLIP_RESUME_HELP, locate });

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
): Promise<number> {
  const { io } = beat;
  const receipt = pausedReceipt(decision.pause, { slotMs: Math.floor(beat.nowMs / 1000) * 1000, atMs: beat.nowMs, source: 'woterclip' });
  const written = beat.dryRun ? undefined : await beat.receipts.append(receipt);
  if (written?.isErr() === true) io.stderr(`heartbeat-kit woterclip beat: cannot write the receipt: ${written.error.message}\n`);
  if (beat.json) io.stdout(`${JSON.stringify({ exit: 'paused', pause: decision.pause, messages: [decision.line], exitCode: EXIT.ok })}\n`);
  else printInfo(io, `WoterClip ${decision.line}. Skipping (resume: heartbeat-kit woterclip resume).\n`);
  return written?.isErr() === true ? EXIT.failure : EXIT.ok;
}
