import type { CycleOutcome, LoopOptions } from '@heartbeat-kit/core';
import { receiptForSkippedSlots, runSlot, type SkippedSlots, type SlotRun } from '@heartbeat-kit/core/host';
import { printInfo } from '../../errors.js';
import { endPingEvent, outcomeExitCode, withPingFailures } from '../../pings/ping-outcome.js';
import { cycleLockPath, cycleSlotLock, describeHolder, skipReason } from '../../wiring/cycle-lock.js';
import { readPauseDecision } from '../../wiring/pause-file.js';
import { appendReceipt, sayUnwritten } from '../../wiring/receipts.js';
import type { LoopSession } from './loop-session.js';

type Guard = NonNullable<LoopOptions['guard']>;

/** Says how a slot the guard ran ended; the outcome `runLoop` goes on with (undefined: none ran). */
async function sayGuardEnd(
  session: LoopSession,
  ran: SlotRun,
  slotMs: number,
  refused: CycleOutcome | undefined,
): Promise<CycleOutcome | undefined> {
  const { io, json, statePath, live } = session;
  const end = ran.end;
  if (end.kind === 'paused' && live.paused.kind === 'skip') {
    await session.exportTextfile();
    if (json) io.stdout(`${JSON.stringify({ type: 'paused', slot: new Date(slotMs).toISOString(), pause: live.paused.pause })}\n`);
    else printInfo(io, `heartbeat-kit loop: ${live.paused.line}; this slot did not run (nothing looked at).\n`);
    return undefined;
  }
  if (end.kind === 'ran' || end.kind === 'state-refused') {
    if (ran.tookOverFrom !== undefined)
      printInfo(
        io,
        `heartbeat-kit loop: took over ${cycleLockPath(statePath)} from ${describeHolder(ran.tookOverFrom, undefined, Date.now())} (stale).\n`,
      );
    return end.kind === 'ran' ? end.outcome : refused;
  }
  await session.exportTextfile();
  // Another live cycle holding the slot is the lock working as meant; a lock that cannot be taken is an error.
  if (end.kind === 'overlapping' && end.holder !== undefined)
    printInfo(
      io,
      `heartbeat-kit loop: this slot is skipped: ${skipReason(statePath, { kind: 'held', holder: end.holder, liveness: end.liveness ?? 'unknown' }, Date.now())}.\n`,
    );
  else if (end.kind === 'lock-unavailable')
    io.stderr(
      `heartbeat-kit loop: this slot is skipped: cannot take the cycle lock ${cycleLockPath(statePath)}: ${end.error === undefined || end.error.kind === 'held' ? 'held' : end.error.message}\n`,
    );
  return undefined;
}

/**
 * The loop's guard around every cycle: the same lock as `cycle` (a cron cycle and this loop never
 * evaluate one state at once; a rehearsal writes nothing, so it takes none), the operator's pause
 * read under the lock (all of a pause written meanwhile, or none of it), and the slot's receipt.
 */
export function loopGuard(session: LoopSession): Guard {
  const { io, statePath, live, pinger } = session;
  return async (cycle, slotMs) => {
    live.inFlight = true;
    let refused: CycleOutcome | undefined;
    const ran = await runSlot(
      { clock: session.deps.clock, receipts: session.receipts, lock: session.rehearsal ? undefined : cycleSlotLock(statePath) },
      {
        source: 'loop',
        slotMs,
        checks: live.current.config.checks.map((c) => c.name),
        pause: async (nowMs) => (live.paused = await readPauseDecision(statePath, nowMs, io, 'loop')),
        run: async (pause) => {
          pinger?.start(slotMs);
          const outcome = await cycle(pause.kind === 'partial' ? { pause } : undefined);
          if (outcome.refused !== undefined) refused = outcome;
          return outcome;
        },
        // The off-host monitor hears how the slot ended before its receipt, so a failed ping is in it.
        beforeReceipt: async (end, receipt) => {
          // The lock is let go: what is left (ping, receipt) is not a scan a first signal waits for.
          live.inFlight = false;
          // A paused slot is the operator's choice, not an outage: the monitor hears a success that says so.
          if (end.kind === 'paused')
            return withPingFailures(
              receipt,
              await pinger?.end(slotMs, { kind: 'end', result: { kind: 'success' }, summary: `paused: ${end.line ?? ''}` }),
            );
          if (end.kind !== 'ran') return receipt;
          return withPingFailures(receipt, await pinger?.end(slotMs, endPingEvent(end.outcome, outcomeExitCode(end.outcome))));
        },
      },
    ).finally(() => (live.inFlight = false));
    for (const unwritten of ran.unwritten) sayUnwritten(unwritten, statePath, io, 'loop');
    return sayGuardEnd(session, ran, slotMs, refused);
  };
}

/** Slots the loop missed (down, asleep, catch-up cap): one receipt for them, said with --json. */
export function loopOnSkipped(session: LoopSession): (slots: SkippedSlots) => Promise<void> {
  const { io, json, statePath } = session;
  return async (slots) => {
    await appendReceipt(session.receipts, receiptForSkippedSlots(slots, session.deps.clock.now().getTime(), 'loop'), statePath, io, 'loop');
    await session.exportTextfile();
    if (json)
      io.stdout(
        `${JSON.stringify({ type: 'skipped', from: new Date(slots.fromMs).toISOString(), through: new Date(slots.throughMs).toISOString(), count: slots.count, reason: slots.reason, detail: slots.detail })}\n`,
      );
  };
}
