import { parseArgs } from 'node:util';
import { okAsync } from 'neverthrow';
import { performance } from 'node:perf_hooks';
import { type CycleOutcome, type OutboundMessage, runLoop } from '@heartbeat-kit/core';
import {
  CATCH_UP_POLICIES,
  type CatchUpPolicy,
  DEFAULT_SCANNER_TIMEOUT_MS,
  deterministicJitter,
  futureRecordedSlotMs,
  lastRecordedSlotMs,
  nextGridSlot,
  type PauseDecision,
  receiptForSkippedSlots,
  runSlot,
} from '@heartbeat-kit/core/host';
import { EXIT } from '../exit-codes.js';
import { printInfo } from '../errors.js';
import type { CliIo, Command } from '../io.js';
import { announceDrain, drainingIo } from '../shutdown.js';
import { ackedLines, cycleJson, outsideActiveHoursLine, problemLines, sinkAdvisoryText } from '../format/cycle-json.js';
import { cycleLockPath, cycleSlotLock, describeHolder, skipReason } from '../wiring/cycle-lock.js';
import { HEARTBEAT_OPTIONS, resolveHeartbeat } from '../wiring/heartbeat-options.js';
import { parseDurationFlag } from '../wiring/duration-flag.js';
import { parseInstantFlag } from '../wiring/instant.js';
import { appendReceipt, receiptStoreFor, sayUnwritten } from '../wiring/receipts.js';
import { rehearsalReceiptStore, rehearsalStateStore } from '../wiring/rehearsal-stores.js';
import { replaceStdoutRoutes } from '../sinks/route-spec.js';
import { pausePartialLine, readPauseDecision } from '../wiring/pause-file.js';
import { receiptsDirectoryFor } from '@heartbeat-kit/core/node';
import { parseMetricsFlags, writeMetricsTextfile } from '../metrics/metrics-export.js';
import { startMetricsServer, type MetricsServer } from '../metrics/metrics-server.js';
import type { MetricInputs } from '../metrics/metric-figures.js';
import { endPingEvent, outcomeExitCode, withPingFailures } from '../pings/ping-outcome.js';
import { checkPingFlags, pingerFor } from '../pings/ping-wiring.js';
import { renderHelp } from '../cli-kernel/index.js';
import { LOOP_SPEC } from './loop-help.js';
const LOOP_HELP = renderHelp(LOOP_SPEC);

const OPTIONS = {
  ...HEARTBEAT_OPTIONS,
  interval: { type: 'string' },
  jitter: { type: 'string' },
  'catch-up': { type: 'string' },
  'catch-up-cap': { type: 'string' },
  now: { type: 'string' },
  'metrics-listen': { type: 'string' },
  'metrics-listen-public': { type: 'boolean' },
} as const;

function usageError(io: CliIo, message: string): number {
  io.stderr(`heartbeat-kit loop: ${message}\n`);
  return EXIT.usage;
}

/** `heartbeat-kit loop`: the long-running heartbeat. */
export const loopCommand: Command = async (argv, io) => {
  let values;
  try {
    ({ values } = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    return usageError(io, `${(error as Error).message}. Fix: see 'heartbeat-kit loop --help'.`);
  }
  if (values.help) {
    io.stdout(LOOP_HELP);
    return EXIT.ok;
  }
  const interval = parseDurationFlag('--interval', values.interval, { unit: 's', example: '10m', minMs: 1000 });
  if (!interval.ok) return usageError(io, interval.message);
  const jitter = parseDurationFlag('--jitter', values.jitter, { unit: 's', example: '30s', allowZero: true });
  if (!jitter.ok) return usageError(io, jitter.message);
  const policy = values['catch-up'];
  if (policy !== undefined && !(CATCH_UP_POLICIES as readonly string[]).includes(policy))
    return usageError(io, `--catch-up "${policy}" is not a catch-up policy. Fix: --catch-up skip, latest-once or all.`);
  const capFlag = values['catch-up-cap'];
  if (capFlag !== undefined && !/^\d{1,3}$/.test(capFlag))
    return usageError(io, `--catch-up-cap "${capFlag}" is not a number of cycles 0–100. Fix: e.g. --catch-up-cap 3.`);
  if (capFlag !== undefined && Number(capFlag) > 100)
    return usageError(io, `--catch-up-cap "${capFlag}" is not a number of cycles 0–100. Fix: e.g. --catch-up-cap 3.`);
  const startAt = parseInstantFlag('--now', values.now);
  if (!startAt.ok) return usageError(io, startAt.message);
  const metrics = parseMetricsFlags(values, io.cwd);
  if (!metrics.ok) return usageError(io, metrics.message);
  const pingFlags = checkPingFlags(values);
  if (!pingFlags.ok) return usageError(io, pingFlags.message);
  // A rehearsal (--now) writes nothing a real run reads: its receipts would close real slots.
  const rehearsal = startAt.date !== undefined;
  // Its tools and sinks stop at the cut-off (a second signal); the loop itself at the first.
  const resolved = await resolveHeartbeat(values, drainingIo(io), { dryRun: rehearsal });
  if (!resolved.ok) return usageError(io, resolved.message);
  for (const note of resolved.value.notes) io.stderr(`heartbeat-kit loop: warning: ${note}\n`);
  const problem = resolved.value.settings.problem;
  if (problem !== undefined) io.stderr(`heartbeat-kit: warning: config: ${problem.message}; fix: ${problem.fix}\n`);
  // The config file's own warnings (unknown keys, ignored lines), as `cycle` prints them; again only when an edit changes them.
  let printedWarnings = '';
  const printConfigWarnings = (warnings: readonly string[]): void => {
    const text = warnings.map((warning) => `heartbeat-kit loop: warning: ${warning}\n`).join('');
    if (text !== printedWarnings) io.stderr(text);
    printedWarnings = text;
  };
  printConfigWarnings(resolved.value.settings.warnings);
  const { cwd, json, reloadSettings, statePath } = resolved.value;
  // Read at start, as the routes are; a rehearsal never pings (a monitor would count its slots as real).
  const pinging = pingerFor(
    values,
    { value: resolved.value.settings.config.ping, file: resolved.value.settings.file },
    { io, command: 'loop', statePath, dryRun: rehearsal },
  );
  if (!pinging.ok) return usageError(io, pinging.message);
  const pinger = pinging.pinger;
  // A first signal stops the loop (no new cycle, no new sleep) but not the cycle in flight.
  let inFlight = false;
  announceDrain(io, 'loop', DEFAULT_SCANNER_TIMEOUT_MS, () => inFlight);
  // --now shifts the wall clock; the monotonic clock keeps telling sleeps from busy time.
  const time = io.time ?? { clock: resolved.value.deps.clock, sleep: resolved.value.deps.sleep, monotonicMs: () => performance.now() };
  const startWall = time.clock.now().getTime();
  const shift = startAt.date === undefined ? 0 : startAt.date.getTime() - startWall;
  const clock = shift === 0 ? time.clock : { now: () => new Date(time.clock.now().getTime() + shift) };
  const real = resolved.value.deps;
  // A rehearsal keeps its state in memory and leaves the reply inbox as it is (a real run settles it).
  const { inbox: _settledByRealRunsOnly, ...withoutInbox } = real;
  const deps = rehearsal ? { ...withoutInbox, clock, stateStore: rehearsalStateStore(real.stateStore) } : { ...real, clock };
  if (rehearsal)
    printInfo(
      io,
      `heartbeat-kit loop: rehearsal from ${new Date(startWall + shift).toISOString()} (--now): state and receipts stay in memory, no lock is taken; nothing is written that a real run reads.\n`,
    );
  const receipts = rehearsal ? rehearsalReceiptStore(receiptStoreFor(statePath, clock)) : receiptStoreFor(statePath, clock);
  const receiptAt = (): number => deps.clock.now().getTime();
  const listed = await receipts.list();
  if (listed.isErr())
    io.stderr(`heartbeat-kit loop: warning: cannot read the receipts (${listed.error.message}); starting as if none were recorded.\n`);
  else for (const warning of listed.value.warnings) io.stderr(`heartbeat-kit loop: warning: ${warning}\n`);
  // The current clock is the authority: a slot recorded later than now (the clock went back, or an
  // older version's `cycle --now` rehearsal) closes nothing on the current grid; said once, never a wait.
  const startMs = deps.clock.now().getTime();
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
  const nowMs = deps.clock.now().getTime();
  const intervalMs = interval.ms ?? resolved.value.settings.config.intervalMs;
  if (lastSlotMs !== undefined && lastSlotMs <= nowMs && nowMs - lastSlotMs < intervalMs)
    printInfo(
      io,
      `heartbeat-kit loop: a cycle already ran for this slot at ${new Date(lastSlotMs).toISOString()} (see \`heartbeat-kit history\`); the first cycle of this loop runs at the next slot, within ${Math.ceil(intervalMs / 1000)} s.\n`,
    );
  const catchUpOf = () => ({
    policy: (policy as CatchUpPolicy | undefined) ?? current.config.catchUp.policy,
    cap: capFlag === undefined ? current.config.catchUp.cap : Number(capFlag),
  });
  const printJson = (message: OutboundMessage) => {
    io.stdout(`${JSON.stringify({ type: 'message', ...message })}\n`);
    return okAsync(undefined);
  };
  const sink = json && resolved.value.sink.kind === 'stdout' ? { deliver: printJson } : deps.sink;
  const routes = replaceStdoutRoutes(deps.routes, resolved.value.routes, json ? { name: 'stdout', deliver: printJson } : undefined);

  let current = resolved.value.settings;
  // The figures (--metrics-textfile, --metrics-listen): the receipts at each look, this loop's last cycle.
  let lastOutcome: CycleOutcome | undefined;
  let paused = { kind: 'run' } as PauseDecision;
  const jitterMs = jitter.ms === undefined ? undefined : deterministicJitter(cwd, jitter.ms);
  const metricInputs = async (): Promise<MetricInputs> => {
    const kept = await receipts.list();
    const every = interval.ms ?? current.config.intervalMs;
    return {
      receipts: kept.isOk() ? kept.value.receipts : [],
      outcome: lastOutcome,
      nextSlotMs: nextGridSlot(deps.clock.now().getTime(), every, jitterMs ?? 0),
      pause: paused,
    };
  };
  // A rehearsal's figures would pass for the real heartbeat's: it writes no textfile.
  const textfile = rehearsal ? undefined : metrics.value.textfile;
  const exportTextfile = async (): Promise<void> => {
    if (textfile !== undefined) await writeMetricsTextfile(textfile, await metricInputs(), io, 'loop');
  };
  let server: MetricsServer | undefined;
  if (metrics.value.listen !== undefined) {
    const listen = metrics.value.listen;
    try {
      server = await startMetricsServer(listen, metricInputs);
    } catch (error) {
      return usageError(
        io,
        `--metrics-listen ${listen.host}:${listen.port}: cannot listen (${(error as Error).message}). Fix: pick a free port, or stop what holds it.`,
      );
    }
    io.stderr(`heartbeat-kit loop: metrics at ${server.url}\n`);
  }
  await exportTextfile();
  const wiredChecks = current.config.checks.map((c) => c.name).join(', ');
  let warnedChecks = wiredChecks;
  const summary = await runLoop(
    { ...deps, sink, ...(routes === undefined ? {} : { routes }) },
    {
      configFound: current.presence === 'empty' ? 'empty' : current.found,
      signal: io.shutdownSignal,
      ...(interval.ms === undefined ? {} : { intervalMs: interval.ms }),
      ...(jitterMs === undefined ? {} : { jitterMs }),
      ...(lastSlotMs === undefined ? {} : { lastSlotMs }),
      catchUp: catchUpOf,
      monotonicMs: time.monotonicMs,
      sleep: time.sleep,
      onSkipped: async (slots) => {
        await appendReceipt(receipts, receiptForSkippedSlots(slots, receiptAt(), 'loop'), statePath, io, 'loop');
        await exportTextfile();
        if (json)
          io.stdout(
            `${JSON.stringify({ type: 'skipped', from: new Date(slots.fromMs).toISOString(), through: new Date(slots.throughMs).toISOString(), count: slots.count, reason: slots.reason, detail: slots.detail })}\n`,
          );
      },
      settings: async () => {
        // An edit that breaks HEARTBEAT.md keeps the last good settings rather than stopping the loop.
        const next = await reloadSettings();
        if (next.ok) {
          current = next.value;
          printConfigWarnings(current.warnings);
          // A check's lines apply at once (its scanner reads them each cycle); its scanner exists from the start.
          const names = current.config.checks.map((c) => c.name).join(', ');
          if (names !== wiredChecks && names !== warnedChecks) {
            warnedChecks = names;
            io.stderr(
              `heartbeat-kit loop: warning: the checks of HEARTBEAT.md are now [${names}], this loop runs [${wiredChecks}]. Fix: restart the loop to add or remove checks (changed lines of a running check apply at once).\n`,
            );
          }
        } else io.stderr(`heartbeat-kit loop: warning: ${next.message} (keeping the previous settings)\n`);
        return { config: current.config, timeZone: current.timeZone };
      },
      // The same lock as `cycle`: a cron cycle and this loop never evaluate one state at once.
      guard: async (cycle, slotMs) => {
        inFlight = true;
        let refused: CycleOutcome | undefined;
        // A rehearsal takes no lock: it writes nothing, so it never races a real cycle.
        // The operator's pause is read under the lock: all of a pause written meanwhile, or none of it.
        const ran = await runSlot(
          { clock: deps.clock, receipts, lock: rehearsal ? undefined : cycleSlotLock(statePath) },
          {
            source: 'loop',
            slotMs,
            checks: current.config.checks.map((c) => c.name),
            pause: async (nowMs) => (paused = await readPauseDecision(statePath, nowMs, io, 'loop')),
            run: async (pause) => {
              pinger?.start(slotMs);
              const outcome = await cycle(pause.kind === 'partial' ? { pause } : undefined);
              if (outcome.refused !== undefined) refused = outcome;
              return outcome;
            },
            // The off-host monitor hears how the slot ended before its receipt, so a failed ping is in it.
            beforeReceipt: async (end, receipt) => {
              // The lock is let go: what is left (ping, receipt) is not a scan a first signal waits for.
              inFlight = false;
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
        ).finally(() => (inFlight = false));
        for (const unwritten of ran.unwritten) sayUnwritten(unwritten, statePath, io, 'loop');
        const end = ran.end;
        if (end.kind === 'paused' && paused.kind === 'skip') {
          await exportTextfile();
          if (json) io.stdout(`${JSON.stringify({ type: 'paused', slot: new Date(slotMs).toISOString(), pause: paused.pause })}\n`);
          else printInfo(io, `heartbeat-kit loop: ${paused.line}; this slot did not run (nothing looked at).\n`);
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
        await exportTextfile();
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
      },
      // The slot's receipt is already written (runSlot, in the guard): what is left is to say it.
      onCycle: async (outcome) => {
        const pause = paused.kind === 'partial' ? paused.pause : undefined;
        if (outcome.refused === undefined) lastOutcome = outcome;
        await exportTextfile();
        if (paused.kind === 'partial' && !json) io.stderr(pausePartialLine(paused, 'loop'));
        for (const warning of outcome.warnings) io.stderr(`heartbeat-kit loop: warning: ${warning}\n`);
        const lines = json ? '' : problemLines(outcome) + ackedLines(outcome) + outsideActiveHoursLine(outcome, current);
        if (lines !== '') io.stderr(lines);
        // The SINK_FAILING advisory goes to the loop's own stdout (its log), as `cycle` prints it.
        const advisory = json ? '' : sinkAdvisoryText(outcome);
        if (advisory !== '') (resolved.value.sink.kind === 'stdout' ? io.stderr : io.stdout)(advisory);
        if (json) io.stdout(`${JSON.stringify({ type: 'cycle', ...cycleJson(outcome), ...(pause === undefined ? {} : { pause }) })}\n`);
      },
    },
  ).finally(() => server?.close());
  // The refused slot's receipt was written by its runSlot; the loop stops and says why.
  if (summary.refused !== undefined) {
    io.stderr(`heartbeat-kit loop: stopped: ${statePath}: ${summary.refused.message}.\n`);
    await exportTextfile();
  }
  if (json) io.stdout(`${JSON.stringify({ type: 'summary', ...summary })}\n`);
  return summary.refused === undefined ? EXIT.ok : EXIT.failure;
};
