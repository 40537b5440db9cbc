import {
  applyPrunePlan,
  buildGateState,
  computeGateAgreement,
  decideBootTriage,
  decideQuietFastPath,
  dueItems,
  parseGateLog,
  parseRunbook,
  planPrune,
  readChecklistSettings,
  readPullRequestStates,
  runChecklistTick,
  runGate,
  validateRunbook,
  type Gate,
  type GateState,
  type PrunePlan,
  type PullRequestStateMap,
  type Runbook,
  type RunbookValidation,
} from '@heartbeat-kit/runbook';
import { createGhPullRequestStates } from '@heartbeat-kit/runbook/github';
import { writeTextFileAtomic } from '@heartbeat-kit/runbook/node';
import { err, ok, type Result } from 'neverthrow';
import { commandFailure, defineCommand, usageFailure, type CommandFailure } from '../../cli-kernel/index.js';
import { EXIT } from '../../exit-codes.js';
import type { CliIo } from '../../io.js';
import { createCliRunner, parseEnvAllowFlag } from '../../wiring/cli-runner.js';
import { SAMPLE_RUNBOOK_FILE, runbookSpec } from './help.js';
import { gateFor } from './gate-selection.js';
import { readInputFile, readScriptReports, readStatus } from './input-files.js';
import { noPositionals, oneLine, onePositional, printJson, resolveCommon, resolvePath, runbookUsage } from './shared.js';

export { RULES_GATE_NAMES, gateFor } from './gate-selection.js';

function runbookFile(sub: string, positionals: readonly string[]): Result<string, CommandFailure> {
  return onePositional(sub, positionals, 'runbook FILE', `${SAMPLE_RUNBOOK_FILE} ('heartbeat-kit runbook init' writes a sample)`);
}

/** The lines `runbook check` prints for a validation, one per problem, by line number. */
export function validationLines(file: string, v: RunbookValidation): readonly string[] {
  return [...v.errors, ...v.warnings].sort((a, b) => a.line - b.line).map((i) => `${file}:${i.line}: ${i.severity}: ${oneLine(i.message)}`);
}

/**
 * Refuses a runbook that `runbook check` rejects: the same line-numbered lines on stderr (and the
 * validation in --json), so a tick never decides over a file the server would not store.
 */
function refuseRejected(io: CliIo, file: string, v: RunbookValidation, json: boolean): Result<void, CommandFailure> {
  if (v.accepted) return ok(undefined);
  for (const line of validationLines(file, v)) io.stderr(`${line}\n`);
  if (json) printJson(io, { kind: 'refused', file, ...v });
  return usageFailure(`${file} is rejected by 'heartbeat-kit runbook check' (${v.errors.length} error(s)); fix the lines above`);
}
const RUNBOOK_SECTIONS = '## Active Blockers, ## Watch Items, ## Open Discussion, ## Standing Orders';

/** Warns when a file has none of the runbook's sections: it is likely some other file (HEARTBEAT.md is the heartbeat's config). */
function warnIfNotRunbook(io: CliIo, sub: string, file: string, runbook: Runbook): void {
  if (runbook.sections.some((sec) => sec.kind !== 'other')) return;
  io.stderr(
    `heartbeat-kit runbook ${sub}: warning: ${file} has none of the runbook sections (${RUNBOOK_SECTIONS}, ...); is it a runbook? 'heartbeat-kit runbook init' writes a sample\n`,
  );
}

/** The runbook FILE read and parsed, with the warning when it does not look like a runbook. */
async function readRunbook(io: CliIo, sub: string, file: string): Promise<Result<Runbook, CommandFailure>> {
  const text = await readInputFile(io, file, 'runbook');
  if (text.isErr()) return err(text.error);
  const runbook = parseRunbook(text.value);
  warnIfNotRunbook(io, sub, file, runbook);
  return ok(runbook);
}

/** `runbook check FILE`: the tracked-item date check; exit 1 when the server would refuse the file. */
export const checkCommand = defineCommand(runbookSpec('check', {}), async ({ flags, positionals, io }) => {
  const common = resolveCommon('check', flags, io);
  if (common.isErr()) return err(common.error);
  const named = runbookFile('check', positionals);
  if (named.isErr()) return err(named.error);
  const file = named.value;
  const runbook = await readRunbook(io, 'check', file);
  if (runbook.isErr()) return err(runbook.error);
  const v = validateRunbook(runbook.value);
  if (common.value.json) printJson(io, { file, ...v });
  else {
    for (const line of validationLines(file, v)) io.stdout(`${line}\n`);
    io.stdout(
      `${file}: ${v.accepted ? 'accepted' : 'rejected'} (${v.trackedItemCount} tracked item(s), ${v.errors.length} error(s), ${v.warnings.length} warning(s))\n`,
    );
  }
  return ok(v.accepted ? EXIT.ok : EXIT.rejected);
});

/** `runbook due FILE`: tracked items the gate sees as due now. */
export const dueCommand = defineCommand(runbookSpec('due', {}), async ({ flags, positionals, io }) => {
  const common = resolveCommon('due', flags, io);
  if (common.isErr()) return err(common.error);
  const named = runbookFile('due', positionals);
  if (named.isErr()) return err(named.error);
  const file = named.value;
  const { json, now, tz } = common.value;
  const runbook = await readRunbook(io, 'due', file);
  if (runbook.isErr()) return err(runbook.error);
  const due = dueItems(runbook.value, now, tz);
  if (json)
    printJson(io, {
      file,
      now: now.toISOString(),
      timeZone: tz,
      due: due.map((d) => ({ line: d.item.line, section: d.item.section, reason: d.reason, token: d.token, text: d.item.text })),
    });
  else if (due.length === 0) io.stdout(`${file}: nothing due (${tz})\n`);
  else for (const d of due) io.stdout(`${file}:${d.item.line}: ${d.reason} ${d.token}: ${oneLine(d.item.text)}\n`);
  return ok(EXIT.ok);
});

function envAllowOf(sub: string, flag: string | undefined): Result<readonly string[] | undefined, CommandFailure> {
  const parsed = parseEnvAllowFlag(flag);
  return parsed.isOk() ? ok(parsed.value) : runbookUsage(sub, parsed.error);
}

/** What `runbook prune` prints for a plan without --json. */
function printPrunePlan(io: CliIo, file: string, plan: PrunePlan, written: boolean): void {
  const removing = plan.entries.filter((e) => e.action === 'remove');
  for (const e of plan.entries) {
    io.stdout(`${file}:${e.line}: ${e.action} (${e.reason}): ${oneLine(e.text)}\n  ${oneLine(e.detail)}\n`);
    if (e.action === 'remove') io.stdout(`  durable facts to move to memory first: ${oneLine(e.durableFacts.join(' | '))}\n`);
  }
  for (const w of plan.warnings) io.stdout(`${file}:${w.line}: warning: ${oneLine(w.message)}\n`);
  if (plan.entries.length === 0) io.stdout(`${file}: nothing to prune\n`);
  else
    io.stdout(
      written
        ? `${file}: removed ${removing.length} item(s)\n`
        : removing.length > 0
          ? `${file}: ${removing.length} item(s) to remove; run again with --write to apply\n`
          : '',
    );
}

const PRUNE_FLAGS = {
  write: { type: 'boolean', help: 'rewrite FILE atomically' },
  offline: { type: 'boolean', help: 'skip gh' },
  repo: { type: 'string', value: 'OWNER/NAME', help: 'the repository for bare #N' },
  'env-allow': { type: 'string', value: 'NAMES', help: 'pass gh only these environment variables' },
} as const;

/** `runbook prune FILE [--write]`: the prune plan; `--write` rewrites the file atomically. */
export const pruneCommand = defineCommand(runbookSpec('prune', PRUNE_FLAGS), async ({ flags, positionals, io }) => {
  const common = resolveCommon('prune', flags, io);
  if (common.isErr()) return err(common.error);
  const named = runbookFile('prune', positionals);
  if (named.isErr()) return err(named.error);
  const file = named.value;
  if (flags.repo !== undefined && !/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(flags.repo))
    return runbookUsage('prune', `--repo ${JSON.stringify(flags.repo)} is not owner/name; use e.g. --repo acme/web`);
  const text = await readInputFile(io, file, 'runbook');
  if (text.isErr()) return err(text.error);
  const runbook = parseRunbook(text.value);
  let states: PullRequestStateMap = new Map();
  if (flags.offline !== true) {
    const envAllow = envAllowOf('prune', flags['env-allow']);
    if (envAllow.isErr()) return err(envAllow.error);
    const runner = createCliRunner(io, { timeoutMs: 30_000, envAllow: envAllow.value });
    const prs = createGhPullRequestStates(runner, { cwd: io.cwd, ...(flags.repo === undefined ? {} : { defaultRepo: flags.repo }) });
    states = (await readPullRequestStates(runbook, prs)).unwrapOr(new Map());
  }
  const plan = planPrune(runbook, common.value.now, common.value.tz, states);
  let written = false;
  if (flags.write === true && plan.entries.some((e) => e.action === 'remove')) {
    const r = await writeTextFileAtomic(resolvePath(io, file), applyPrunePlan(text.value, plan), { expected: text.value });
    if (r.isErr()) return commandFailure(r.error.message, r.error.kind === 'changed' ? EXIT.rejected : EXIT.failure);
    written = true;
  }
  if (common.value.json) printJson(io, { file, written, ...plan });
  else printPrunePlan(io, file, plan, written);
  return ok(EXIT.ok);
});

const FILES_FLAGS = {
  runbook: { type: 'string', value: 'FILE', help: 'the runbook' },
  status: { type: 'string', value: 'FILE', help: "the server's status snapshot" },
} as const;

const TICK_FLAGS = {
  ...FILES_FLAGS,
  gate: { type: 'string', value: 'NAME|PATH', help: 'the gate (overrides HEARTBEAT_CHECKLIST_GATE_SCRIPT)' },
  'dry-run': { type: 'boolean', help: "preview the gate's verdict only" },
  'env-allow': { type: 'string', value: 'NAMES', help: 'pass the gate command only these environment variables' },
} as const;

/** The dry run of `runbook tick`: the gate's verdict over the state, no preconditions, no task. */
async function previewGate(io: CliIo, gate: Gate | undefined, mode: string, state: GateState, json: boolean): Promise<void> {
  const verdict = gate === undefined ? undefined : await runGate(gate, state, { signal: io.shutdownSignal });
  if (json) printJson(io, { dryRun: true, gate: gate?.name ?? null, mode, verdict: verdict ?? null, state });
  else
    io.stdout(
      gate === undefined
        ? 'dry run: no gate selected\n'
        : `dry run: ${gate.name} → ${verdict?.kind ?? 'none'}${verdict?.kind === 'error' ? ` (${oneLine(verdict.error.message)})` : verdict ? `: ${oneLine(verdict.reason)}` : ''}\n`,
    );
}

/** `runbook tick --runbook FILE --status FILE`: the checklist tick decision. */
export const tickCommand = defineCommand(runbookSpec('tick', TICK_FLAGS), async ({ flags, positionals, io }) => {
  const common = resolveCommon('tick', flags, io);
  if (common.isErr()) return err(common.error);
  const unexpected = noPositionals('tick', positionals, 'pass files with --runbook and --status');
  if (unexpected.isErr()) return err(unexpected.error);
  const { json, now, tz } = common.value;
  if (flags.runbook === undefined || flags.status === undefined) return runbookUsage('tick', 'needs --runbook FILE and --status FILE');
  const runbookText = await readInputFile(io, flags.runbook, 'runbook');
  if (runbookText.isErr()) return err(runbookText.error);
  const refused = refuseRejected(io, flags.runbook, validateRunbook(runbookText.value), json);
  if (refused.isErr()) return err(refused.error);
  const status = await readStatus(io, flags.status);
  if (status.isErr()) return err(status.error);
  const settings = readChecklistSettings(io.env);
  for (const w of settings.warnings) io.stderr(`heartbeat-kit runbook tick: warning: ${w}\n`);
  const envAllow = envAllowOf('tick', flags['env-allow']);
  if (envAllow.isErr()) return err(envAllow.error);
  const gate = gateFor(settings.gate, io, flags.gate, envAllow.value);
  if (flags['dry-run'] === true) {
    const state = buildGateState({ status: status.value, runbook: parseRunbook(runbookText.value), now, timeZone: tz, dryRun: true });
    await previewGate(io, gate, settings.gateMode, state, json);
    return ok(EXIT.ok);
  }
  const decision = await runChecklistTick(
    { runbookText: runbookText.value, status: status.value, now, timeZone: tz, settings },
    { ...(gate === undefined ? {} : { gate }), signal: io.shutdownSignal },
  );
  if (json) printJson(io, { mode: settings.gateMode, gate: gate?.name ?? null, ...decision });
  else if (decision.kind === 'skip') io.stdout(`skip: ${decision.reason} (${oneLine(decision.detail)})\n`);
  else
    io.stdout(
      `create ${decision.task.taskType} for ${decision.task.assignTo ?? 'nobody'} [${decision.task.tags.join(', ')}] priority ${decision.task.priority}\n\n${decision.task.prompt}`,
    );
  return ok(EXIT.ok);
});

const BOOT_FLAGS = {
  status: FILES_FLAGS.status,
  runbook: { type: 'string', value: 'FILE', help: 'the runbook (optional)' },
} as const;

/** `runbook boot-triage --status FILE`: whether the restart left anything to triage. */
export const bootTriageCommand = defineCommand(runbookSpec('boot-triage', BOOT_FLAGS), async ({ flags, positionals, io }) => {
  const common = resolveCommon('boot-triage', flags, io);
  if (common.isErr()) return err(common.error);
  const unexpected = noPositionals('boot-triage', positionals, 'pass the status file with --status');
  if (unexpected.isErr()) return err(unexpected.error);
  if (flags.status === undefined) return runbookUsage('boot-triage', 'needs --status FILE');
  const status = await readStatus(io, flags.status);
  if (status.isErr()) return err(status.error);
  let runbookText: string | null = null;
  if (flags.runbook !== undefined) {
    const read = await readInputFile(io, flags.runbook, 'runbook');
    if (read.isErr()) return err(read.error);
    runbookText = read.value;
  }
  const disabled = readChecklistSettings(io.env).disabled;
  const decision = decideBootTriage({ status: status.value, runbookText, now: common.value.now, disabled });
  if (decision.findings?.boot.source === 'lookback') {
    io.stderr(
      `heartbeat-kit runbook boot-triage: warning: ${flags.status} has no serverStartedAt; reboot-sweep failures since ${decision.findings.boot.since} (the last 60 minutes) were counted as this boot's\n`,
    );
  }
  if (common.value.json) printJson(io, decision);
  else if (decision.kind === 'skip') io.stdout(`skip: ${decision.reason}\n`);
  else {
    const f = decision.findings;
    io.stdout(
      `create boot-triage for ${decision.task.assignTo ?? 'nobody'} [${decision.task.tags.join(', ')}] priority ${decision.task.priority}: ${f.rebootInterrupted.length} reboot-interrupted, ${f.recentFailures.length} failed, ${f.orphaned.length} orphaned, ${f.supersededWithoutResume.length} superseded without resume, ${f.stuckOnOfflineAgents.length} stuck\n\n${decision.task.prompt}`,
    );
  }
  return ok(EXIT.ok);
});

/** `--threshold` and `--min-samples` of `runbook gate-report`, checked. */
function gateReportOptions(flags: {
  threshold?: string | undefined;
  'min-samples'?: string | undefined;
}): Result<{ threshold: number; minSamples: number }, CommandFailure> {
  const threshold = flags.threshold === undefined ? 0.95 : Number(flags.threshold);
  if (!Number.isFinite(threshold) || threshold < 0 || threshold > 1)
    return runbookUsage('gate-report', '--threshold must be a number between 0 and 1; e.g. --threshold 0.95');
  const minSamples = flags['min-samples'] === undefined ? 20 : Number(flags['min-samples']);
  if (!Number.isInteger(minSamples) || minSamples < 1)
    return runbookUsage('gate-report', '--min-samples must be a positive integer; e.g. --min-samples 20');
  return ok({ threshold, minSamples });
}

const GATE_REPORT_FLAGS = {
  threshold: { type: 'string', value: 'RATIO', help: 'agreement needed for enforce (default 0.95)' },
  'min-samples': { type: 'string', value: 'N', help: 'compared ticks needed (default 20)' },
} as const;

/** `runbook gate-report LOG`: agreement of shadow verdicts with the lead's outcomes. */
export const gateReportCommand = defineCommand(runbookSpec('gate-report', GATE_REPORT_FLAGS), async ({ flags, positionals, io }) => {
  const common = resolveCommon('gate-report', flags, io);
  if (common.isErr()) return err(common.error);
  const named = onePositional('gate-report', positionals, 'gate log (JSON Lines)', 'gate.jsonl');
  if (named.isErr()) return err(named.error);
  const file = named.value;
  const options = gateReportOptions(flags);
  if (options.isErr()) return err(options.error);
  const text = await readInputFile(io, file, 'gate log');
  if (text.isErr()) return err(text.error);
  const { records, problems } = parseGateLog(text.value, file);
  for (const p of problems) io.stderr(`heartbeat-kit runbook gate-report: warning: skipped ${oneLine(p)}\n`);
  const a = computeGateAgreement(records, options.value);
  if (common.value.json) printJson(io, { file, records: records.length, skipped: problems.length, ...a });
  else {
    const pct = (x: number | null): string => (x === null ? 'n/a' : `${(x * 100).toFixed(1)}%`);
    io.stdout(
      `${file}: ${a.compared} compared, ${a.errors} error verdict(s), ${a.unpaired} unpaired\nagreement ${pct(a.agreement)}, quiet precision ${pct(a.quietPrecision)}, quiet recall ${pct(a.quietRecall)}\n${a.advice}\n`,
    );
  }
  return ok(EXIT.ok);
});

const QUIET_FLAGS = {
  ...FILES_FLAGS,
  'schedule-health': { type: 'string', value: 'FILE', help: 'the JSON the schedule-health script printed' },
  'failure-audit': { type: 'string', value: 'FILE', help: 'the JSON the task-failure-audit script printed' },
} as const;

/** `runbook quiet --runbook FILE --status FILE`: the quiet check; exit 0 quiet, 1 not quiet. */
export const quietCommand = defineCommand(runbookSpec('quiet', QUIET_FLAGS), async ({ flags, positionals, io }) => {
  const common = resolveCommon('quiet', flags, io);
  if (common.isErr()) return err(common.error);
  const unexpected = noPositionals('quiet', positionals, 'pass files with --runbook and --status');
  if (unexpected.isErr()) return err(unexpected.error);
  const { json, now, tz } = common.value;
  if (flags.runbook === undefined || flags.status === undefined)
    return runbookUsage(
      'quiet',
      `needs --runbook FILE and --status FILE; e.g. --runbook ${SAMPLE_RUNBOOK_FILE} --status runbook-status.json`,
    );
  const runbookText = await readInputFile(io, flags.runbook, 'runbook');
  if (runbookText.isErr()) return err(runbookText.error);
  const runbook = parseRunbook(runbookText.value);
  const refused = refuseRejected(io, flags.runbook, validateRunbook(runbook), json);
  if (refused.isErr()) return err(refused.error);
  const status = await readStatus(io, flags.status);
  if (status.isErr()) return err(status.error);
  const scripts = await readScriptReports(io, status.value, now, {
    scheduleHealth: flags['schedule-health'],
    failureAudit: flags['failure-audit'],
  });
  if (scripts.isErr()) return err(scripts.error);
  const { reports, source } = scripts.value;
  const decision = decideQuietFastPath({ status: status.value, runbook, now, timeZone: tz, scripts: reports });
  if (json) printJson(io, { ...decision, scripts: { ...reports, source } });
  else if (decision.quiet) io.stdout(`${decision.line}\n`);
  else io.stdout(`not quiet: ${decision.reasons.join(', ')}\n${decision.details.map((d) => `- ${oneLine(d)}\n`).join('')}`);
  return ok(decision.quiet ? EXIT.ok : EXIT.rejected);
});
