import { performance } from 'node:perf_hooks';
import { okAsync, ok, type Result } from 'neverthrow';
import { type CycleDeps, type OutboundMessage, runLoop } from '@heartbeat-kit/core';
import { DEFAULT_SCANNER_TIMEOUT_MS, deterministicJitter, nextGridSlot } from '@heartbeat-kit/core/host';
import { defineCommand, usageFailure, type CommandFailure } from '../cli-kernel/index.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { printInfo } from '../errors.js';
import type { CliIo } from '../io.js';
import { announceDrain, drainingIo } from '../shutdown.js';
import { resolveHeartbeat, type ResolvedHeartbeat } from '../wiring/heartbeat-options.js';
import { receiptStoreFor } from '../wiring/receipts.js';
import { rehearsalReceiptStore, rehearsalStateStore } from '../wiring/rehearsal-stores.js';
import { replaceStdoutRoutes } from '../sinks/route-spec.js';
import { writeMetricsTextfile } from '../metrics/metrics-export.js';
import { startMetricsServer, type MetricsServer } from '../metrics/metrics-server.js';
import type { MetricInputs } from '../metrics/metric-figures.js';
import { pingerFor } from '../pings/ping-wiring.js';
import { LOOP_SPEC } from './loop-help.js';
import { checkLoopFlags, type CheckedLoopFlags } from './loop/loop-flags.js';
import { configWarningsPrinter, loopOnCycle, settingsReloader } from './loop/loop-report.js';
import type { LoopLive, LoopSession } from './loop/loop-session.js';
import { loopGuard, loopOnSkipped } from './loop/loop-slot.js';
import { readLoopStart } from './loop/loop-start.js';

/**
 * The loop's ports on its clock. `--now` shifts the wall clock (the monotonic one keeps telling
 * sleeps from busy time); a rehearsal keeps its state in memory and leaves the reply inbox as it
 * is (a real run settles it).
 */
function loopPorts(io: CliIo, resolved: ResolvedHeartbeat, startAt: Date | undefined) {
  const time = io.time ?? { clock: resolved.deps.clock, sleep: resolved.deps.sleep, monotonicMs: () => performance.now() };
  const startWall = time.clock.now().getTime();
  const shift = startAt === undefined ? 0 : startAt.getTime() - startWall;
  const clock = shift === 0 ? time.clock : { now: () => new Date(time.clock.now().getTime() + shift) };
  const real = resolved.deps;
  const { inbox: _settledByRealRunsOnly, ...withoutInbox } = real;
  const deps: CycleDeps =
    startAt !== undefined ? { ...withoutInbox, clock, stateStore: rehearsalStateStore(real.stateStore) } : { ...real, clock };
  return { time, deps, startedAt: new Date(startWall + shift) };
}

/** The figures (--metrics-textfile, --metrics-listen): the receipts at each look, this loop's last cycle. */
function loopFigures(session: Omit<LoopSession, 'exportTextfile'>, everyMs: () => number, jitterMs: number | undefined) {
  return async (): Promise<MetricInputs> => {
    const kept = await session.receipts.list();
    return {
      receipts: kept.isOk() ? kept.value.receipts : [],
      outcome: session.live.lastOutcome,
      nextSlotMs: nextGridSlot(session.deps.clock.now().getTime(), everyMs(), jitterMs ?? 0),
      pause: session.live.paused,
    };
  };
}

/** The loop's session from the resolved heartbeat: its clock, receipts, pinger, sink kind and figures. */
function openSession(io: CliIo, resolved: ResolvedHeartbeat, checked: CheckedLoopFlags, pinger: LoopSession['pinger']) {
  const rehearsal = checked.startAt !== undefined;
  const { time, deps, startedAt } = loopPorts(io, resolved, checked.startAt);
  if (rehearsal)
    printInfo(
      io,
      `heartbeat-kit loop: rehearsal from ${startedAt.toISOString()} (--now): state and receipts stay in memory, no lock is taken; nothing is written that a real run reads.\n`,
    );
  const stored = receiptStoreFor(resolved.statePath, deps.clock);
  const live: LoopLive = { current: resolved.settings, paused: { kind: 'run' }, inFlight: false };
  const base = {
    io,
    json: resolved.json,
    rehearsal,
    statePath: resolved.statePath,
    receipts: rehearsal ? rehearsalReceiptStore(stored) : stored,
    deps,
    pinger,
    sinkKind: resolved.sink.kind,
    live,
  };
  const jitterMs = checked.jitterMs === undefined ? undefined : deterministicJitter(resolved.cwd, checked.jitterMs);
  const metricInputs = loopFigures(base, () => checked.intervalMs ?? live.current.config.intervalMs, jitterMs);
  // A rehearsal's figures would pass for the real heartbeat's: it writes no textfile.
  const textfile = rehearsal ? undefined : checked.metrics.textfile;
  const exportTextfile = async (): Promise<void> => {
    if (textfile !== undefined) await writeMetricsTextfile(textfile, await metricInputs(), io, 'loop');
  };
  return { session: { ...base, exportTextfile } satisfies LoopSession, time, jitterMs, metricInputs };
}

/** Runs the loop until a signal (or a state file it must not touch) stops it; its exit. */
async function runLoopSession(
  opened: ReturnType<typeof openSession>,
  resolved: ResolvedHeartbeat,
  checked: CheckedLoopFlags,
  printConfigWarnings: (warnings: readonly string[]) => void,
): Promise<Result<ExitCode, CommandFailure>> {
  const { session, time, jitterMs } = opened;
  const { io, json, deps, live } = session;
  const lastSlotMs = await readLoopStart(session, checked.intervalMs ?? resolved.settings.config.intervalMs);
  const printJson = (message: OutboundMessage) => {
    io.stdout(`${JSON.stringify({ type: 'message', ...message })}\n`);
    return okAsync(undefined);
  };
  const sink = json && resolved.sink.kind === 'stdout' ? { deliver: printJson } : deps.sink;
  const routes = replaceStdoutRoutes(deps.routes, resolved.routes, json ? { name: 'stdout', deliver: printJson } : undefined);
  let server: MetricsServer | undefined;
  const listen = checked.metrics.listen;
  if (listen !== undefined) {
    try {
      server = await startMetricsServer(listen, opened.metricInputs);
    } catch (error) {
      return usageFailure(
        `--metrics-listen ${listen.host}:${listen.port}: cannot listen (${(error as Error).message}). Fix: pick a free port, or stop what holds it.`,
      );
    }
    io.stderr(`heartbeat-kit loop: metrics at ${server.url}\n`);
  }
  await session.exportTextfile();
  const summary = await runLoop(
    { ...deps, sink, ...(routes === undefined ? {} : { routes }) },
    {
      configFound: live.current.presence === 'empty' ? 'empty' : live.current.found,
      signal: io.shutdownSignal,
      ...(checked.intervalMs === undefined ? {} : { intervalMs: checked.intervalMs }),
      ...(jitterMs === undefined ? {} : { jitterMs }),
      ...(lastSlotMs === undefined ? {} : { lastSlotMs }),
      catchUp: () => ({
        policy: checked.policy ?? live.current.config.catchUp.policy,
        cap: checked.cap ?? live.current.config.catchUp.cap,
      }),
      monotonicMs: time.monotonicMs,
      sleep: time.sleep,
      onSkipped: loopOnSkipped(session),
      settings: settingsReloader(session, resolved.reloadSettings, printConfigWarnings),
      guard: loopGuard(session),
      onCycle: loopOnCycle(session),
    },
  ).finally(() => server?.close());
  // The refused slot's receipt was written by its runSlot; the loop stops and says why.
  if (summary.refused !== undefined) {
    io.stderr(`heartbeat-kit loop: stopped: ${session.statePath}: ${summary.refused.message}.\n`);
    await session.exportTextfile();
  }
  if (json) io.stdout(`${JSON.stringify({ type: 'summary', ...summary })}\n`);
  return ok(summary.refused === undefined ? EXIT.ok : EXIT.failure);
}

/** `heartbeat-kit loop`: the long-running heartbeat. */
export const loopCommand = defineCommand(LOOP_SPEC, async ({ flags, io }) => {
  const checked = checkLoopFlags(flags, io.cwd);
  if (checked.isErr()) return usageFailure(checked.error);
  // A rehearsal (--now) writes nothing a real run reads: its receipts would close real slots.
  const rehearsal = checked.value.startAt !== undefined;
  // Its tools and sinks stop at the cut-off (a second signal); the loop itself at the first.
  const resolved = await resolveHeartbeat(flags, drainingIo(io), { dryRun: rehearsal });
  if (resolved.isErr()) return usageFailure(resolved.error.message);
  for (const note of resolved.value.notes) io.stderr(`heartbeat-kit loop: warning: ${note}\n`);
  const problem = resolved.value.settings.problem;
  if (problem !== undefined) io.stderr(`heartbeat-kit: warning: config: ${problem.message}; fix: ${problem.fix}\n`);
  const printConfigWarnings = configWarningsPrinter(io);
  printConfigWarnings(resolved.value.settings.warnings);
  // Read at start, as the routes are; a rehearsal never pings (a monitor would count its slots as real).
  const { statePath, settings } = resolved.value;
  const pinging = pingerFor(
    flags,
    { value: settings.config.ping, file: settings.file },
    { io, command: 'loop', statePath, dryRun: rehearsal },
  );
  if (pinging.isErr()) return usageFailure(pinging.error);
  const opened = openSession(io, resolved.value, checked.value, pinging.value);
  // A first signal stops the loop (no new cycle, no new sleep) but not the cycle in flight.
  announceDrain(io, 'loop', DEFAULT_SCANNER_TIMEOUT_MS, () => opened.session.live.inFlight);
  return runLoopSession(opened, resolved.value, checked.value, printConfigWarnings);
});
