import type { CycleOutcome, Finding, HeartbeatConfig } from '@heartbeat-kit/core';
import { formatDays, formatScanProblems, OUTSIDE_ACTIVE_HOURS_REASON } from '@heartbeat-kit/core/host';

function brief(finding: Finding): { category: string; fingerprint: string; subject: string } {
  return { category: finding.category, fingerprint: finding.fingerprint, subject: finding.subject };
}

/** The `--json` object of `heartbeat-kit cycle` (one object; field set documented in the CLI reference). */
export function cycleJson(outcome: CycleOutcome): Record<string, unknown> {
  const d = outcome.decision;
  return {
    status: d.status,
    cycle: d.cycle,
    at: d.at,
    insideActiveHours: d.insideActiveHours,
    operatorIdle: d.operatorIdle,
    categories: d.categories,
    findings: d.reportable.map(brief),
    // An acked finding is said with its ack: `held: "ack"`, who, when, the note and the end.
    suppressed: d.suppressed.map(suppressedJson),
    held: d.held.map(brief),
    // Delivered findings that cleared: one RESOLVED line each in the message.
    resolved: (d.resolved ?? []).map((n) => ({ category: n.category, fingerprint: n.fingerprint, priority: n.priority, line: n.line })),
    // Hidden because a source they depend on failed (the category table's inhibitedBy).
    inhibited: (d.inhibited ?? []).map((i) => ({ ...brief(i.finding), by: i.by })),
    unconfirmed: d.unconfirmed.map((u) => ({ ...brief(u.finding), seenCycles: u.seenCycles, neededCycles: u.neededCycles })),
    scanners: d.scanners.map((s) => ({
      name: s.name,
      status: s.status,
      durationMs: s.durationMs,
      ...(s.note === undefined ? {} : { note: s.note }),
    })),
    warnings: [...d.warnings.map((w) => w.message), ...outcome.warnings],
    // Every scanner that could not look, with the fix: the same facts text mode prints on stderr.
    problems: outcome.problems.map((p) => ({
      scanner: p.scanner,
      kind: p.kind,
      severity: p.severity,
      code: p.code,
      message: p.message,
      fix: p.fix,
    })),
    // Circuit breakers that tripped, recovered or changed this cycle (said once; absent when none did).
    ...(d.breakerEvents === undefined ? {} : { breaker: d.breakerEvents.map(breakerJson) }),
    // The sink's circuit breaker when it had something to say: held back, tripped (with the one
    // SINK_FAILING advisory, which the failing sink cannot carry), recovered or changed.
    ...(outcome.sinkBreaker === undefined ? {} : { sinkBreaker: sinkBreakerJson(outcome.sinkBreaker) }),
    estimatedTokens: d.estimatedTokens,
    delivery: outcome.delivery,
    // Held or failed: why nobody was told (the breaker's line, the sink's reason, the error).
    ...(outcome.deliveryWhy === undefined ? {} : { deliveryWhy: outcome.deliveryWhy }),
    // With routes by priority: each route's own message id and outcome (absent without routes).
    ...(outcome.routes === undefined ? {} : { routes: outcome.routes.map(routeJson) }),
    // With --sink stdout this object is the delivery: the ids a receiver deduplicates by come with it.
    message: d.message === null ? null : messageJson(d.message),
    costAlert: d.costAlert === null ? null : { content: d.costAlert.content, summary: d.costAlert.summary },
  };
}

type Decision = CycleOutcome['decision'];

function suppressedJson(s: Decision['suppressed'][number]): Record<string, unknown> {
  return {
    ...brief(s.finding),
    reason: s.reason,
    ...(s.ack === undefined
      ? {}
      : {
          held: 'ack',
          ack: {
            id: s.ack.id,
            by: s.ack.by,
            at: s.ack.at,
            note: s.ack.note,
            ...(s.ack.until === undefined ? {} : { until: s.ack.until }),
            snooze: s.ack.snooze,
          },
        }),
  };
}

function breakerJson(e: NonNullable<Decision['breakerEvents']>[number]): Record<string, unknown> {
  return {
    kind: e.kind,
    scanner: e.scanner,
    // Every scanner of the event: scanners failing for one cause share one line and one advisory.
    scanners: e.scanners,
    code: e.code,
    failures: e.failures,
    since: e.since,
    line: e.line,
  };
}

function sinkBreakerJson(sinkBreaker: NonNullable<CycleOutcome['sinkBreaker']>): Record<string, unknown> {
  const { held, advisory, breaker } = sinkBreaker;
  return {
    ...(held === undefined ? {} : { held: true, nextTryCycle: held.nextRunCycle, line: held.line }),
    events: sinkBreaker.events,
    ...(advisory === undefined
      ? {}
      : { advisory: { ...brief(advisory), priority: advisory.priority, line: advisory.line, action: advisory.action } }),
    ...(breaker === undefined
      ? {}
      : { sink: breaker.sink, code: breaker.code, failures: breaker.failures, since: new Date(breaker.sinceMs).toISOString() }),
  };
}

function routeJson(r: NonNullable<CycleOutcome['routes']>[number]): Record<string, unknown> {
  return {
    route: r.route,
    sink: r.sink,
    delivery: r.delivery,
    id: r.messageId,
    findings: r.findings,
    resolved: r.resolved,
    ...(r.error === undefined ? {} : { error: r.error }),
  };
}

function messageJson(message: NonNullable<Decision['message']>): Record<string, unknown> {
  return {
    ...(message.id === undefined ? {} : { id: message.id }),
    content: message.content,
    summary: message.summary,
    ...(message.findings === undefined ? {} : { findings: message.findings }),
  };
}

/**
 * Text mode's stderr lines for what a cycle could not look at (one per problem), then the circuit
 * breakers that tripped, recovered or changed (once each), prefixed for cron logs.
 */
export function problemLines(outcome: CycleOutcome): string {
  const breaker = (outcome.decision.breakerEvents ?? []).map((e) => e.line);
  const sink = (outcome.sinkBreaker?.events ?? []).map((e) => e.line);
  return [...formatScanProblems(outcome.problems), ...breaker, ...sink].map((line) => `heartbeat-kit: ${line}\n`).join('');
}

/**
 * Text mode's SINK_FAILING advisory, once, the cycle the sink's breaker trips (empty otherwise).
 * It goes to the operator's own channel, the command's stdout (cron mails it, the loop's log and
 * journal keep it), because the sink that failed cannot carry it; when that sink is stdout itself
 * the caller prints it on stderr.
 */
export function sinkAdvisoryText(outcome: CycleOutcome): string {
  const advisory = outcome.sinkBreaker?.advisory;
  return advisory === undefined ? '' : `${advisory.line}\n  Action: ${advisory.action}\n`;
}

/**
 * Text mode's stderr line naming the scanners a cycle did not run because it was outside active
 * hours (by design, so not a problem, but plain text must still say what was not looked at):
 * `heartbeat-kit: outside active hours (08:00–22:00 UTC): skipped git, stale-tasks, …`. Empty when
 * none were skipped for that reason.
 */
export function outsideActiveHoursLine(
  outcome: CycleOutcome,
  settings: { readonly config: HeartbeatConfig; readonly timeZone: string },
): string {
  const skipped = outcome.scanResults
    .filter((r) => r.status === 'skipped' && r.reason === OUTSIDE_ACTIVE_HOURS_REASON)
    .map((r) => r.scanner);
  if (skipped.length === 0) return '';
  const { start, end, weekend, days } = settings.config.activeHours;
  const dayText = days !== undefined ? `, ${formatDays(days)} only` : weekend ? '' : ', weekdays only';
  return `heartbeat-kit: outside active hours (${start}–${end} ${settings.timeZone}${dayText}): skipped ${skipped.join(', ')}\n`;
}

/**
 * Text mode's stderr lines for the findings an operator's ack held back this cycle: stdout may say
 * HEARTBEAT_OK, but what was found and held is never silent.
 */
export function ackedLines(outcome: CycleOutcome): string {
  return outcome.decision.suppressed
    .filter((s) => s.reason === 'ack' && s.ack !== undefined)
    .map(
      ({ finding, ack }) =>
        `heartbeat-kit: held by ack ${ack?.id ?? ''}: ${finding.fingerprint} (${ack?.by ?? ''}${ack?.until === undefined ? '' : `, until ${ack.until}`}: ${ack?.note ?? ''})\n`,
    )
    .join('');
}
