import { type CycleOutcome } from '@heartbeat-kit/core';
import { cutOffScanners, type PauseDecision } from '@heartbeat-kit/core/host';
import { coverageLine, cycleCoverage, type CycleCoverage } from '../../format/cycle-coverage.js';
import { ackedLines, cycleJson, outsideActiveHoursLine, problemLines, sinkAdvisoryText } from '../../format/cycle-json.js';
import type { CliIo } from '../../io.js';
import type { LoadedHeartbeatSettings } from '../../wiring/heartbeat-settings.js';
import { pausePartialLine } from '../../wiring/pause-file.js';

/** What the report of a cycle that ran depends on besides its outcome. */
export interface CycleReportContext {
  readonly io: CliIo;
  readonly json: boolean;
  readonly dryRun: boolean;
  readonly rehearsal: boolean;
  /** The instant the rehearsal ran at (said on stderr). */
  readonly at: () => Date;
  readonly settings: LoadedHeartbeatSettings;
  /** Where the default route delivers: a report to stdout is not printed twice. */
  readonly sinkKind: string;
  readonly paused: PauseDecision;
  /** Warnings about the prefetch plan, in the JSON object's warnings too. */
  readonly prefetchWarnings: readonly string[];
}

/** The stderr lines around the report: problems, routes, the sink's advisory, dry run and pause notes. */
function sayAroundReport(outcome: CycleOutcome, coverage: CycleCoverage, cutOff: readonly string[], context: CycleReportContext): void {
  const { io, json, dryRun, paused } = context;
  for (const warning of outcome.warnings) io.stderr(`heartbeat-kit cycle: warning: ${warning}\n`);
  // stdout stays exactly HEARTBEAT_OK on a quiet cycle; what could not be looked at goes to stderr.
  // Then one line of what that leaves covered, so a quiet cycle that looked at little says so.
  const lines = json
    ? ''
    : problemLines(outcome) + ackedLines(outcome) + outsideActiveHoursLine(outcome, context.settings) + coverageLine(coverage);
  if (lines !== '') io.stderr(lines);
  // With routes, each route says where its share went (stdout carries only the default route's).
  if (!json)
    for (const r of outcome.routes ?? [])
      io.stderr(
        `heartbeat-kit cycle: route ${r.route}: ${r.delivery} to ${r.sink} (${r.findings} finding${r.findings === 1 ? '' : 's'}${r.resolved > 0 ? `, ${r.resolved} resolved` : ''}; id ${r.messageId})\n`,
      );
  const advisory = json ? '' : sinkAdvisoryText(outcome);
  if (advisory !== '') (context.sinkKind === 'stdout' ? io.stderr : io.stdout)(advisory);
  if (dryRun && !json)
    io.stderr(
      context.rehearsal
        ? `heartbeat-kit cycle: rehearsal at ${context.at().toISOString()} (--now implies --dry-run): nothing was delivered and nothing was written.\n`
        : 'heartbeat-kit cycle: dry run: nothing was delivered and no state was saved.\n',
    );
  if (paused.kind === 'partial' && !json) io.stderr(pausePartialLine(paused, 'cycle'));
  if (cutOff.length > 0 && !json)
    io.stderr(`heartbeat-kit cycle: partial cycle: a signal cut off ${cutOff.join(', ')}; what they watch was not looked at.\n`);
}

/** The `--json` object of a cycle that ran. */
function cycleReportJson(outcome: CycleOutcome, coverage: CycleCoverage, cutOff: readonly string[], context: CycleReportContext): object {
  const { settings, dryRun, rehearsal, paused, io } = context;
  const base = cycleJson(outcome);
  const configProblems =
    settings.problem === undefined
      ? []
      : [{ scanner: 'config', kind: 'unrecognised', severity: 'warning', code: 'CONFIG_UNRECOGNISED', ...settings.problem }];
  return {
    ...base,
    warnings: [...(base.warnings as string[]), ...context.prefetchWarnings],
    coverage,
    config: { file: settings.file, presence: settings.presence },
    problems: [...configProblems, ...(base.problems as unknown[])],
    ...(cutOff.length > 0 ? { partial: true, cutOff } : {}),
    ...(dryRun ? { dryRun: true } : {}),
    ...(rehearsal ? { rehearsal: true } : {}),
    ...(paused.kind === 'partial' ? { pause: paused.pause } : {}),
    ...(io.prefetch === undefined ? {} : { prefetch: io.prefetch.stats() }),
  };
}

/**
 * Prints the result of a cycle that ran: the message (or exactly HEARTBEAT_OK, or the JSON
 * object) on stdout, everything else on stderr. Returns the scanners a signal cut off: such a
 * cycle did not look everywhere, so it is partial and never HEARTBEAT_OK.
 */
export function reportCycle(outcome: CycleOutcome, context: CycleReportContext): readonly string[] {
  const { io, json, dryRun } = context;
  const coverage = cycleCoverage(outcome.scanResults, outcome.problems);
  const cutOff = cutOffScanners(outcome.problems);
  sayAroundReport(outcome, coverage, cutOff, context);
  if (json) {
    io.stdout(`${JSON.stringify(cycleReportJson(outcome, coverage, cutOff, context))}\n`);
  } else if (outcome.decision.message === null) {
    if (cutOff.length === 0) io.stdout('HEARTBEAT_OK\n');
  } else if (context.sinkKind !== 'stdout' || dryRun) {
    io.stdout(`${outcome.decision.message.content}\n`);
    if (outcome.decision.costAlert) io.stdout(`${outcome.decision.costAlert.content}\n`);
  }
  return cutOff;
}
