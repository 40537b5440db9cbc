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
  type PullRequestStateMap,
  type Runbook,
  type RunbookValidation,
} from '@heartbeat-kit/runbook';
import { createGhPullRequestStates } from '@heartbeat-kit/runbook/github';
import { writeTextFileAtomic } from '@heartbeat-kit/runbook/node';
import { EXIT } from '../../exit-codes.js';
import type { CliIo } from '../../io.js';
import { createCliRunner, parseEnvAllowFlag } from '../../wiring/cli-runner.js';
import { SAMPLE_RUNBOOK_FILE } from './help.js';
import { gateFor } from './gate-selection.js';
import { readFileOrThrow, readScriptReports, readStatus } from './input-files.js';
import { UsageError, oneLine, parse, printJson, resolveCommon, resolvePath } from './shared.js';

export { RULES_GATE_NAMES, gateFor } from './gate-selection.js';
export { guarded } from './input-files.js';

function onePositional(positionals: readonly string[], what: string, example: string): string {
  if (positionals.length !== 1 || positionals[0] === undefined) throw new UsageError(`expected exactly one ${what}; e.g. ${example}`);
  return positionals[0];
}

function runbookFile(positionals: readonly string[]): string {
  return onePositional(positionals, 'runbook FILE', `${SAMPLE_RUNBOOK_FILE} ('heartbeat-kit runbook init' writes a sample)`);
}

/** The lines `runbook check` prints for a validation, one per problem, by line number. */
export function validationLines(file: string, v: RunbookValidation): readonly string[] {
  return [...v.errors, ...v.warnings].sort((a, b) => a.line - b.line).map((i) => `${file}:${i.line}: ${i.severity}: ${oneLine(i.message)}`);
}

/**
 * Refuses a runbook that `runbook check` rejects: the same line-numbered lines on stderr (and the
 * validation in --json), so a tick never decides over a file the server would not store.
 */
function refuseRejected(io: CliIo, sub: string, file: string, v: RunbookValidation, json: boolean): number | undefined {
  if (v.accepted) return undefined;
  for (const line of validationLines(file, v)) io.stderr(`${line}\n`);
  io.stderr(
    `heartbeat-kit runbook ${sub}: ${file} is rejected by 'heartbeat-kit runbook check' (${v.errors.length} error(s)); fix the lines above\n`,
  );
  if (json) printJson(io, { kind: 'refused', file, ...v });
  return EXIT.usage;
}

const RUNBOOK_SECTIONS = '## Active Blockers, ## Watch Items, ## Open Discussion, ## Standing Orders';

/** Warns when a file has none of the runbook's sections: it is likely some other file (HEARTBEAT.md is the heartbeat's config). */
function warnIfNotRunbook(io: CliIo, sub: string, file: string, runbook: Runbook): void {
  if (runbook.sections.some((sec) => sec.kind !== 'other')) return;
  io.stderr(
    `heartbeat-kit runbook ${sub}: warning: ${file} has none of the runbook sections (${RUNBOOK_SECTIONS}, ...); is it a runbook? 'heartbeat-kit runbook init' writes a sample\n`,
  );
}

/** `runbook check FILE`: the tracked-item date check; exit 1 when the server would refuse the file. */
export async function checkCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(argv, {});
  const common = resolveCommon(values, io);
  const file = runbookFile(positionals);
  const runbook = parseRunbook(await readFileOrThrow(io, file, 'runbook'));
  warnIfNotRunbook(io, 'check', file, runbook);
  const v = validateRunbook(runbook);
  if (common.json) printJson(io, { file, ...v });
  else {
    for (const line of validationLines(file, v)) io.stdout(`${line}\n`);
    io.stdout(
      `${file}: ${v.accepted ? 'accepted' : 'rejected'} (${v.trackedItemCount} tracked item(s), ${v.errors.length} error(s), ${v.warnings.length} warning(s))\n`,
    );
  }
  return v.accepted ? EXIT.ok : EXIT.rejected;
}

/** `runbook due FILE`: tracked items the gate sees as due now. */
export async function dueCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(argv, {});
  const common = resolveCommon(values, io);
  const file = runbookFile(positionals);
  const runbook = parseRunbook(await readFileOrThrow(io, file, 'runbook'));
  warnIfNotRunbook(io, 'due', file, runbook);
  const due = dueItems(runbook, common.now, common.tz);
  if (common.json)
    printJson(io, {
      file,
      now: common.now.toISOString(),
      timeZone: common.tz,
      due: due.map((d) => ({ line: d.item.line, section: d.item.section, reason: d.reason, token: d.token, text: d.item.text })),
    });
  else if (due.length === 0) io.stdout(`${file}: nothing due (${common.tz})\n`);
  else for (const d of due) io.stdout(`${file}:${d.item.line}: ${d.reason} ${d.token}: ${oneLine(d.item.text)}\n`);
  return EXIT.ok;
}

function envAllowOf(flag: string | undefined): readonly string[] | undefined {
  const parsed = parseEnvAllowFlag(flag);
  if (!parsed.ok) throw new UsageError(parsed.message);
  return parsed.names;
}

/** `runbook prune FILE [--write]`: the prune plan; `--write` rewrites the file atomically. */
export async function pruneCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(argv, {
    write: { type: 'boolean' },
    offline: { type: 'boolean' },
    repo: { type: 'string' },
    'env-allow': { type: 'string' },
  });
  const common = resolveCommon(values, io);
  const file = runbookFile(positionals);
  if (values.repo !== undefined && !/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(values.repo))
    throw new UsageError(`--repo ${JSON.stringify(values.repo)} is not owner/name; use e.g. --repo acme/web`);
  const text = await readFileOrThrow(io, file, 'runbook');
  const runbook = parseRunbook(text);
  let states: PullRequestStateMap = new Map();
  if (values.offline !== true) {
    const runner = createCliRunner(io, { timeoutMs: 30_000, envAllow: envAllowOf(values['env-allow']) });
    const prs = createGhPullRequestStates(runner, { cwd: io.cwd, ...(values.repo === undefined ? {} : { defaultRepo: values.repo }) });
    states = (await readPullRequestStates(runbook, prs)).unwrapOr(new Map());
  }
  const plan = planPrune(runbook, common.now, common.tz, states);
  const removing = plan.entries.filter((e) => e.action === 'remove');
  let written = false;
  if (values.write === true && removing.length > 0) {
    const r = await writeTextFileAtomic(resolvePath(io, file), applyPrunePlan(text, plan), { expected: text });
    if (r.isErr()) {
      io.stderr(`heartbeat-kit runbook prune: ${r.error.message}\n`);
      return r.error.kind === 'changed' ? EXIT.rejected : EXIT.failure;
    }
    written = true;
  }
  if (common.json) printJson(io, { file, written, ...plan });
  else {
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
  return EXIT.ok;
}

/** `runbook tick --runbook FILE --status FILE`: the checklist tick decision. */
export async function tickCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(argv, {
    runbook: { type: 'string' },
    status: { type: 'string' },
    gate: { type: 'string' },
    'dry-run': { type: 'boolean' },
    'env-allow': { type: 'string' },
  });
  const common = resolveCommon(values, io);
  if (positionals.length > 0)
    throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}; pass files with --runbook and --status`);
  if (values.runbook === undefined || values.status === undefined) throw new UsageError('needs --runbook FILE and --status FILE');
  const runbookText = await readFileOrThrow(io, values.runbook, 'runbook');
  const refused = refuseRejected(io, 'tick', values.runbook, validateRunbook(runbookText), common.json);
  if (refused !== undefined) return refused;
  const status = await readStatus(io, values.status);
  const settings = readChecklistSettings(io.env);
  for (const w of settings.warnings) io.stderr(`heartbeat-kit runbook tick: warning: ${w}\n`);
  const gate = gateFor(settings.gate, io, values.gate, envAllowOf(values['env-allow']));
  if (values['dry-run'] === true) {
    // A dry run previews the verdict only: no preconditions, no task.
    const state = buildGateState({ status, runbook: parseRunbook(runbookText), now: common.now, timeZone: common.tz, dryRun: true });
    const verdict = gate === undefined ? undefined : await runGate(gate, state, { signal: io.shutdownSignal });
    if (common.json) printJson(io, { dryRun: true, gate: gate?.name ?? null, mode: settings.gateMode, verdict: verdict ?? null, state });
    else
      io.stdout(
        gate === undefined
          ? 'dry run: no gate selected\n'
          : `dry run: ${gate.name} → ${verdict?.kind ?? 'none'}${verdict?.kind === 'error' ? ` (${oneLine(verdict.error.message)})` : verdict ? `: ${oneLine(verdict.reason)}` : ''}\n`,
      );
    return EXIT.ok;
  }
  const decision = await runChecklistTick(
    { runbookText, status, now: common.now, timeZone: common.tz, settings },
    { ...(gate === undefined ? {} : { gate }), signal: io.shutdownSignal },
  );
  if (common.json) printJson(io, { mode: settings.gateMode, gate: gate?.name ?? null, ...decision });
  else if (decision.kind === 'skip') io.stdout(`skip: ${decision.reason} (${oneLine(decision.detail)})\n`);
  else
    io.stdout(
      `create ${decision.task.taskType} for ${decision.task.assignTo ?? 'nobody'} [${decision.task.tags.join(', ')}] priority ${decision.task.priority}\n\n${decision.task.prompt}`,
    );
  return EXIT.ok;
}

/** `runbook boot-triage --status FILE`: whether the restart left anything to triage. */
export async function bootTriageCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(argv, { status: { type: 'string' }, runbook: { type: 'string' } });
  const common = resolveCommon(values, io);
  if (positionals.length > 0)
    throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}; pass the status file with --status`);
  if (values.status === undefined) throw new UsageError('needs --status FILE');
  const status = await readStatus(io, values.status);
  const runbookText = values.runbook === undefined ? null : await readFileOrThrow(io, values.runbook, 'runbook');
  const decision = decideBootTriage({ status, runbookText, now: common.now, disabled: readChecklistSettings(io.env).disabled });
  if (decision.findings?.boot.source === 'lookback') {
    io.stderr(
      `heartbeat-kit runbook boot-triage: warning: ${values.status} has no serverStartedAt; reboot-sweep failures since ${decision.findings.boot.since} (the last 60 minutes) were counted as this boot's\n`,
    );
  }
  if (common.json) printJson(io, decision);
  else if (decision.kind === 'skip') io.stdout(`skip: ${decision.reason}\n`);
  else {
    const f = decision.findings;
    io.stdout(
      `create boot-triage for ${decision.task.assignTo ?? 'nobody'} [${decision.task.tags.join(', ')}] priority ${decision.task.priority}: ${f.rebootInterrupted.length} reboot-interrupted, ${f.recentFailures.length} failed, ${f.orphaned.length} orphaned, ${f.supersededWithoutResume.length} superseded without resume, ${f.stuckOnOfflineAgents.length} stuck\n\n${decision.task.prompt}`,
    );
  }
  return EXIT.ok;
}

/** `runbook gate-report LOG`: agreement of shadow verdicts with the lead's outcomes. */
export async function gateReportCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(argv, { threshold: { type: 'string' }, 'min-samples': { type: 'string' } });
  const common = resolveCommon(values, io);
  const file = onePositional(positionals, 'gate log (JSON Lines)', 'gate.jsonl');
  const threshold = values.threshold === undefined ? 0.95 : Number(values.threshold);
  if (!Number.isFinite(threshold) || threshold < 0 || threshold > 1)
    throw new UsageError('--threshold must be a number between 0 and 1; e.g. --threshold 0.95');
  const minSamples = values['min-samples'] === undefined ? 20 : Number(values['min-samples']);
  if (!Number.isInteger(minSamples) || minSamples < 1)
    throw new UsageError('--min-samples must be a positive integer; e.g. --min-samples 20');
  const { records, problems } = parseGateLog(await readFileOrThrow(io, file, 'gate log'), file);
  for (const p of problems) io.stderr(`heartbeat-kit runbook gate-report: warning: skipped ${oneLine(p)}\n`);
  const a = computeGateAgreement(records, { threshold, minSamples });
  if (common.json) printJson(io, { file, records: records.length, skipped: problems.length, ...a });
  else {
    const pct = (x: number | null): string => (x === null ? 'n/a' : `${(x * 100).toFixed(1)}%`);
    io.stdout(
      `${file}: ${a.compared} compared, ${a.errors} error verdict(s), ${a.unpaired} unpaired\nagreement ${pct(a.agreement)}, quiet precision ${pct(a.quietPrecision)}, quiet recall ${pct(a.quietRecall)}\n${a.advice}\n`,
    );
  }
  return EXIT.ok;
}

/** `runbook quiet --runbook FILE --status FILE`: the quiet check; exit 0 quiet, 1 not quiet. */
export async function quietCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(argv, {
    runbook: { type: 'string' },
    status: { type: 'string' },
    'schedule-health': { type: 'string' },
    'failure-audit': { type: 'string' },
  });
  const common = resolveCommon(values, io);
  if (positionals.length > 0)
    throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}; pass files with --runbook and --status`);
  if (values.runbook === undefined || values.status === undefined)
    throw new UsageError(`needs --runbook FILE and --status FILE; e.g. --runbook ${SAMPLE_RUNBOOK_FILE} --status runbook-status.json`);
  const runbookText = await readFileOrThrow(io, values.runbook, 'runbook');
  const runbook = parseRunbook(runbookText);
  const refused = refuseRejected(io, 'quiet', values.runbook, validateRunbook(runbook), common.json);
  if (refused !== undefined) return refused;
  const status = await readStatus(io, values.status);
  const { reports, source } = await readScriptReports(io, status, common.now, {
    scheduleHealth: values['schedule-health'],
    failureAudit: values['failure-audit'],
  });
  const decision = decideQuietFastPath({ status, runbook, now: common.now, timeZone: common.tz, scripts: reports });
  if (common.json) printJson(io, { ...decision, scripts: { ...reports, source } });
  else if (decision.quiet) io.stdout(`${decision.line}\n`);
  else io.stdout(`not quiet: ${decision.reasons.join(', ')}\n${decision.details.map((d) => `- ${oneLine(d)}\n`).join('')}`);
  return decision.quiet ? EXIT.ok : EXIT.rejected;
}
