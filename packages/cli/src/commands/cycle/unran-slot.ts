import { dirname } from 'node:path';
import { err, ok, type Result } from 'neverthrow';
import type { CommandFailure } from '../../cli-kernel/index.js';
import { printInfo, withFix } from '../../errors.js';
import { EXIT, type ExitCode } from '../../exit-codes.js';
import type { CliIo } from '../../io.js';
import { skipReason } from '../../wiring/cycle-lock.js';
import type { CycleSlot } from './cycle-slot.js';

/** How the command reports a slot: where, and in which form. */
export interface SlotSaying {
  readonly io: CliIo;
  readonly json: boolean;
  readonly dryRun: boolean;
  readonly statePath: string;
}

/** A slot the operator's pause skipped whole: its `paused` receipt (none for a dry run) said, exit 0. */
function pausedSlot(slot: CycleSlot, saying: SlotSaying): ExitCode {
  const { paused, ran } = slot;
  if (paused.kind !== 'skip') return EXIT.internal;
  const { io, json, dryRun } = saying;
  if (json)
    io.stdout(
      `${JSON.stringify({ status: 'paused', slot: ran.receipt.slot, pause: paused.pause, ...(dryRun ? { dryRun: true } : {}) })}\n`,
    );
  else printInfo(io, `heartbeat-kit cycle: ${paused.line}; this slot did not run (nothing looked at). Resume: heartbeat-kit resume.\n`);
  return ran.written ? EXIT.ok : EXIT.failure;
}

/** Nothing ran: the stored state stays exactly as it was, and the slot's receipt says why. */
function refusedSlot(slot: CycleSlot, saying: SlotSaying): ExitCode {
  const { io, json, statePath } = saying;
  const refused = slot.outcome?.refused;
  for (const warning of slot.outcome?.warnings ?? []) io.stderr(`heartbeat-kit cycle: warning: ${warning}\n`);
  io.stderr(`heartbeat-kit cycle: ${statePath}: ${refused?.message ?? slot.ran.end.kind}.\n`);
  if (json && refused !== undefined)
    io.stdout(
      `${JSON.stringify({ status: 'refused', reason: refused.reason, ...(refused.version === undefined ? {} : { version: refused.version }), message: refused.message })}\n`,
    );
  return EXIT.failure;
}

/**
 * The exit of a slot whose cycle did not run (another cycle holds the lock, the lock cannot be
 * taken, a pause, a state file it must not touch), said as `cycle` says it; undefined when it ran.
 */
export function unranSlotExit(slot: CycleSlot, saying: SlotSaying): Result<ExitCode, CommandFailure> | undefined {
  const { io, json, statePath } = saying;
  const end = slot.ran.end;
  if (end.kind === 'overlapping') {
    const holder = end.holder ?? { owner: '?', acquiredAtMs: 0 };
    const reason = skipReason(statePath, { kind: 'held', holder, liveness: end.liveness ?? 'unknown' }, Date.now());
    printInfo(io, `heartbeat-kit cycle: skipped: ${reason}.\n`);
    if (json) io.stdout(`${JSON.stringify({ status: 'skipped', reason, holder: { ...end.holder, liveness: end.liveness } })}\n`);
    return ok(EXIT.skipped);
  }
  if (end.kind === 'lock-unavailable') {
    const message = end.error === undefined || end.error.kind === 'held' ? 'held' : end.error.message;
    return err({
      exit: EXIT.failure,
      message: `cannot take the cycle lock: ${withFix(message, `check that ${dirname(statePath)} is writable.`)}`,
    });
  }
  if (end.kind === 'paused') return ok(pausedSlot(slot, saying));
  if (end.kind !== 'ran' || slot.outcome === undefined) return ok(refusedSlot(slot, saying));
  return undefined;
}
