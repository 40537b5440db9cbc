import { futureRecordedSlotMs, lastRecordedSlotMs } from '@heartbeat-kit/core/host';
import { receiptsDirectoryFor } from '@heartbeat-kit/core/node';
import { printInfo } from '../../errors.js';
import type { LoopSession } from './loop-session.js';

/**
 * Reads the receipts where a restart resumes and says what they mean for the first cycle; the
 * newest slot recorded (undefined: none, or they cannot be read, which is a warning).
 */
export async function readLoopStart(
  session: Pick<LoopSession, 'io' | 'json' | 'statePath' | 'receipts' | 'deps'>,
  intervalMs: number,
): Promise<number | undefined> {
  const { io, json, statePath } = session;
  const listed = await session.receipts.list();
  if (listed.isErr())
    io.stderr(`heartbeat-kit loop: warning: cannot read the receipts (${listed.error.message}); starting as if none were recorded.\n`);
  else for (const warning of listed.value.warnings) io.stderr(`heartbeat-kit loop: warning: ${warning}\n`);
  // The current clock is the authority: a slot recorded later than now (the clock went back, or an
  // older version's `cycle --now` rehearsal) closes nothing on the current grid; said once, never a wait.
  const startMs = session.deps.clock.now().getTime();
  const lastSlotMs = listed.isOk() ? lastRecordedSlotMs(listed.value.receipts, startMs) : undefined;
  const futureSlotMs = listed.isOk() ? futureRecordedSlotMs(listed.value.receipts, startMs) : undefined;
  if (futureSlotMs !== undefined) {
    const message = `a receipt is dated ${new Date(futureSlotMs).toISOString()}, later than now (${new Date(startMs).toISOString()}): the clock went back, or a rehearsal recorded a later slot; the loop runs on the current clock. See \`heartbeat-kit history\`; receipts are in ${receiptsDirectoryFor(statePath)}`;
    io.stderr(`heartbeat-kit loop: warning: ${message}.\n`);
    if (json)
      io.stdout(`${JSON.stringify({ type: 'warning', code: 'RECEIPT_IN_FUTURE', slot: new Date(futureSlotMs).toISOString(), message })}\n`);
  }
  // A cycle that already closed the current slot (a cron `cycle`, an earlier loop) means the first
  // cycle of this loop waits for the next slot: say so, or the operator watches a silent loop.
  const nowMs = session.deps.clock.now().getTime();
  if (lastSlotMs !== undefined && lastSlotMs <= nowMs && nowMs - lastSlotMs < intervalMs)
    printInfo(
      io,
      `heartbeat-kit loop: a cycle already ran for this slot at ${new Date(lastSlotMs).toISOString()} (see \`heartbeat-kit history\`); the first cycle of this loop runs at the next slot, within ${Math.ceil(intervalMs / 1000)} s.\n`,
    );
  return lastSlotMs;
}
