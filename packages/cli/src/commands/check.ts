import { decodeHeartbeatState, evaluateCycle, type Finding, type HeartbeatState } from '@heartbeat-kit/core';
import {
  checkCategoryOf,
  checkDueAtMs,
  type CheckSpec,
  describeCheckEvery,
  formatDuration,
  isWithinActiveHours,
} from '@heartbeat-kit/core/host';
import { CHECK_SLICE, checkArgv, DEFAULT_CATEGORIES, runCheck, type CheckSlice } from '@heartbeat-kit/scanners';
import { err, ok, type Result } from 'neverthrow';
import { defineCommand, usageFailure, type CommandFailure, type CommandInput } from '../cli-kernel/index.js';
import { unknownNameError, unknownNameMessage } from '../errors.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { checkScannerSpec } from '../wiring/check-scanners.js';
import { parseEnvAllowFlag } from '../wiring/cli-runner.js';
import { resolveHeartbeat, type ResolvedHeartbeat } from '../wiring/heartbeat-options.js';
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

const FLAGS = {
  cwd: { type: 'string', value: 'DIR', help: "a directory of the project's git repository (default: current directory)" },
  config: { type: 'string', value: 'FILE', help: 'heartbeat config (default: the nearest .claude/HEARTBEAT.md)' },
  state: { type: 'string', value: 'FILE', help: "the state to judge dedup against (default: the cycle's)" },
  now: { type: 'string', value: 'ISO', help: 'run as at this instant' },
  'env-allow': { type: 'string', value: 'NAMES', help: 'as for cycle: hardened mode for checks without their own env allow' },
  json: { type: 'boolean', help: 'print one JSON object' },
} as const;

type Outcome = Promise<Result<ExitCode, CommandFailure>>;

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

/** A check's stored slice in the last state (its streaks and last run), or a fresh one. */
function sliceReader(state: HeartbeatState): (check: CheckSpec) => CheckSlice {
  return (check) => {
    const stored = state.scannerSlices?.[check.name];
    const read = stored === undefined || stored.version !== CHECK_SLICE.version ? undefined : CHECK_SLICE.schema.safeParse(stored.data);
    return read?.success === true ? read.data : CHECK_SLICE.initial();
  };
}

/** What `check` works from once the flags are read: the heartbeat, its last state and the instant. */
interface CheckContext {
  readonly io: CliIo;
  readonly resolved: ResolvedHeartbeat;
  readonly state: HeartbeatState;
  readonly sliceOf: (check: CheckSpec) => CheckSlice;
  readonly now: Date;
  readonly json: boolean;
  readonly envAllow: readonly string[] | undefined;
}

/** `check list`: every check with its cadence and when it is next due. */
function listChecks({ io, resolved, sliceOf, now, json }: CheckContext): Result<ExitCode, CommandFailure> {
  const { settings } = resolved;
  const config = settings.config;
  const rows = config.checks.map((check) => {
    const last = sliceOf(check).lastRunMs;
    return {
      name: check.name,
      category: checkCategoryOf(check),
      every: describeCheckEvery(check, formatDuration),
      lastRun: last === undefined ? null : at(last),
      dueAt: at(checkDueAtMs(check, last, now.getTime(), config.intervalMs)),
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
  return ok(EXIT.ok);
}

type CheckRun = Awaited<ReturnType<typeof runCheck>>;
type Verdict = {
  readonly finding: Finding;
  readonly decision: string;
  readonly why?: string;
  readonly repeatAt?: string;
  readonly lastReportedAt?: string;
};
type Problem = { readonly kind: string; readonly message: string; readonly fix: string };

/** What the cycle would decide for this check's findings: report, held, or why not reported. */
function checkVerdicts(context: CheckContext, check: CheckSpec, run: CheckRun, insideActiveHours: boolean): Verdict[] {
  const { settings } = context.resolved;
  const { decision } = evaluateCycle(context.state, [run.result], {
    now: context.now,
    config: settings.config,
    timeZone: settings.timeZone,
    insideActiveHours,
    operatorLastActiveAt: undefined,
    categories: DEFAULT_CATEGORIES,
  });
  const category = checkCategoryOf(check);
  const mine = (f: Finding): boolean => f.category === category;
  return [
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
}

/** Why a run said nothing or broke the contract, if it did. */
function checkProblem(result: CheckRun['result']): Problem | undefined {
  if (result.status === 'error') return { kind: 'failed', message: result.error, fix: result.fix ?? '' };
  if (result.status === 'skipped') return { kind: 'skipped', message: result.reason, fix: result.fix ?? '' };
  if (result.status === 'timeout') return { kind: 'timed-out', message: `timed out after ${result.timeoutMs} ms`, fix: '' };
  return undefined;
}

/** `check run NAME --json`: the run, its verdicts and its problem as one object. */
function printCheckJson(io: CliIo, check: CheckSpec, run: CheckRun, verdicts: readonly Verdict[], insideActiveHours: boolean): void {
  const result = run.result;
  const problem = checkProblem(result);
  io.stdout(
    `${JSON.stringify({
      check: check.name,
      category: checkCategoryOf(check),
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
}

function verdictWhy(v: Verdict): string {
  if (v.decision === 'report') return 'would be reported';
  if (v.decision === 'dedup') return `not reported: unchanged, reported ${v.lastReportedAt ?? ''}; due again ${v.repeatAt ?? ''}`;
  if (v.decision === 'outside-active-hours') return 'not reported: outside active hours';
  return 'held: the operator is active';
}

/** `check run NAME`: the run as text on stdout, its warnings and problem on stderr. */
function printCheckText(io: CliIo, check: CheckSpec, run: CheckRun, verdicts: readonly Verdict[]): void {
  const result = run.result;
  const problem = checkProblem(result);
  const failed = result.status === 'error' || result.status === 'timeout';
  const head = `check ${check.name}: ${result.status === 'ok' ? `ran (exit 0, ${run.form ?? 'quiet'}, ${Math.round(result.durationMs)} ms)` : result.status}`;
  io.stdout(`${head}\n`);
  if (result.status === 'ok' && verdicts.length === 0 && run.unconfirmed.length === 0) io.stdout('  quiet: looked and found nothing\n');
  for (const v of verdicts) io.stdout(`  ${v.finding.priority} ${v.finding.line} — ${verdictWhy(v)}\n`);
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

/** `check run NAME`: run the check now, whatever its `every:` says, and show what would be decided. */
async function runOneCheck(context: CheckContext, name: string): Outcome {
  const { io, resolved, now } = context;
  const { settings, cwd } = resolved;
  const config = settings.config;
  const check = config.checks.find((c) => c.name === name);
  if (check === undefined) {
    if (config.checks.length === 0)
      return usageFailure(`${settings.file} has no checks. Fix: add a "## Checks" section ('heartbeat-kit help checks').`);
    // Said as `heartbeat-kit check run: unknown subcommand …`, as before the kernel.
    unknownNameError(
      io,
      'check run',
      'subcommand',
      name,
      config.checks.map((c) => c.name),
    );
    return ok(EXIT.usage);
  }
  const insideActiveHours = isWithinActiveHours(now, { ...config.activeHours, timeZone: settings.timeZone });
  const spec = checkScannerSpec(check, { io, cwd, envAllow: context.envAllow ?? config.envAllow });
  // The previous streaks stay (hysteresis), the last run is forgotten.
  const previous = context.sliceOf(check);
  const run = await runCheck(spec, { now, config, insideActiveHours, signal: io.shutdownSignal }, { streaks: previous.streaks });
  const verdicts = checkVerdicts(context, check, run, insideActiveHours);
  if (context.json) printCheckJson(io, check, run, verdicts, insideActiveHours);
  else printCheckText(io, check, run, verdicts);
  const failed = run.result.status === 'error' || run.result.status === 'timeout';
  return ok(failed ? EXIT.failure : EXIT.ok);
}

/** The subcommand and check name in the positionals, or the usage error that says what is missing. */
function checkTarget(positionals: readonly string[]): Result<{ sub: 'run' | 'list'; name: string }, CommandFailure> {
  const [sub, name, ...extra] = positionals;
  if (sub === undefined) return usageFailure("needs a subcommand: run NAME or list. Fix: e.g. 'heartbeat-kit check run disk'.");
  if (sub !== 'run' && sub !== 'list') return usageFailure(unknownNameMessage('check', 'subcommand', sub, ['run', 'list']));
  if (sub === 'run' && name === undefined) return usageFailure("run needs the check's NAME. Fix: 'heartbeat-kit check list' lists them.");
  if (extra.length > 0 || (sub === 'list' && name !== undefined))
    return usageFailure(`unexpected argument '${(sub === 'list' ? name : extra[0]) ?? ''}'. Fix: see 'heartbeat-kit help check'.`);
  return ok({ sub, name: name ?? '' });
}

async function checkBody({ flags, positionals, io }: CommandInput<typeof FLAGS>): Outcome {
  const target = checkTarget(positionals);
  if (target.isErr()) return err(target.error);
  const now = parseInstantFlag('--now', flags.now);
  if (now.isErr()) return usageFailure(now.error);
  const envFlag = parseEnvAllowFlag(flags['env-allow']);
  if (envFlag.isErr()) return usageFailure(envFlag.error);
  // A rehearsal: nothing is migrated, locked or written.
  const resolved = await resolveHeartbeat(flags, io, { dryRun: true });
  if (resolved.isErr()) return usageFailure(resolved.error.message);
  const loaded = await resolved.value.deps.stateStore.load();
  const state = decodeHeartbeatState(loaded.isOk() ? loaded.value.document : undefined).state;
  const context: CheckContext = {
    io,
    resolved: resolved.value,
    state,
    sliceOf: sliceReader(state),
    now: now.value ?? new Date(),
    json: flags.json === true,
    envAllow: envFlag.value,
  };
  return target.value.sub === 'list' ? listChecks(context) : runOneCheck(context, target.value.name);
}

/** `heartbeat-kit check`: run one check now (`run NAME`) or list them (`list`), writing nothing. */
export const checkCommand = defineCommand(
  {
    name: 'check',
    usage: `run NAME [options]
       heartbeat-kit check list [options]`,
    description: `Checks are commands HEARTBEAT.md's "## Checks" turns into scanners:

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
  check list       the checks of HEARTBEAT.md with their cadence and when each is next due.`,
    flags: FLAGS,
    // run NAME or list, checked by the body so each mistake gets its own fix.
    positionals: { max: Number.POSITIVE_INFINITY, fix: '' },
    helpColumn: 19,
    exitCodes: [
      [EXIT.ok, 'the check ran (quiet, findings, or exit 2 = not applicable)'],
      [EXIT.usage, 'usage or config error (an unknown NAME names the checks there are)'],
      [EXIT.failure, 'the check could not run or broke the contract (the problem and its fix on stderr)'],
    ],
  },
  checkBody,
);
