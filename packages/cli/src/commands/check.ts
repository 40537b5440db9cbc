import { parseArgs } from 'node:util';
import { decodeHeartbeatState, evaluateCycle, type Finding } from '@heartbeat-kit/core';
import {
  checkCategoryOf,
  checkDueAtMs,
  type CheckSpec,
  describeCheckEvery,
  formatDuration,
  isWithinActiveHours,
} from '@heartbeat-kit/core/host';
import { CHECK_SLICE, checkArgv, DEFAULT_CATEGORIES, runCheck, type CheckSlice } from '@heartbeat-kit/scanners';
import { unknownNameError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo, Command } from '../io.js';
import { checkScannerSpec } from '../wiring/check-scanners.js';
import { parseEnvAllowFlag } from '../wiring/cli-runner.js';
import { resolveHeartbeat } from '../wiring/heartbeat-options.js';
import { parseInstantFlag } from '../wiring/instant.js';

/** The check contract: what a command's exit code and stdout mean (docs/checks.md says the same). */
export const CHECK_CONTRACT = `The contract of a check (its exit code and stdout):
  exit 0, empty stdout      quiet: looked, found nothing
  exit 0, JSON lines        findings, one object per line:
                            {"subject": "...", "line": "...", "action"?: "...", "short"?: "...",
                             "priority"?: "Immediate"|"Advisory"|"Normal", "content"?: any JSON}
                            (docs/schemas/check-finding.schema.json; content is what change-aware
                            repeats compare, default the line; subject + category is the dedup key)
  exit 0, plain text        one finding: its line is the first line (bounded, sanitised)
  exit 2                    not applicable now: a skip, said on stderr and in --json, never a failure
  anything else             a scanner problem, never quiet: another exit code, a timeout (the
                            whole process group is killed), a signal, stdout or stderr over 1 MiB,
                            a line over 64 KiB, malformed JSON. Said on stderr, in --json and the
                            receipts; N cycles in a row trip the breaker.
Output is sanitised like every tool's: terminal escapes stripped, secrets redacted, @mentions
defused. The check runs through the heartbeat's process runner with an argv (no shell unless
shell: true), in the project directory (or cwd:), with the env policy (env allow / env deny).
`;

/** Help text of `heartbeat-kit check` (also `heartbeat-kit help checks`). */
export const CHECK_HELP = `Usage: heartbeat-kit check run NAME [options]
       heartbeat-kit check list [options]

Checks are commands HEARTBEAT.md's "## Checks" turns into scanners:

  ## Checks
  - name: disk
    - run: [sh, -c, "df --output=pcent / | tail -1"]
    - every: 30m              (or "3 cycles"; default every cycle)
    - timeout: 10s            (default 10s, at most 25s)
    - priority: Advisory      (Immediate | Advisory | Normal; default Normal)
    - category: DISK_FULL     (default CHECK_<NAME>)
    - outside-hours: skip     (run | skip; default skip)
    - cwd: services/api       (relative to the project directory)
    - env allow: GH_TOKEN     (hardened mode for this check)  / env deny: AWS_*
    - confirm: 2              (runs in a row before a finding is reported)
    - repeat: 1h, 4h          (like the Repeat lines)
    - shell: true             (only then may run be a string, run by /bin/sh -c)

${CHECK_CONTRACT}
  check run NAME   run one check now (whatever its every: says) and show the findings it would
                   produce and what the decision would be (new, changed, dedup, outside active
                   hours, held, unconfirmed). Writes nothing: no state, no receipt, no delivery.
  check list       the checks of HEARTBEAT.md with their cadence and when each is next due.

Options:
  --cwd DIR        a directory of the project's git repository (default: current directory)
  --config FILE    heartbeat config (default: the nearest .claude/HEARTBEAT.md)
  --state FILE     the state to judge dedup against (default: the cycle's)
  --now ISO        run as at this instant
  --env-allow NAMES  as for cycle: hardened mode for checks without their own env allow
  --json           print one JSON object
  -h, --help       show this help

Exit codes: 0 the check ran (quiet, findings, or exit 2 = not applicable), 2 usage or config error
(an unknown NAME names the checks there are), 3 the check could not run or broke the contract
(the problem and its fix on stderr).
`;

const OPTIONS = {
  cwd: { type: 'string' },
  config: { type: 'string' },
  state: { type: 'string' },
  now: { type: 'string' },
  'env-allow': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

function usage(io: CliIo, message: string): number {
  io.stderr(`heartbeat-kit check: ${message}\n`);
  return EXIT.usage;
}

function at(ms: number): string {
  return new Date(ms).toISOString();
}

function findingJson(finding: Finding): Record<string, unknown> {
  return {
    category: finding.category,
    priority: finding.priority,
    subject: finding.subject,
    line: finding.line,
    action: finding.action,
    short: finding.short,
  };
}

/** `heartbeat-kit check`: run one check now (`run NAME`) or list them (`list`), writing nothing. */
export const checkCommand: Command = async (argv, io) => {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: true });
  } catch (error) {
    return usage(io, `${(error as Error).message}. Fix: see 'heartbeat-kit help check'.`);
  }
  const { values, positionals } = parsed;
  if (values.help === true) {
    io.stdout(CHECK_HELP);
    return EXIT.ok;
  }
  const [sub, name, ...extra] = positionals;
  if (sub === undefined) return usage(io, "needs a subcommand: run NAME or list. Fix: e.g. 'heartbeat-kit check run disk'.");
  if (sub !== 'run' && sub !== 'list') {
    unknownNameError(io, 'check', 'subcommand', sub, ['run', 'list']);
    return EXIT.usage;
  }
  if (sub === 'run' && name === undefined) return usage(io, "run needs the check's NAME. Fix: 'heartbeat-kit check list' lists them.");
  if (extra.length > 0 || (sub === 'list' && name !== undefined))
    return usage(io, `unexpected argument '${(sub === 'list' ? name : extra[0]) ?? ''}'. Fix: see 'heartbeat-kit help check'.`);
  const now = parseInstantFlag('--now', values.now);
  if (!now.ok) return usage(io, now.message);
  const envFlag = parseEnvAllowFlag(values['env-allow']);
  if (!envFlag.ok) return usage(io, envFlag.message);
  // A rehearsal: nothing is migrated, locked or written.
  const resolved = await resolveHeartbeat(values, io, { dryRun: true });
  if (!resolved.ok) return usage(io, resolved.message);
  const { settings, deps, cwd } = resolved.value;
  const config = settings.config;
  const json = values.json === true;
  const nowDate = now.date ?? new Date();
  const loaded = await deps.stateStore.load();
  const state = decodeHeartbeatState(loaded.isOk() ? loaded.value.document : undefined).state;
  const sliceOf = (check: CheckSpec): CheckSlice => {
    const stored = state.scannerSlices?.[check.name];
    const read = stored === undefined || stored.version !== CHECK_SLICE.version ? undefined : CHECK_SLICE.schema.safeParse(stored.data);
    return read?.success === true ? read.data : CHECK_SLICE.initial();
  };
  if (sub === 'list') {
    const rows = config.checks.map((check) => {
      const last = sliceOf(check).lastRunMs;
      return {
        name: check.name,
        category: checkCategoryOf(check),
        every: describeCheckEvery(check, formatDuration),
        lastRun: last === undefined ? null : at(last),
        dueAt: at(checkDueAtMs(check, last, nowDate.getTime(), config.intervalMs)),
        outsideHours: check.outsideHours,
      };
    });
    if (json) io.stdout(`${JSON.stringify({ file: settings.file, checks: rows })}\n`);
    else if (rows.length === 0) io.stdout(`${settings.file}: no checks (add a "## Checks" section; 'heartbeat-kit help checks').\n`);
    else
      for (const r of rows)
        io.stdout(
          `${r.name.padEnd(20)} ${r.every.padEnd(18)} next ${r.dueAt}${r.lastRun === null ? ' (never ran)' : ` (last ${r.lastRun})`}  ${r.category}\n`,
        );
    return EXIT.ok;
  }
  const check = config.checks.find((c) => c.name === name);
  if (check === undefined) {
    if (config.checks.length === 0)
      return usage(io, `${settings.file} has no checks. Fix: add a "## Checks" section ('heartbeat-kit help checks').`);
    unknownNameError(
      io,
      'check run',
      'subcommand',
      name ?? '',
      config.checks.map((c) => c.name),
    );
    return EXIT.usage;
  }
  const window = { ...config.activeHours, timeZone: settings.timeZone };
  const insideActiveHours = isWithinActiveHours(nowDate, window);
  const spec = checkScannerSpec(check, { io, cwd, envAllow: envFlag.names ?? config.envAllow });
  // Now, whatever `every:` says: the previous streaks stay (hysteresis), the last run is forgotten.
  const previous = sliceOf(check);
  const run = await runCheck(spec, { now: nowDate, config, insideActiveHours, signal: io.shutdownSignal }, { streaks: previous.streaks });
  const { decision } = evaluateCycle(state, [run.result], {
    now: nowDate,
    config,
    timeZone: settings.timeZone,
    insideActiveHours,
    operatorLastActiveAt: undefined,
    categories: DEFAULT_CATEGORIES,
  });
  const category = checkCategoryOf(check);
  const mine = (f: Finding): boolean => f.category === category;
  const verdicts = [
    ...decision.reportable.filter(mine).map((f) => ({ finding: f, decision: 'report' as const })),
    ...decision.held
      .filter(mine)
      .map((f) => ({ finding: f, decision: 'held' as const, why: 'operator active: Advisory/Normal waits until idle' })),
    ...decision.suppressed
      .filter((s) => mine(s.finding))
      .map((s) => ({
        finding: s.finding,
        decision: s.reason,
        ...(s.repeatAtMs === undefined ? {} : { repeatAt: at(s.repeatAtMs) }),
        ...(s.lastReportedAtMs === undefined ? {} : { lastReportedAt: at(s.lastReportedAtMs) }),
      })),
  ];
  const result = run.result;
  const failed = result.status === 'error' || result.status === 'timeout';
  const problem =
    result.status === 'error'
      ? { kind: 'failed', message: result.error, fix: result.fix ?? '' }
      : result.status === 'skipped'
        ? { kind: 'skipped', message: result.reason, fix: result.fix ?? '' }
        : result.status === 'timeout'
          ? { kind: 'timed-out', message: `timed out after ${result.timeoutMs} ms`, fix: '' }
          : undefined;
  if (json) {
    io.stdout(
      `${JSON.stringify({
        check: check.name,
        category,
        argv: checkArgv(check),
        status: result.status,
        ...(run.exitCode === undefined ? {} : { exitCode: run.exitCode }),
        ...(run.form === undefined ? {} : { form: run.form }),
        durationMs: Math.round(result.durationMs),
        insideActiveHours,
        ...(problem === undefined ? {} : { problem }),
        findings: verdicts.map((v) => ({ ...findingJson(v.finding), ...v, finding: undefined })),
        unconfirmed: run.unconfirmed.map((u) => ({ ...findingJson(u.finding), seenRuns: u.seenRuns, neededRuns: u.neededRuns })),
        warnings: result.status === 'ok' ? result.warnings : [],
        wrote: 'nothing',
      })}\n`,
    );
  } else {
    const head = `check ${check.name}: ${result.status === 'ok' ? `ran (exit 0, ${run.form ?? 'quiet'}, ${Math.round(result.durationMs)} ms)` : result.status}`;
    io.stdout(`${head}\n`);
    if (result.status === 'ok' && verdicts.length === 0 && run.unconfirmed.length === 0) io.stdout('  quiet: looked and found nothing\n');
    for (const v of verdicts) {
      const why =
        v.decision === 'report'
          ? 'would be reported'
          : v.decision === 'dedup'
            ? `not reported: unchanged, reported ${'lastReportedAt' in v ? v.lastReportedAt : ''}; due again ${'repeatAt' in v ? v.repeatAt : ''}`
            : v.decision === 'outside-active-hours'
              ? 'not reported: outside active hours'
              : 'held: the operator is active';
      io.stdout(`  ${v.finding.priority} ${v.finding.line} — ${why}\n`);
    }
    for (const u of run.unconfirmed)
      io.stdout(`  ${u.finding.priority} ${u.finding.line} — unconfirmed: seen ${u.seenRuns} of ${u.neededRuns} runs\n`);
    if (result.status === 'ok')
      for (const w of result.warnings) io.stderr(`heartbeat-kit check: warning: ${w.message}; fix: ${w.fix ?? ''}\n`);
    if (problem !== undefined)
      io.stderr(
        `heartbeat-kit check: ${failed ? 'warning: ' : ''}${check.name} ${problem.kind}: ${problem.message}${problem.fix === '' ? '' : `; fix: ${problem.fix}`}\n`,
      );
    io.stderr('heartbeat-kit check: nothing was written (no state, receipt or delivery).\n');
  }
  return failed ? EXIT.failure : EXIT.ok;
};
