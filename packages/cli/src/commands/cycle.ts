import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { okAsync } from 'neverthrow';
import { type CycleOutcome, type Receipt, runCycle } from '@heartbeat-kit/core';
import { DEFAULT_CATEGORIES } from '@heartbeat-kit/scanners';
import {
  createCycleRecord,
  cutOffScanners,
  DEFAULT_SCANNER_TIMEOUT_MS,
  isWithinActiveHours,
  type PauseDecision,
  runSlot,
  type SlotEnd,
  slotReceipt,
} from '@heartbeat-kit/core/host';
import { withFix } from '../errors.js';
import { EXIT, stopSignalExit } from '../exit-codes.js';
import { printInfo } from '../errors.js';
import type { CliIo, Command } from '../io.js';
import { announceDrain, drainingIo } from '../shutdown.js';
import { coverageLine, cycleCoverage } from '../format/cycle-coverage.js';
import { ackedLines, cycleJson, outsideActiveHoursLine, problemLines, sinkAdvisoryText } from '../format/cycle-json.js';
import { parseCronFlag } from '../wiring/cron-schedule.js';
import { appendJsonLine, resolvePath } from '../wiring/cycle-deps.js';
import { cycleLockPath, cycleSlotLock, describeHolder, skipReason } from '../wiring/cycle-lock.js';
import { CYCLE_OPTIONS } from '../wiring/cycle-options.js';
import { resolveHeartbeat } from '../wiring/heartbeat-options.js';
import type { LoadedHeartbeatSettings } from '../wiring/heartbeat-settings.js';
import { commandClock, parseInstantFlag } from '../wiring/instant.js';
import { appendReceipt, receiptStoreFor, sayUnwritten } from '../wiring/receipts.js';
import { replaceStdoutRoutes } from '../sinks/route-spec.js';
import { pausePartialLine, readPauseDecision } from '../wiring/pause-file.js';
import { parseMetricsFlags, writeMetricsTextfile } from '../metrics/metrics-export.js';
import { endPingEvent, outcomeExitCode, withPingFailures } from '../pings/ping-outcome.js';
import { checkPingFlags, pingerFor } from '../pings/ping-wiring.js';

/** Help text of `heartbeat-kit cycle`. */
export const CYCLE_HELP = `Usage: heartbeat-kit cycle [options]

Runs one heartbeat cycle over a project: scans beads, tmux orchestrators, git worktrees,
stale tasks, idle orchestrators, GChat replies and pipelines, then prints exactly
HEARTBEAT_OK when nothing is reportable, else one WORK_FOUND message.

Options:
  --cwd DIR                    a directory of the project's git repository (default: current directory)
  --config FILE                heartbeat config (default: the nearest .claude/HEARTBEAT.md from DIR
                               up to the repository root; none = defaults)
  --state FILE                 cross-cycle state (default: heartbeat-kit/state.json in the repository's
                               common git directory, shared by all worktrees; never in the working tree)
  --now ISO                    rehearse the cycle as at this instant: implies --dry-run (delivers
                               nothing, writes no state, receipt, lock or prefetch plan), so a
                               rehearsal of later today never closes that slot for real runs
  --operator-last-active ISO   when the operator last sent a message (default: unknown = idle)
  --operator-activity-file F   take the operator's last message time from F's modification time
                               (default: $HEARTBEAT_OPERATOR_ACTIVITY_FILE when set)
  --sink SPEC                  stdout (default) | file:PATH (JSONL) | webhook:URL | command:CMD |
                               inbox:DIR (kept for 'inbox drain') |
                               tmux:SESSION[:WINDOW.PANE] (types into an idle agent pane, else
                               holds; HEARTBEAT_TMUX_IDLE_SECONDS, HEARTBEAT_TMUX_PROMPT;
                               docs/tmux-sink.md)
  --route PRIORITY=SINK        routing by priority (repeatable): the report's PRIORITY class
                               (Immediate, Advisory, Normal; default = --sink) goes to SINK, with
                               its own message id, retries, breaker and receipt entry; replaces
                               that class's line of HEARTBEAT.md ## Delivery. A failing route never
                               holds another back (exit 3 when any route failed)
  --sink-auth-env NAME         send $NAME as the webhook's Authorization header (never put
                               credentials in the URL: such URLs are refused)
  --sink-same-origin-redirects follow the webhook's 307/308 redirects within its own origin
                               (scheme, host, port). Default: none; a redirect fails the delivery,
                               naming its Location. Another origin or https → http: never
  --ping URL                   ping an off-host monitor when each slot starts and ends (Healthchecks.io:
                               /start, the URL on success, /fail or /EXIT otherwise, ?rid= the slot's
                               id; cronitor:URL for Cronitor telemetry). Replaces HEARTBEAT.md
                               Delivery → Ping. 5 s per ping; a failed ping is a stderr warning and
                               a receipt field, never a failed cycle. Dry runs never ping (docs/pings.md)
  --ping-flavour NAME          healthchecks (default) | cronitor: the protocol of --ping's URL
  --tmux-socket NAME           use the tmux server on socket NAME (tmux -L NAME)
  --env-allow NAMES            hardened mode: tools get only PATH, HOME, USER, LANG, TMPDIR,
                               TMUX_TMPDIR and these comma-separated names (PREFIX* = prefix;
                               replaces HEARTBEAT.md Environment → Allow); see docs/environment.md
  --cron EXPR                  the cron expression that starts this cycle (read in the active
                               hours' zone): the receipt closes the expression's slot, and its
                               slots since the last receipt that no cycle closed are recorded
                               as skipped (down), so 'history' and 'check-liveness' see them
  --record FILE                append this cycle's inputs and decision to FILE (for 'heartbeat-kit replay')
  --dry-run                    decide only: print what would be sent (whatever --sink says), deliver
                               nothing, save no state, take no lock, write no receipt or prefetch
                               plan (a rehearsal: a later real run sees nothing of it)
  --metrics-textfile PATH      after the slot, replace PATH (must end in .prom) with the heartbeat's
                               figures in node_exporter's textfile format: counters from the receipts
                               (so one-shot cycles still only count up), gauges of this cycle; see
                               docs/metrics.md. Not written by a dry run
  --json                       print one JSON object instead of the message
  -h, --help                   show this help

Whatever a scanner could not look at is said on stderr, one line per problem, every cycle
(\`heartbeat-kit: gchat skipped: <why>; fix: <what to do>\`; \`warning:\` when it is something
you set up or a failure); stdout stays exactly HEARTBEAT_OK. --json lists them under "problems".
Outside active hours one more line names the scanners that did not run by design
(\`heartbeat-kit: outside active hours (08:00–22:00 UTC): skipped git, …\`); --json has them
under "scanners" with the note "outside active hours". When a scanner that is set up did not
look, a last line says what the cycle covered (\`heartbeat-kit: looked at: gchat; not looked at:
beads, git, …\`); --json has it always, under "coverage" ({ "lookedAt", "notLookedAt", "notSetUp", "notDue" }).
Checks (HEARTBEAT.md ## Checks) run after the built-ins; one whose every: skips this cycle is
named under "notDue" and on a line of its own (\`heartbeat-kit: not due this cycle …\`).

Circuit breaker: a scanner failing the same way N cycles in a row (HEARTBEAT.md Heartbeat →
Breaker after, default 3; off = never) is reported once as a SCANNER_FAILING advisory, then
runs every 2nd, 4th, … cycle up to Breaker back-off cap (default 8). A cycle that does not run
it says so among the problems (SCANNER_BREAKER_OPEN, with the next try); one line says when it
trips and one when it recovers (--json: "breaker"). A scanner that still looks at part of what
it watches (a warning from a run) is reported but never skipped. The sink has one too: a
report failing to deliver the same way N cycles in a row prints one SINK_FAILING advisory on
stdout (stderr with --sink stdout), then the sink is tried every 2nd, 4th, … cycle; a cycle in
between keeps its report undelivered for later, says SINK_BREAKER_OPEN on stderr (--json:
"delivery": "held", "sinkBreaker") and exits 3. A tmux sink holds a report itself while its
pane is busy or has a half-typed line: "delivery": "held" with "deliveryWhy", not a failure for
the breaker, offered again next cycle, exit 3 (nobody was told); history shows the why.

Stopping (spec 000: "do not interrupt mid-scan"): a first SIGINT or SIGTERM lets the cycle finish
(each scanner gives up after 30 s), deliver its report and exit with its own code; stderr says so
and how to stop now. A second signal cuts the scan off: the tools are killed, what was scanned is
still evaluated, saved and reported, stderr names the scanners cut off (\`partial cycle: …\`) and
the exit is 130 or 143. Tools killed by a signal to their process group leave the cycle partial too.

Recovery and inhibition: when a delivered Immediate finding (an orchestrator crash) clears, the
next message carries one \`RESOLVED: …\` line (a cycle with only recoveries prints a short report,
not HEARTBEAT_OK; --json: "resolved"). A failing source hides what depends on it: with no tmux
server one TMUX_DOWN replaces the ORCH_FAILURE of every session; with bd failing nothing bead-
derived is reported or resolved that cycle (--json: "inhibited"). See docs/operations.md.

Paused ('heartbeat-kit pause'): a slot inside the pause writes a 'paused' receipt with the note,
scans nothing, prints nothing on stdout (stderr says "paused until …: note") and exits 0 (--json:
{"status": "paused", "pause"}). A pause of some scanners (--scanner) runs the others and says the
paused ones were not looked at; --except-critical runs every scanner but reports only Immediate
findings, orchestrator failures and GChat replies. A pause file that cannot be read is ignored
with a warning: the slot runs.

Every invocation leaves one receipt beside the state (ran, paused, or skipped with the reason);
'heartbeat-kit history' lists them and 'heartbeat-kit check-liveness' judges them.

While Node loads the command, the bin already runs git rev-parse and the read-only listings the
last cycle's scanners asked for first (bd ready, bd list, tmux list-sessions, git worktree list),
from the plan that cycle left in the repository's common git directory
(heartbeat-kit/prefetch-<uid>/cycle-prefetch-*.json, a cache: delete it any time). The plan only
names which of these listings to start; each command is built by the bin itself. A scanner only
ever gets a run of exactly the command it asks for; runs nobody asks for are killed. No plan is
used after the config file changed, once the active hours it was written in are over, while a
scanner breaker is open, or with --env-allow. A plan that is not owned by you, that others can
write (or its directory), that is a link, or that is not exactly a plan runs nothing: one
warning names the file and the fix. --json: "prefetch": {"started", "claimed"}.

Exit codes: 0 cycle ran (quiet or reported), 2 usage or config error (or DIR is not in a git
repository), 3 delivery failed or held back by the sink's breaker, state, lock, record or
receipt failure (also: a state file written by a newer heartbeat-kit, which is left
untouched; or a signal from elsewhere killed a tool, leaving the cycle partial), 4 skipped:
another live cycle holds the cycle lock (who and why on stderr), 130 cut off by a second Ctrl-C
(SIGINT), 143 cut off by a second SIGTERM (what was scanned is still evaluated and saved). After
a single SIGINT or SIGTERM the cycle finishes and exits with one of the codes above.
`;

// One table for the command and the bin's prefetch, which reads the same argv before the command loads.
const OPTIONS = CYCLE_OPTIONS;

/** How far ahead the next cycle's active hours are known: a prefetch is checked this often. */
const PREFETCH_STEP_MS = 15 * 60_000;
/** The longest a plan stays valid: past the longest interval anyone runs a one-shot cycle at. */
const PREFETCH_HORIZON_MS = 5 * PREFETCH_STEP_MS;

/**
 * Until when the next cycle may start this one's listings early: while the same scanners run
 * (inside the active hours all of them, outside only those that run at night), checked every 15
 * minutes up to 75 minutes ahead (the last check on the same side bounds it), and only when every
 * scanner breaker is closed (an open one skips its scanner). Undefined: no prefetch.
 */
function prefetchValidUntil(outcome: CycleOutcome, settings: LoadedHeartbeatSettings): number | undefined {
  if (Object.keys(outcome.state.breakers ?? {}).length > 0) return undefined;
  const at = Date.parse(outcome.decision.at);
  const inside = outcome.decision.insideActiveHours;
  const window = { ...settings.config.activeHours, timeZone: settings.timeZone };
  let until: number | undefined;
  for (let ahead = 0; ahead <= PREFETCH_HORIZON_MS; ahead += PREFETCH_STEP_MS) {
    if (isWithinActiveHours(new Date(at + ahead), window) !== inside) break;
    until = at + ahead;
  }
  return until === undefined || until === at ? undefined : until;
}

function usageError(io: CliIo, message: string): number {
  io.stderr(`heartbeat-kit cycle: ${message}\n`);
  return EXIT.usage;
}

/** `heartbeat-kit cycle`: one cycle, printed as the spec's message or JSON. */
export const cycleCommand: Command = async (argv, io) => {
  // The whole one-shot cycle is the scan in flight: a first signal lets it finish, a second cuts it off.
  let finished = false;
  announceDrain(io, 'cycle', DEFAULT_SCANNER_TIMEOUT_MS, () => !finished);
  const tap: MetricsTap = {};
  try {
    const code = await runCycleCommand(argv, drainingIo(io), io, tap);
    // After whatever the slot wrote (ran, paused or skipped): the figures include its receipt.
    if (tap.textfile === undefined || tap.statePath === undefined) return code;
    const listed = await receiptStoreFor(tap.statePath).list();
    const written = await writeMetricsTextfile(
      tap.textfile,
      {
        receipts: listed.isOk() ? listed.value.receipts : [],
        outcome: tap.outcome,
        nextSlotMs: tap.nextSlotMs,
        pause: tap.pause,
      },
      io,
      'cycle',
    );
    return written || code !== EXIT.ok ? code : EXIT.failure;
  } finally {
    finished = true;
  }
};

/** What `--metrics-textfile` needs from the cycle: filled in as the command goes. */
interface MetricsTap {
  textfile?: string;
  statePath?: string;
  outcome?: CycleOutcome;
  pause?: PauseDecision;
  nextSlotMs?: number;
}

/**
 * The cycle command. `io` is the draining io (its tools and sinks stop at the cut-off); `signals`
 * has both signals, for the exit code.
 */
async function runCycleCommand(
  argv: readonly string[],
  io: CliIo,
  signals: Pick<CliIo, 'shutdownSignal' | 'cutOffSignal'>,
  tap: MetricsTap,
): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    return usageError(io, `${(error as Error).message}. Fix: see 'heartbeat-kit cycle --help'.`);
  }
  if (values.help) {
    io.stdout(CYCLE_HELP);
    return EXIT.ok;
  }
  const now = parseInstantFlag('--now', values.now);
  if (!now.ok) return usageError(io, now.message);
  const pingFlags = checkPingFlags(values);
  if (!pingFlags.ok) return usageError(io, pingFlags.message);
  const lastActive = parseInstantFlag('--operator-last-active', values['operator-last-active']);
  if (!lastActive.ok) return usageError(io, lastActive.message);
  // A rehearsal at another instant is a dry run: its receipt would close that slot for real runs.
  const rehearsal = now.date !== undefined;
  const dryRun = values['dry-run'] === true || rehearsal;
  const metrics = parseMetricsFlags(values, io.cwd);
  if (!metrics.ok) return usageError(io, metrics.message);
  // A dry run writes nothing, the textfile included.
  if (!dryRun && metrics.value.textfile !== undefined) tap.textfile = metrics.value.textfile;
  const resolved = await resolveHeartbeat(values, io, { dryRun });
  // A plan the bin would not use (another owner, a link, not a plan): said once, whatever happens next.
  const prefetchWarnings = io.prefetch === undefined ? [] : (await io.prefetch.planned, io.prefetch.warnings());
  for (const warning of prefetchWarnings) io.stderr(`heartbeat-kit cycle: warning: ${warning}\n`);
  const wall = commandClock(io, now.date);
  const at = (): Date => wall.now();
  if (!resolved.ok) {
    // A dry run is a rehearsal: it writes no receipt, even for a config error (the error is on stderr).
    if (resolved.configError === true && !dryRun) {
      // The slot did not run: say so in the receipts, so liveness checks see why.
      const { statePath } = resolved;
      tap.statePath = statePath;
      const detail = resolved.message.slice(0, 200);
      // The config could not be read, so only --ping can say so off-host: the slot ended with exit 2.
      const pinging = pingerFor(values, { value: undefined, file: '' }, { io, command: 'cycle', statePath, dryRun });
      const pinged = pinging.ok
        ? await pinging.pinger?.end(at().getTime(), {
            kind: 'end',
            result: { kind: 'exit', code: EXIT.usage },
            summary: `config error: ${resolved.message}`,
          })
        : undefined;
      await appendReceipt(
        receiptStoreFor(statePath, wall),
        withPingFailures(
          slotReceipt({ kind: 'config-error', detail }, { slotMs: at().getTime(), atMs: at().getTime(), source: 'cycle' }),
          pinged,
        ),
        statePath,
        io,
        'cycle',
      );
    }
    return usageError(io, resolved.message);
  }
  const { statePath, json, settings, deps } = resolved.value;
  tap.statePath = statePath;
  const pinging = pingerFor(values, { value: settings.config.ping, file: settings.file }, { io, command: 'cycle', statePath, dryRun });
  if (!pinging.ok) return usageError(io, pinging.message);
  const pinger = pinging.pinger;
  const receipts = receiptStoreFor(statePath, commandClock(io, now.date));
  const cron = values.cron === undefined ? undefined : await parseCronFlag(values.cron, settings.timeZone);
  if (cron !== undefined && !cron.ok) return usageError(io, cron.message);
  // The next slot is known only from the cron expression this invocation was started by.
  const nextCronSlot = cron?.value.nextAfter(at().getTime());
  if (nextCronSlot !== undefined) tap.nextSlotMs = nextCronSlot;
  for (const note of resolved.value.notes) io.stderr(`heartbeat-kit cycle: warning: ${note}\n`);
  for (const warning of settings.warnings) io.stderr(`heartbeat-kit cycle: warning: ${warning}\n`);
  if (settings.problem !== undefined && !json)
    io.stderr(`heartbeat-kit: warning: config: ${settings.problem.message}; fix: ${settings.problem.fix}\n`);
  // With --json on stdout the JSON object is the delivery; the message must not be printed twice.
  // A dry run never reaches the sink at all (runCycle does not call it).
  const quiet = { name: 'stdout', deliver: () => okAsync(undefined) };
  const sink = (json && resolved.value.sink.kind === 'stdout') || dryRun ? quiet : deps.sink;
  // A route to stdout is the JSON object's too with --json.
  const routes = replaceStdoutRoutes(deps.routes, resolved.value.routes, json ? quiet : undefined);
  // The operator's pause, read once under the lock (a dry run reads it too: it rehearses the real slot).
  let paused = { kind: 'run' } as PauseDecision;
  // The slot this run closes and its ping's run id: the cron slot, else the instant the cycle starts.
  let pingSlotMs = at().getTime();
  let ranOutcome: CycleOutcome | undefined;
  // The off-host monitor hears how the slot ended before its receipt is written, so a failed ping is in the receipt.
  const beforeReceipt = async (end: SlotEnd, receipt: Receipt): Promise<Receipt> => {
    // A paused slot is the operator's choice, not an outage: the monitor hears a success that says so.
    if (end.kind === 'paused')
      return withPingFailures(
        receipt,
        await pinger?.end(Date.parse(receipt.slot), { kind: 'end', result: { kind: 'success' }, summary: `paused: ${end.line ?? ''}` }),
      );
    if (end.kind === 'state-refused')
      return withPingFailures(
        receipt,
        await pinger?.end(pingSlotMs, {
          kind: 'end',
          result: { kind: 'exit', code: EXIT.failure },
          summary: `state refused: ${ranOutcome?.refused?.message ?? ''}`,
        }),
      );
    if (end.kind !== 'ran') return receipt;
    // The next cycle starts this one's first listings while it loads (a dry run leaves nothing behind).
    if (!dryRun) await io.prefetch?.savePlan({ configFile: settings.file, validUntilMs: prefetchValidUntil(end.outcome, settings) });
    if (pinger === undefined) return receipt;
    const code = stopSignalExit(signals.cutOffSignal ?? signals.shutdownSignal) ?? outcomeExitCode(end.outcome);
    return withPingFailures(receipt, await pinger.end(pingSlotMs, endPingEvent(end.outcome, code)));
  };

  // Never two cycles at once on one state file: a second invocation skips instead of racing.
  // A dry run writes nothing, so it takes no lock (never makes a real cycle skip) and writes no receipt:
  // a rehearsal's receipt (for a `--now` later today) would close that slot for real runs.
  // Missed cron slots are recorded under the lock, so two invocations never record them twice.
  // The slot's receipt is written only after evaluation and delivery finished: "fired" never passes for "ran".
  const ran = await runSlot(
    { clock: wall, receipts: dryRun ? undefined : receipts, lock: dryRun ? undefined : cycleSlotLock(statePath) },
    {
      source: 'cycle',
      grid: cron?.value,
      checks: settings.config.checks.map((c) => c.name),
      pause: async (nowMs) => {
        paused = await readPauseDecision(statePath, nowMs, io, 'cycle');
        tap.pause = paused;
        return paused;
      },
      run: async (pause, slotMs) => {
        const start = at();
        pingSlotMs = slotMs ?? start.getTime();
        pinger?.start(pingSlotMs);
        ranOutcome = await runCycle(
          { ...deps, sink, ...(routes === undefined ? {} : { routes }) },
          {
            config: settings.config,
            timeZone: settings.timeZone,
            categories: DEFAULT_CATEGORIES,
            now: start,
            ...(lastActive.date ? { operatorLastActiveAt: lastActive.date } : {}),
            ...(dryRun ? { dryRun } : {}),
            ...(pause.kind === 'partial' ? { pause } : {}),
          },
        );
        return ranOutcome;
      },
      beforeReceipt: (end, receipt) => beforeReceipt(end, receipt),
    },
  );
  if (ran.listError !== undefined)
    io.stderr(`heartbeat-kit cycle: warning: cannot read the receipts (${ran.listError.message}); missed cron slots are not recorded.\n`);
  for (const unwritten of ran.unwritten) sayUnwritten(unwritten, statePath, io, 'cycle');
  const end = ran.end;
  if (end.kind === 'overlapping') {
    const reason = skipReason(
      statePath,
      { kind: 'held', holder: end.holder ?? { owner: '?', acquiredAtMs: 0 }, liveness: end.liveness ?? 'unknown' },
      Date.now(),
    );
    printInfo(io, `heartbeat-kit cycle: skipped: ${reason}.\n`);
    if (json) io.stdout(`${JSON.stringify({ status: 'skipped', reason, holder: { ...end.holder, liveness: end.liveness } })}\n`);
    return EXIT.skipped;
  }
  if (end.kind === 'lock-unavailable') {
    const message = end.error === undefined || end.error.kind === 'held' ? 'held' : end.error.message;
    io.stderr(`heartbeat-kit cycle: cannot take the cycle lock: ${withFix(message, `check that ${dirname(statePath)} is writable.`)}\n`);
    return EXIT.failure;
  }
  if (end.kind === 'paused') return pausedSlot(paused, { io, json, dryRun, receipt: ran.receipt, written: ran.written });
  if (end.kind !== 'ran' || ranOutcome === undefined) {
    // Nothing ran: the stored state stays exactly as it was, and the slot's receipt says why.
    const refused = ranOutcome?.refused;
    for (const warning of ranOutcome?.warnings ?? []) io.stderr(`heartbeat-kit cycle: warning: ${warning}\n`);
    io.stderr(`heartbeat-kit cycle: ${statePath}: ${refused?.message ?? end.kind}.\n`);
    if (json && refused !== undefined)
      io.stdout(
        `${JSON.stringify({ status: 'refused', reason: refused.reason, ...(refused.version === undefined ? {} : { version: refused.version }), message: refused.message })}\n`,
      );
    return EXIT.failure;
  }
  const outcome: CycleOutcome = end.outcome;
  tap.outcome = outcome;
  if (ran.tookOverFrom !== undefined)
    printInfo(
      io,
      `heartbeat-kit cycle: took over ${cycleLockPath(statePath)} from ${describeHolder(ran.tookOverFrom, undefined, Date.now())} (stale).\n`,
    );
  const receiptOk = ran.written;

  let recordFailed = false;
  if (values.record !== undefined) {
    const d = outcome.decision;
    const recordPath = resolvePath(io.cwd, values.record);
    try {
      await appendJsonLine(
        recordPath,
        createCycleRecord(
          outcome.previousState,
          outcome.scanResults,
          {
            now: new Date(d.at),
            config: settings.config,
            timeZone: settings.timeZone,
            insideActiveHours: d.insideActiveHours,
            operatorLastActiveAt: outcome.operatorLastActiveAt,
            categories: DEFAULT_CATEGORIES,
          },
          d,
        ),
      );
    } catch (error) {
      // The cycle already ran and delivered: say so and still print its result, but fail the exit code.
      recordFailed = true;
      io.stderr(
        `heartbeat-kit cycle: cannot append the cycle record to ${recordPath}: ${(error as Error).message}. Fix: check the path and its permissions.\n`,
      );
    }
  }

  for (const warning of outcome.warnings) io.stderr(`heartbeat-kit cycle: warning: ${warning}\n`);
  // stdout stays exactly HEARTBEAT_OK on a quiet cycle; what could not be looked at goes to stderr.
  // Then one line of what that leaves covered, so a quiet cycle that looked at little says so.
  const coverage = cycleCoverage(outcome.scanResults, outcome.problems);
  const lines = json
    ? ''
    : problemLines(outcome) + ackedLines(outcome) + outsideActiveHoursLine(outcome, settings) + coverageLine(coverage);
  if (lines !== '') io.stderr(lines);
  // With routes, each route says where its share went (stdout carries only the default route's).
  if (!json)
    for (const r of outcome.routes ?? [])
      io.stderr(
        `heartbeat-kit cycle: route ${r.route}: ${r.delivery} to ${r.sink} (${r.findings} finding${r.findings === 1 ? '' : 's'}${r.resolved > 0 ? `, ${r.resolved} resolved` : ''}; id ${r.messageId})\n`,
      );
  const advisory = json ? '' : sinkAdvisoryText(outcome);
  if (advisory !== '') (resolved.value.sink.kind === 'stdout' ? io.stderr : io.stdout)(advisory);
  if (dryRun && !json)
    io.stderr(
      rehearsal
        ? `heartbeat-kit cycle: rehearsal at ${at().toISOString()} (--now implies --dry-run): nothing was delivered and nothing was written.\n`
        : 'heartbeat-kit cycle: dry run: nothing was delivered and no state was saved.\n',
    );
  if (paused.kind === 'partial' && !json) io.stderr(pausePartialLine(paused, 'cycle'));
  // A signal cut scanners off: the cycle did not look everywhere, so it is partial and never HEARTBEAT_OK.
  const cutOff = cutOffScanners(outcome.problems);
  if (cutOff.length > 0 && !json)
    io.stderr(`heartbeat-kit cycle: partial cycle: a signal cut off ${cutOff.join(', ')}; what they watch was not looked at.\n`);
  if (json) {
    const base = cycleJson(outcome);
    const configProblems =
      settings.problem === undefined
        ? []
        : [{ scanner: 'config', kind: 'unrecognised', severity: 'warning', code: 'CONFIG_UNRECOGNISED', ...settings.problem }];
    io.stdout(
      `${JSON.stringify({ ...base, warnings: [...(base.warnings as string[]), ...prefetchWarnings], coverage, config: { file: settings.file, presence: settings.presence }, problems: [...configProblems, ...(base.problems as unknown[])], ...(cutOff.length > 0 ? { partial: true, cutOff } : {}), ...(dryRun ? { dryRun: true } : {}), ...(rehearsal ? { rehearsal: true } : {}), ...(paused.kind === 'partial' ? { pause: paused.pause } : {}), ...(io.prefetch === undefined ? {} : { prefetch: io.prefetch.stats() }) })}\n`,
    );
  } else if (outcome.decision.message === null) {
    if (cutOff.length === 0) io.stdout('HEARTBEAT_OK\n');
  } else if (resolved.value.sink.kind !== 'stdout' || dryRun) {
    io.stdout(`${outcome.decision.message.content}\n`);
    if (outcome.decision.costAlert) io.stdout(`${outcome.decision.costAlert.content}\n`);
  }
  // A cut-off (a second Ctrl-C or SIGTERM): the cycle did not finish, so `cycle && next` must not go on.
  // After a first signal alone it finished and delivered: it exits as any cycle does.
  const stopped = stopSignalExit(signals.cutOffSignal ?? signals.shutdownSignal);
  if (stopped !== undefined) return stopped;
  // A report held back by the sink's open breaker was not delivered either: cron monitors see 3.
  // A tool killed by a signal from elsewhere (a process-group kill) left the cycle partial: 3 too.
  return outcome.delivery === 'failed' ||
    outcome.delivery === 'held' ||
    outcome.stateError !== undefined ||
    recordFailed ||
    !receiptOk ||
    cutOff.length > 0
    ? EXIT.failure
    : EXIT.ok;
}

/** A slot the operator's pause skipped whole: its `paused` receipt (none for a dry run) said, exit 0. */
function pausedSlot(
  paused: PauseDecision,
  slot: { io: CliIo; json: boolean; dryRun: boolean; receipt: Receipt; written: boolean },
): number {
  if (paused.kind !== 'skip') return EXIT.internal;
  const { io, json, dryRun } = slot;
  if (json)
    io.stdout(
      `${JSON.stringify({ status: 'paused', slot: slot.receipt.slot, pause: paused.pause, ...(dryRun ? { dryRun: true } : {}) })}\n`,
    );
  else printInfo(io, `heartbeat-kit cycle: ${paused.line}; this slot did not run (nothing looked at). Resume: heartbeat-kit resume.\n`);
  return slot.written ? EXIT.ok : EXIT.failure;
}
