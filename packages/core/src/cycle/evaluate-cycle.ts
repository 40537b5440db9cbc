import type { FindingCategory } from '../domain/categories.js';
import { OPEN_CATEGORIES, recoveryNoticeOf, unregisteredCategoryError, type CategoryTable } from '../domain/category-table.js';
import type { Finding } from '../domain/finding.js';
import type { ScanResult, ScanWarning } from '../domain/scan-result.js';
import type { HeartbeatConfig } from '../config/heartbeat-config-schema.js';
import type { OutboundMessage } from '../ports/sink.js';
import { renderCostAlert, renderWorkFound } from '../messages/render-messages.js';
import type { TokenEstimator } from '../messages/token-estimate.js';
import { stableMessageId } from '../messages/message-id.js';
import type { Ack } from '../operator/ack-book.js';
import type { HeartbeatState } from './heartbeat-state.js';
import { updateBreakers } from './scanner-breaker.js';
import { nextSlices } from './scanner-slice.js';
import { applyInhibition, failingSources, isEmptyRecoveryMemory, stepRecoveries, type ResolvedNotice } from './recovery-notices.js';
import { pruneReportMemory, reportMemoryRetentionMs } from './repeat-schedule.js';
import { UNREGISTERED_CATEGORY_CODE, type CycleEvaluation, type ScannerSummary } from './cycle-decision.js';
import { confirmFindings, rulesOf, triageFindings, type Confirmation, type Triage } from './triage-findings.js';

export {
  UNREGISTERED_CATEGORY_CODE,
  type CycleDecision,
  type CycleEvaluation,
  type ScannerSummary,
  type SuppressedFinding,
  type SuppressionReason,
  type UnconfirmedFinding,
} from './cycle-decision.js';
export { markDelivered, type DeliveredPart } from './mark-delivered.js';

/** Everything about the cycle's moment that is not scan output. */
export interface CycleContext {
  readonly now: Date;
  readonly config: HeartbeatConfig;
  /** IANA zone the config's active hours and message timestamps use (already resolved). */
  readonly timeZone: string;
  readonly insideActiveHours: boolean;
  /** When the operator last sent a message; undefined = unknown, which counts as idle. */
  readonly operatorLastActiveAt: Date | undefined;
  readonly estimateTokens?: TokenEstimator;
  /**
   * The categories' rules (priority, outside-hours rule, confirm cycles, header order); default
   * {@link OPEN_CATEGORIES} (no categories of its own: the CLI passes the CoBuilder table). Build your own with `defineCategories`.
   */
  readonly categories?: CategoryTable;
  /**
   * The operator's acks (`heartbeat-kit ack`): an acked finding is held back while unchanged and
   * unexpired (operator/ack-decision.ts). Absent = none.
   */
  readonly acks?: readonly Ack[];
}

/** The table's priority wins over the finding's own (a JS embedder may set another): ordering and holding follow the table. */
function withTablePriority(table: CategoryTable, finding: Finding): Finding {
  const priority = table.info(finding.category)?.priority;
  return priority === undefined || priority === finding.priority ? finding : { ...finding, priority };
}

function unregisteredWarnings(table: CategoryTable, findings: readonly Finding[]): ScanWarning[] {
  if (table.unregistered !== 'advise') return [];
  const missing = [...new Set(findings.filter((f) => table.info(f.category) === undefined).map((f) => f.category))];
  return missing.map((category) => {
    const error = unregisteredCategoryError(category);
    return {
      code: UNREGISTERED_CATEGORY_CODE,
      message: `${error.message}; its findings use their own priority, report inside active hours only and after one cycle`,
      fix: `add ${category} to defineCategories(...) or fix the scanner that reports it`,
    };
  });
}

function summarise(result: ScanResult): ScannerSummary {
  const base = { name: result.scanner, status: result.status, durationMs: Math.round(result.durationMs) };
  switch (result.status) {
    case 'ok':
      return result.warnings.length > 0 ? { ...base, note: result.warnings.map((w) => w.message).join('; ') } : base;
    case 'skipped':
      return { ...base, note: result.reason };
    case 'error':
      return { ...base, note: result.error };
    case 'timeout':
      return { ...base, note: `timed out after ${result.timeoutMs} ms` };
  }
}

function uniqueByFingerprint(findings: readonly Finding[]): Finding[] {
  const seen = new Set<string>();
  const out: Finding[] = [];
  for (const f of findings) {
    if (seen.has(f.fingerprint)) continue;
    seen.add(f.fingerprint);
    out.push(f);
  }
  return out;
}

type OkResult = Extract<ScanResult, { status: 'ok' }>;

function okResultsOf(results: readonly ScanResult[]): OkResult[] {
  return results.filter((r): r is OkResult => r.status === 'ok');
}

/** This cycle's findings before hysteresis, with the memory the scan and breakers step on. */
interface Candidates {
  readonly candidates: Finding[];
  readonly inhibited: ReturnType<typeof applyInhibition>['inhibited'];
  readonly scannerSlices: ReturnType<typeof nextSlices>;
  readonly breaker: ReturnType<typeof updateBreakers>;
  readonly recovery: ReturnType<typeof stepRecoveries>;
}

function gatherCandidates(
  state: HeartbeatState,
  results: readonly ScanResult[],
  context: CycleContext,
  table: CategoryTable,
  cycle: number,
): Candidates {
  // Memory across cycles belongs to each scanner (its slice); the evaluator only keeps what they return.
  const scannerSlices = nextSlices(state.scannerSlices, results);
  // A scanner failing the same way for N cycles: one advisory, its runs backed off (scanner-breaker.ts).
  const breaker = updateBreakers(state.breakers, state.reported, results, {
    cycle,
    now: context.now,
    timeZone: context.timeZone,
    settings: context.config.breaker,
  });
  // One-shot findings that were not delivered come back until a delivery succeeds: their source
  // will not report them again.
  const allCandidates = uniqueByFingerprint([
    ...okResultsOf(results).flatMap((r) => r.findings),
    ...breaker.findings,
    ...(state.undelivered ?? []),
  ]).map((f) => withTablePriority(table, f));
  // Inhibition: a failing source (tmux down, bd failing) hides what depends on it, and holds its recoveries.
  const sources = failingSources(results, allCandidates);
  const { kept: candidates, inhibited } = applyInhibition(table, allCandidates, sources);
  const recovery = stepRecoveries(state.recovery, {
    table,
    seen: new Set(allCandidates.map((f) => f.fingerprint)),
    results,
    sources,
  });
  return { candidates, inhibited, scannerSlices, breaker, recovery };
}

/** The cycle's one message (and cost alert over budget); none when nothing is to be said. */
interface DecisionMessage {
  readonly message: OutboundMessage | null;
  readonly costAlert: OutboundMessage | null;
  readonly estimatedTokens: number;
  readonly categories: readonly FindingCategory[];
}

function renderDecisionMessage(
  reportable: readonly Finding[],
  resolved: readonly ResolvedNotice[],
  at: { readonly state: HeartbeatState; readonly context: CycleContext; readonly table: CategoryTable; readonly cycle: number },
): DecisionMessage {
  if (reportable.length === 0 && resolved.length === 0) return { message: null, costAlert: null, estimatedTokens: 0, categories: [] };
  const { context, cycle, state } = at;
  const { config } = context;
  const rendered = renderWorkFound({
    resolved,
    findings: reportable,
    cycle,
    at: context.now,
    timeZone: context.timeZone,
    budgetTokens: config.actionableBudgetTokens,
    categories: at.table,
    ...(context.estimateTokens ? { estimateTokens: context.estimateTokens } : {}),
  });
  const message = {
    ...rendered.message,
    id: stableMessageId(
      rendered.message.kind,
      reportable,
      state.reportsSent,
      resolved.map((n) => n.fingerprint),
    ),
  };
  const estimatedTokens = rendered.estimatedTokens;
  const costAlert =
    estimatedTokens > config.costAlertTokens
      ? renderCostAlert({ cycle, tokens: estimatedTokens, budgetTokens: config.costAlertTokens, at: context.now })
      : null;
  return { message, costAlert, estimatedTokens, categories: rendered.categories };
}

/** The memory the next cycle starts from (nothing marked delivered yet: see `markDelivered`). */
function nextStateOf(
  state: HeartbeatState,
  step: { readonly gathered: Candidates; readonly confirmation: Confirmation; readonly triage: Triage },
  at: { readonly context: CycleContext; readonly table: CategoryTable; readonly cycle: number },
): HeartbeatState {
  const { gathered, confirmation, triage } = step;
  const { table } = at;
  // Bounded memory: what is still seen keeps its schedule; what is gone is forgotten after a while.
  const memory = pruneReportMemory(
    state,
    new Set(gathered.candidates.map((f) => f.fingerprint)),
    at.context.now.getTime(),
    reportMemoryRetentionMs(at.context.config),
  );
  const dedupSuppressed = new Set(triage.suppressed.filter((s) => s.reason === 'dedup').map((s) => s.finding.fingerprint));
  const undelivered = confirmation.confirmed.filter((f) => rulesOf(table, f.category).oneShot && !dedupSuppressed.has(f.fingerprint));
  const nextState: HeartbeatState = {
    ...state,
    undelivered,
    cycle: at.cycle,
    reported: memory.reported,
    reportedContent: memory.reportedContent,
    seen: confirmation.seen,
  };
  const { scannerSlices, breaker, recovery } = gathered;
  if (Object.keys(scannerSlices).length > 0) nextState.scannerSlices = scannerSlices;
  else delete nextState.scannerSlices;
  if (Object.keys(triage.acks.memory).length > 0) nextState.acked = triage.acks.memory;
  else delete nextState.acked;
  if (Object.keys(breaker.breakers).length > 0) nextState.breakers = breaker.breakers;
  else delete nextState.breakers;
  if (isEmptyRecoveryMemory(recovery)) delete nextState.recovery;
  else nextState.recovery = recovery;
  return nextState;
}

/** Reportable findings whose category sends recovery notices: fingerprint → the scanner that reported them. */
function recoveryWatchOf(table: CategoryTable, reportable: readonly Finding[], okResults: readonly OkResult[]): Record<string, string> {
  const scannerOf = new Map(okResults.flatMap((r) => r.findings.map((f) => [f.fingerprint, r.scanner] as const)));
  return Object.fromEntries(
    reportable
      .filter((f) => recoveryNoticeOf(table.info(f.category), f.priority))
      .map((f) => [f.fingerprint, scannerOf.get(f.fingerprint) ?? '']),
  );
}

/**
 * Decides one cycle from the previous state and this cycle's scan results, implementing
 * the report rules: a finding is reported after it was seen on enough consecutive cycles (hysteresis),
 * only critical ones outside active hours, not again within the dedup window, Advisory and Normal
 * ones only once the operator is idle; all in one batched message, with a cost estimate and a cost
 * alert over budget (spec 000's report rules). Pure and deterministic, so any
 * recorded cycle can be replayed.
 *
 * @example
 * ```ts
 * import { DEFAULT_HEARTBEAT_CONFIG, createFinding, decodeHeartbeatState, evaluateCycle, scanOk } from '@heartbeat-kit/core';
 *
 * const full = createFinding({ category: 'DISK_FULL', priority: 'Immediate', subject: '/var', line: 'DISK FULL: /var', action: 'Free space on /var', short: '/var full' });
 * const { decision, nextState } = evaluateCycle(decodeHeartbeatState(undefined).state, [scanOk('disk', { findings: [full] })], {
 *   now: new Date('2026-02-19T14:50:00Z'),
 *   config: DEFAULT_HEARTBEAT_CONFIG,
 *   timeZone: 'UTC',
 *   insideActiveHours: true,
 *   operatorLastActiveAt: undefined, // unknown = idle
 * });
 * console.log(decision.status, decision.message?.content.split('\n')[0]); // report WORK_FOUND: DISK_FULL
 * console.log(nextState.cycle); // 1 — pure: nothing was delivered or saved
 * ```
 */
export function evaluateCycle(state: HeartbeatState, results: readonly ScanResult[], context: CycleContext): CycleEvaluation {
  const table = context.categories ?? OPEN_CATEGORIES;
  const cycle = state.cycle + 1;
  const okResults = okResultsOf(results);
  const gathered = gatherCandidates(state, results, context, table, cycle);
  const resolved = gathered.recovery.pending;
  const confirmation = confirmFindings(state, gathered.candidates, table);
  const lastActive = context.operatorLastActiveAt;
  const operatorIdle = lastActive === undefined || context.now.getTime() - lastActive.getTime() >= context.config.operatorIdleMs;
  const triage = triageFindings(confirmation.confirmed, {
    state,
    table,
    config: context.config,
    now: context.now,
    insideActiveHours: context.insideActiveHours,
    operatorIdle,
    acks: context.acks ?? [],
    results,
    scannedNow: new Set(okResults.flatMap((r) => r.findings.map((f) => f.fingerprint))),
  });
  const { reportable, suppressed, held } = triage;
  const rendered = renderDecisionMessage(reportable, resolved, { state, context, table, cycle });
  const recoveryWatch = recoveryWatchOf(table, reportable, okResults);
  const { breaker, inhibited } = gathered;
  return {
    decision: {
      cycle,
      at: context.now.toISOString(),
      status: rendered.message === null ? 'ok' : 'report',
      insideActiveHours: context.insideActiveHours,
      operatorIdle,
      reportable,
      categories: rendered.categories,
      suppressed,
      held,
      unconfirmed: confirmation.unconfirmed,
      scanners: results.map(summarise),
      warnings: [...okResults.flatMap((r) => r.warnings), ...unregisteredWarnings(table, gathered.candidates)],
      estimatedTokens: rendered.estimatedTokens,
      message: rendered.message,
      costAlert: rendered.costAlert,
      ...(breaker.events.length > 0 ? { breakerEvents: breaker.events } : {}),
      ...(resolved.length > 0 ? { resolved } : {}),
      ...(inhibited.length > 0 ? { inhibited } : {}),
      ...(Object.keys(recoveryWatch).length > 0 ? { recoveryWatch } : {}),
    },
    nextState: nextStateOf(state, { gathered, confirmation, triage }, { context, table, cycle }),
  };
}
