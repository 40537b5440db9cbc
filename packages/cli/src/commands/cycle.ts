import { type CycleOutcome, type Clock } from '@heartbeat-kit/core';
import { DEFAULT_SCANNER_TIMEOUT_MS, type PauseDecision } from '@heartbeat-kit/core/host';
import { err, ok, okAsync, type Result } from 'neverthrow';
import { defineCommand, usageFailure, type CommandFailure } from '../cli-kernel/index.js';
import { printInfo } from '../errors.js';
import { EXIT, stopSignalExit, type ExitCode } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { writeMetricsTextfile } from '../metrics/metrics-export.js';
import { pingerFor } from '../pings/ping-wiring.js';
import { announceDrain, drainingIo } from '../shutdown.js';
import { replaceStdoutRoutes } from '../sinks/route-spec.js';
import { parseCronFlag } from '../wiring/cron-schedule.js';
import { cycleLockPath, describeHolder } from '../wiring/cycle-lock.js';
import { resolveHeartbeat, type ResolvedHeartbeat } from '../wiring/heartbeat-options.js';
import { commandClock } from '../wiring/instant.js';
import { receiptStoreFor, sayUnwritten } from '../wiring/receipts.js';
import { recordConfigError } from './cycle/config-error-receipt.js';
import { checkCycleFlags, type CheckedCycleFlags, type CycleFlags } from './cycle/cycle-flags.js';
import { CYCLE_SPEC } from './cycle/cycle-help.js';
import { appendCycleRecord } from './cycle/cycle-record.js';
import { reportCycle } from './cycle/cycle-report.js';
import { runCycleSlot, type CycleSlot, type CycleSlotPlan } from './cycle/cycle-slot.js';
import { unranSlotExit } from './cycle/unran-slot.js';

/** What `--metrics-textfile` needs from the cycle: filled in as the command goes. */
interface MetricsTap {
  textfile?: string;
  statePath?: string;
  outcome?: CycleOutcome;
  pause?: PauseDecision;
  nextSlotMs?: number;
}

/** The draining io (its tools and sinks stop at the cut-off) and both signals, for the exit code. */
interface CycleIo {
  readonly io: CliIo;
  readonly signals: Pick<CliIo, 'shutdownSignal' | 'cutOffSignal'>;
}

/**
 * The slot's ports and adapters from the loaded settings: the pinger, the cron grid, the sink and
 * routes (with `--json` on stdout the JSON object is the delivery: the message is not printed twice).
 */
async function planSlot(
  flags: CycleFlags,
  checked: CheckedCycleFlags,
  resolved: ResolvedHeartbeat,
  context: CycleIo & { readonly wall: Clock; readonly tap: MetricsTap },
): Promise<Result<CycleSlotPlan, CommandFailure>> {
  const { io, wall, tap } = context;
  const { statePath, json, settings, deps } = resolved;
  const { dryRun } = checked;
  tap.statePath = statePath;
  const pinging = pingerFor(flags, { value: settings.config.ping, file: settings.file }, { io, command: 'cycle', statePath, dryRun });
  if (pinging.isErr()) return usageFailure(pinging.error);
  const cron = flags.cron === undefined ? undefined : await parseCronFlag(flags.cron, settings.timeZone);
  if (cron !== undefined && cron.isErr()) return usageFailure(cron.error);
  // The next slot is known only from the cron expression this invocation was started by.
  const nextCronSlot = cron?.value.nextAfter(wall.now().getTime());
  if (nextCronSlot !== undefined) tap.nextSlotMs = nextCronSlot;
  for (const note of resolved.notes) io.stderr(`heartbeat-kit cycle: warning: ${note}\n`);
  for (const warning of settings.warnings) io.stderr(`heartbeat-kit cycle: warning: ${warning}\n`);
  if (settings.problem !== undefined && !json)
    io.stderr(`heartbeat-kit: warning: config: ${settings.problem.message}; fix: ${settings.problem.fix}\n`);
  // A dry run never reaches the sink at all (runCycle does not call it).
  const quiet = { name: 'stdout', deliver: () => okAsync(undefined) };
  const sink = (json && resolved.sink.kind === 'stdout') || dryRun ? quiet : deps.sink;
  // A route to stdout is the JSON object's too with --json.
  const routes = replaceStdoutRoutes(deps.routes, resolved.routes, json ? quiet : undefined);
  return ok({
    ...context,
    dryRun,
    statePath,
    receipts: receiptStoreFor(statePath, wall),
    settings,
    grid: cron?.value,
    deps: { ...deps, sink, ...(routes === undefined ? {} : { routes }) },
    pinger: pinging.value,
    operatorLastActive: checked.operatorLastActive,
  });
}

/** The exit of a cycle that ran: a cut-off, else 3 when anything was not delivered or not written. */
function ranExit(
  outcome: CycleOutcome,
  signals: CycleIo['signals'],
  failed: { written: boolean; record: boolean; cutOff: boolean },
): ExitCode {
  // A cut-off (a second Ctrl-C or SIGTERM): the cycle did not finish, so `cycle && next` must not go on.
  // After a first signal alone it finished and delivered: it exits as any cycle does.
  const stopped = stopSignalExit(signals.cutOffSignal ?? signals.shutdownSignal);
  if (stopped !== undefined) return stopped;
  // A report held back by the sink's open breaker was not delivered either: cron monitors see 3.
  // A tool killed by a signal from elsewhere (a process-group kill) left the cycle partial: 3 too.
  const undelivered = outcome.delivery === 'failed' || outcome.delivery === 'held';
  return undelivered || outcome.stateError !== undefined || failed.record || !failed.written || failed.cutOff ? EXIT.failure : EXIT.ok;
}

/** After the slot: say how it went, append the record, print the report; the exit code. */
async function endSlot(
  slot: CycleSlot,
  plan: CycleSlotPlan,
  context: {
    flags: CycleFlags;
    checked: CheckedCycleFlags;
    resolved: ResolvedHeartbeat;
    tap: MetricsTap;
    prefetchWarnings: readonly string[];
  },
): Promise<Result<ExitCode, CommandFailure>> {
  const { io, statePath } = plan;
  const { flags, checked, resolved, tap } = context;
  if (slot.ran.listError !== undefined)
    io.stderr(
      `heartbeat-kit cycle: warning: cannot read the receipts (${slot.ran.listError.message}); missed cron slots are not recorded.\n`,
    );
  for (const unwritten of slot.ran.unwritten) sayUnwritten(unwritten, statePath, io, 'cycle');
  const saying = { io, json: resolved.json, dryRun: checked.dryRun, statePath };
  const unran = unranSlotExit(slot, saying);
  if (unran !== undefined || slot.ran.end.kind !== 'ran') return unran ?? ok(EXIT.internal);
  const outcome = slot.ran.end.outcome;
  tap.outcome = outcome;
  if (slot.ran.tookOverFrom !== undefined)
    printInfo(
      io,
      `heartbeat-kit cycle: took over ${cycleLockPath(statePath)} from ${describeHolder(slot.ran.tookOverFrom, undefined, Date.now())} (stale).\n`,
    );
  const recorded = flags.record === undefined ? true : await appendCycleRecord(flags.record, outcome, plan.settings, io);
  const cutOff = reportCycle(outcome, {
    ...saying,
    rehearsal: checked.rehearsal,
    at: () => plan.wall.now(),
    settings: plan.settings,
    sinkKind: resolved.sink.kind,
    paused: slot.paused,
    prefetchWarnings: context.prefetchWarnings,
  });
  return ok(ranExit(outcome, plan.signals, { written: slot.ran.written, record: !recorded, cutOff: cutOff.length > 0 }));
}

/** The cycle command's body, before the metrics textfile. */
async function runCycleCommand(flags: CycleFlags, cycleIo: CycleIo, tap: MetricsTap): Promise<Result<ExitCode, CommandFailure>> {
  const { io } = cycleIo;
  const checked = checkCycleFlags(flags, io.cwd);
  if (checked.isErr()) return usageFailure(checked.error);
  const { dryRun } = checked.value;
  if (checked.value.textfile !== undefined) tap.textfile = checked.value.textfile;
  const resolved = await resolveHeartbeat(flags, io, { dryRun });
  // A plan the bin would not use (another owner, a link, not a plan): said once, whatever happens next.
  const prefetchWarnings = io.prefetch === undefined ? [] : (await io.prefetch.planned, io.prefetch.warnings());
  for (const warning of prefetchWarnings) io.stderr(`heartbeat-kit cycle: warning: ${warning}\n`);
  const wall = commandClock(io, checked.value.now);
  if (resolved.isErr()) {
    const failure = resolved.error;
    // A dry run is a rehearsal: it writes no receipt, even for a config error (the error is on stderr).
    if (failure.configError === true && !dryRun) {
      tap.statePath = failure.statePath;
      await recordConfigError(flags, failure, { io, wall });
    }
    return usageFailure(failure.message);
  }
  const plan = await planSlot(flags, checked.value, resolved.value, { ...cycleIo, wall, tap });
  if (plan.isErr()) return err(plan.error);
  const slot = await runCycleSlot(plan.value, (paused) => (tap.pause = paused));
  return endSlot(slot, plan.value, { flags, checked: checked.value, resolved: resolved.value, tap, prefetchWarnings });
}

/** After whatever the slot wrote (ran, paused or skipped), `--metrics-textfile`: the figures include its receipt. */
async function exportMetrics(
  tap: MetricsTap,
  ended: Result<ExitCode, CommandFailure>,
  io: CliIo,
): Promise<Result<ExitCode, CommandFailure>> {
  if (tap.textfile === undefined || tap.statePath === undefined) return ended;
  const listed = await receiptStoreFor(tap.statePath).list();
  const inputs = {
    receipts: listed.isOk() ? listed.value.receipts : [],
    outcome: tap.outcome,
    nextSlotMs: tap.nextSlotMs,
    pause: tap.pause,
  };
  const written = await writeMetricsTextfile(tap.textfile, inputs, io, 'cycle');
  return written || ended.isErr() || ended.value !== EXIT.ok ? ended : ok(EXIT.failure);
}

/** `heartbeat-kit cycle`: one cycle, printed as the spec's message or JSON. */
export const cycleCommand = defineCommand(CYCLE_SPEC, async ({ flags, io }) => {
  // The whole one-shot cycle is the scan in flight: a first signal lets it finish, a second cuts it off.
  let finished = false;
  announceDrain(io, 'cycle', DEFAULT_SCANNER_TIMEOUT_MS, () => !finished);
  const tap: MetricsTap = {};
  try {
    const ended = await runCycleCommand(flags, { io: drainingIo(io), signals: io }, tap);
    return await exportMetrics(tap, ended, io);
  } finally {
    finished = true;
  }
});
