import { type Clock, type CycleDeps, type CycleOutcome, type Receipt, type ReceiptStore, runCycle } from '@heartbeat-kit/core';
import { type PauseDecision, runSlot, type SlotEnd, type SlotRun } from '@heartbeat-kit/core/host';
import { DEFAULT_CATEGORIES } from '@heartbeat-kit/scanners';
import { EXIT, stopSignalExit } from '../../exit-codes.js';
import type { CliIo } from '../../io.js';
import { endPingEvent, outcomeExitCode, withPingFailures } from '../../pings/ping-outcome.js';
import type { SlotPinger } from '../../pings/slot-pinger.js';
import type { CronSchedule } from '../../wiring/cron-schedule.js';
import { cycleSlotLock } from '../../wiring/cycle-lock.js';
import type { LoadedHeartbeatSettings } from '../../wiring/heartbeat-settings.js';
import { readPauseDecision } from '../../wiring/pause-file.js';
import { prefetchValidUntil } from './prefetch-window.js';

/** Everything one `cycle` slot needs, picked before it starts. */
export interface CycleSlotPlan {
  /** The draining io (its tools and sinks stop at the cut-off). */
  readonly io: CliIo;
  /** Both signals, for the exit code the off-host monitor hears. */
  readonly signals: Pick<CliIo, 'shutdownSignal' | 'cutOffSignal'>;
  readonly wall: Clock;
  readonly dryRun: boolean;
  readonly statePath: string;
  readonly receipts: ReceiptStore;
  readonly settings: LoadedHeartbeatSettings;
  readonly grid: CronSchedule | undefined;
  /** The cycle's ports with the sink and routes this invocation delivers to. */
  readonly deps: CycleDeps;
  readonly pinger: SlotPinger | undefined;
  readonly operatorLastActive: Date | undefined;
}

/** How the slot went: runSlot's account, the pause it read and the cycle's outcome when one ran. */
export interface CycleSlot {
  readonly ran: SlotRun;
  readonly paused: PauseDecision;
  readonly outcome: CycleOutcome | undefined;
}

/** The state of a slot in flight that the receipt step reads. */
interface SlotInFlight {
  /** The slot this run closes and its ping's run id: the cron slot, else the instant the cycle starts. */
  pingSlotMs: number;
  outcome?: CycleOutcome;
}

/**
 * The off-host monitor hears how the slot ended before its receipt is written, so a failed ping
 * is in the receipt; a slot that ran leaves the next cycle its prefetch plan first.
 */
async function beforeReceipt(plan: CycleSlotPlan, slot: SlotInFlight, end: SlotEnd, receipt: Receipt): Promise<Receipt> {
  const { pinger } = plan;
  // A paused slot is the operator's choice, not an outage: the monitor hears a success that says so.
  if (end.kind === 'paused')
    return withPingFailures(
      receipt,
      await pinger?.end(Date.parse(receipt.slot), { kind: 'end', result: { kind: 'success' }, summary: `paused: ${end.line ?? ''}` }),
    );
  if (end.kind === 'state-refused')
    return withPingFailures(
      receipt,
      await pinger?.end(slot.pingSlotMs, {
        kind: 'end',
        result: { kind: 'exit', code: EXIT.failure },
        summary: `state refused: ${slot.outcome?.refused?.message ?? ''}`,
      }),
    );
  if (end.kind !== 'ran') return receipt;
  // The next cycle starts this one's first listings while it loads (a dry run leaves nothing behind).
  if (!plan.dryRun)
    await plan.io.prefetch?.savePlan({ configFile: plan.settings.file, validUntilMs: prefetchValidUntil(end.outcome, plan.settings) });
  if (pinger === undefined) return receipt;
  const code = stopSignalExit(plan.signals.cutOffSignal ?? plan.signals.shutdownSignal) ?? outcomeExitCode(end.outcome);
  return withPingFailures(receipt, await pinger.end(slot.pingSlotMs, endPingEvent(end.outcome, code)));
}

/**
 * Runs the slot: never two cycles at once on one state file (a second invocation skips instead of
 * racing). A dry run writes nothing, so it takes no lock (never makes a real cycle skip) and writes
 * no receipt: a rehearsal's receipt (for a `--now` later today) would close that slot for real runs.
 * Missed cron slots are recorded under the lock, so two invocations never record them twice. The
 * receipt is written only after evaluation and delivery finished: "fired" never passes for "ran".
 */
export async function runCycleSlot(plan: CycleSlotPlan, onPause: (paused: PauseDecision) => void): Promise<CycleSlot> {
  const { io, wall, dryRun, statePath, settings, pinger } = plan;
  // The operator's pause, read once under the lock (a dry run reads it too: it rehearses the real slot).
  let paused: PauseDecision = { kind: 'run' };
  const slot: SlotInFlight = { pingSlotMs: wall.now().getTime() };
  const ran = await runSlot(
    { clock: wall, receipts: dryRun ? undefined : plan.receipts, lock: dryRun ? undefined : cycleSlotLock(statePath) },
    {
      source: 'cycle',
      grid: plan.grid,
      checks: settings.config.checks.map((c) => c.name),
      pause: async (nowMs) => {
        paused = await readPauseDecision(statePath, nowMs, io, 'cycle');
        onPause(paused);
        return paused;
      },
      run: async (pause, slotMs) => {
        const start = wall.now();
        slot.pingSlotMs = slotMs ?? start.getTime();
        pinger?.start(slot.pingSlotMs);
        slot.outcome = await runCycle(plan.deps, {
          config: settings.config,
          timeZone: settings.timeZone,
          categories: DEFAULT_CATEGORIES,
          now: start,
          ...(plan.operatorLastActive ? { operatorLastActiveAt: plan.operatorLastActive } : {}),
          ...(dryRun ? { dryRun } : {}),
          ...(pause.kind === 'partial' ? { pause } : {}),
        });
        return slot.outcome;
      },
      beforeReceipt: (end, receipt) => beforeReceipt(plan, slot, end, receipt),
    },
  );
  return { ran, paused, outcome: slot.outcome };
}
