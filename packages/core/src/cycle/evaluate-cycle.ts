import type { FindingCategory } from '../domain/categories.js';
import { OPEN_CATEGORIES, recoveryNoticeOf, unregisteredCategoryError, type CategoryTable } from '../domain/category-table.js';
import { findingContentHash, type Finding } from '../domain/finding.js';
import type { ScanResult, ScanWarning, ScannerName } from '../domain/scan-result.js';
import type { HeartbeatConfig } from '../config/heartbeat-config-schema.js';
import type { OutboundMessage } from '../ports/sink.js';
import { renderCostAlert, renderWorkFound } from '../messages/render-messages.js';
import type { TokenEstimator } from '../messages/token-estimate.js';
import { stableMessageId } from '../messages/message-id.js';
import type { HeartbeatState } from './heartbeat-state.js';
import { updateBreakers, type BreakerEvent } from './scanner-breaker.js';
import { nextSlices } from './scanner-slice.js';
import {
  applyInhibition,
  failingSources,
  isEmptyRecoveryMemory,
  settleRecoveries,
  stepRecoveries,
  type InhibitedFinding,
  type ResolvedNotice,
} from './recovery-notices.js';
import {
  decideRepeat,
  pruneReportMemory,
  rememberDelivery,
  reportMemoryOf,
  reportMemoryRetentionMs,
  repeatScheduleFor,
} from './repeat-schedule.js';
import type { Ack } from '../operator/ack-book.js';
import { decideAcks } from '../operator/ack-decision.js';

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

/** Warning code of a finding whose category the cycle's category table lacks (see `CategoryTable.unregistered`). */
export const UNREGISTERED_CATEGORY_CODE = 'UNREGISTERED_CATEGORY';

/** Why a confirmed finding is not in this cycle's report. */
export type SuppressionReason = 'dedup' | 'outside-active-hours' | 'ack';

/** A finding the decision left out, and why. */
export interface SuppressedFinding {
  readonly finding: Finding;
  readonly reason: SuppressionReason;
  /** For `dedup`: when the fingerprint was last reported (epoch ms). */
  readonly lastReportedAtMs?: number;
  /** For `dedup`: when the unchanged finding is due again under its repeat schedule (epoch ms). */
  readonly repeatAtMs?: number;
  /** For `ack`: the operator's ack that holds it (who, when, note, until). */
  readonly ack?: Ack;
}

/** A finding seen fewer consecutive cycles than its category needs. */
export interface UnconfirmedFinding {
  readonly finding: Finding;
  readonly seenCycles: number;
  readonly neededCycles: number;
}

/** One scanner's outcome as the decision reports it. */
export interface ScannerSummary {
  readonly name: ScannerName;
  readonly status: ScanResult['status'];
  readonly durationMs: number;
  readonly note?: string;
}

/** What a cycle decided: report or stay quiet, and everything it held or suppressed. */
export interface CycleDecision {
  readonly cycle: number;
  readonly at: string;
  readonly status: 'ok' | 'report';
  readonly insideActiveHours: boolean;
  readonly operatorIdle: boolean;
  /** Findings in this cycle's message. */
  readonly reportable: readonly Finding[];
  /** Categories of the message, in header order. */
  readonly categories: readonly FindingCategory[];
  /** Reported within the dedup window, or not allowed outside active hours. */
  readonly suppressed: readonly SuppressedFinding[];
  /** Advisory/Normal findings waiting for the operator to be idle; not marked as reported. */
  readonly held: readonly Finding[];
  /** Waiting for more confirming cycles (hysteresis). */
  readonly unconfirmed: readonly UnconfirmedFinding[];
  readonly scanners: readonly ScannerSummary[];
  readonly warnings: readonly ScanWarning[];
  /** Estimated tokens this cycle puts before a model; 0 for a quiet cycle. */
  readonly estimatedTokens: number;
  readonly message: OutboundMessage | null;
  readonly costAlert: OutboundMessage | null;
  /** Circuit breakers that tripped, recovered or changed this cycle (absent when none did). */
  readonly breakerEvents?: readonly BreakerEvent[];
  /** Delivered findings that cleared: one `RESOLVED:` line each in the message (absent when none). */
  readonly resolved?: readonly ResolvedNotice[];
  /** Findings hidden because a source they depend on failed (the category's `inhibitedBy`; absent when none). */
  readonly inhibited?: readonly InhibitedFinding[];
  /**
   * Reportable findings watched for their recovery once delivered (their category sends recovery
   * notices): fingerprint → the scanner that reported them ('' = none). Absent when none.
   */
  readonly recoveryWatch?: Readonly<Record<string, string>>;
}

/** The decision and the memory to keep for the next cycle (reports not yet marked delivered). */
export interface CycleEvaluation {
  readonly decision: CycleDecision;
  readonly nextState: HeartbeatState;
}

/** A finding's rules under the cycle's table; a category it lacks confirms after one cycle. */
function rulesOf(
  table: CategoryTable,
  category: FindingCategory,
): { confirmCycles: number; oneShot: boolean; outsideActiveHours: boolean } {
  return table.info(category) ?? { confirmCycles: 1, oneShot: false, outsideActiveHours: false };
}

/**
 * Whether a confirmed finding is reported outside active hours. A category the table holds decides
 * (the spec's built-in rules win); a category it lacks follows the scanner's own switch: outside
 * hours only scanners with `runsOutsideActiveHours` run, so a finding fresh from this cycle's scan
 * came from one that asked to be heard at night (issue 26 item 2).
 */
function reportsOutsideActiveHours(table: CategoryTable, finding: Finding, scannedNow: ReadonlySet<string>): boolean {
  const info = table.info(finding.category);
  return info === undefined ? scannedNow.has(finding.fingerprint) : info.outsideActiveHours;
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
  const { config } = context;
  const table = context.categories ?? OPEN_CATEGORIES;
  const nowMs = context.now.getTime();
  const cycle = state.cycle + 1;
  const okResults = results.filter((r): r is Extract<ScanResult, { status: 'ok' }> => r.status === 'ok');
  // Memory across cycles belongs to each scanner (its slice); the evaluator only keeps what they return.
  const scannerSlices = nextSlices(state.scannerSlices, results);
  // A scanner failing the same way for N cycles: one advisory, its runs backed off (scanner-breaker.ts).
  const breaker = updateBreakers(state.breakers, state.reported, results, {
    cycle,
    now: context.now,
    timeZone: context.timeZone,
    settings: config.breaker,
  });
  // One-shot findings that were not delivered come back until a delivery succeeds: their source
  // will not report them again.
  const allCandidates = uniqueByFingerprint([
    ...okResults.flatMap((r) => r.findings),
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
  const resolved = recovery.pending;

  // Hysteresis: count consecutive cycles per fingerprint; a fingerprint not seen this cycle resets.
  const seen: Record<string, number> = {};
  const confirmed: Finding[] = [];
  const unconfirmed: UnconfirmedFinding[] = [];
  for (const finding of candidates) {
    const count = (state.seen[finding.fingerprint] ?? 0) + 1;
    seen[finding.fingerprint] = count;
    const needed = rulesOf(table, finding.category).confirmCycles;
    if (count >= needed) confirmed.push(finding);
    else unconfirmed.push({ finding, seenCycles: count, neededCycles: needed });
  }

  const lastActive = context.operatorLastActiveAt;
  const operatorIdle = lastActive === undefined || nowMs - lastActive.getTime() >= config.operatorIdleMs;

  const reportable: Finding[] = [];
  const suppressed: SuppressedFinding[] = [];
  const held: Finding[] = [];
  const scannedNow = new Set(okResults.flatMap((r) => r.findings.map((f) => f.fingerprint)));
  // The operator's acks first: a held finding is said in the decision (with the ack), never sent.
  const acks = decideAcks({ findings: confirmed, acks: context.acks ?? [], memory: state.acked, results, now: context.now });
  for (const { finding, ack } of acks.held) suppressed.push({ finding, reason: 'ack', ack });
  const ackEnded = new Set(acks.ended.map((e) => e.finding.fingerprint));
  for (const finding of acks.pass) {
    if (!context.insideActiveHours && !reportsOutsideActiveHours(table, finding, scannedNow)) {
      suppressed.push({ finding, reason: 'outside-active-hours' });
      continue;
    }
    // Change-aware repeats: changed content is reported at once; unchanged content waits for
    // its priority's repeat schedule (by default the spec's 30-minute dedup window).
    const memory = reportMemoryOf(state, finding.fingerprint);
    const repeat = decideRepeat(memory, findingContentHash(finding), nowMs, repeatScheduleFor(config, finding));
    // An ack that ended this cycle (changed content, a snooze's comeback) reports at once.
    if (!repeat.report && !ackEnded.has(finding.fingerprint)) {
      suppressed.push({
        finding,
        reason: 'dedup',
        ...(memory === undefined ? {} : { lastReportedAtMs: memory.atMs }),
        repeatAtMs: repeat.dueAtMs,
      });
      continue;
    }
    if (finding.priority !== 'Immediate' && !operatorIdle) {
      held.push(finding);
      continue;
    }
    reportable.push(finding);
  }

  let message: OutboundMessage | null = null;
  let costAlert: OutboundMessage | null = null;
  let estimatedTokens = 0;
  let categories: readonly FindingCategory[] = [];
  if (reportable.length > 0 || resolved.length > 0) {
    const rendered = renderWorkFound({
      resolved,
      findings: reportable,
      cycle,
      at: context.now,
      timeZone: context.timeZone,
      budgetTokens: config.actionableBudgetTokens,
      categories: table,
      ...(context.estimateTokens ? { estimateTokens: context.estimateTokens } : {}),
    });
    message = {
      ...rendered.message,
      id: stableMessageId(
        rendered.message.kind,
        reportable,
        state.reportsSent,
        resolved.map((n) => n.fingerprint),
      ),
    };
    estimatedTokens = rendered.estimatedTokens;
    categories = rendered.categories;
    if (estimatedTokens > config.costAlertTokens) {
      costAlert = renderCostAlert({ cycle, tokens: estimatedTokens, budgetTokens: config.costAlertTokens, at: context.now });
    }
  }

  // Bounded memory: what is still seen keeps its schedule; what is gone is forgotten after a while.
  const memory = pruneReportMemory(state, new Set(candidates.map((f) => f.fingerprint)), nowMs, reportMemoryRetentionMs(config));

  const dedupSuppressed = new Set(suppressed.filter((s) => s.reason === 'dedup').map((s) => s.finding.fingerprint));
  const undelivered = confirmed.filter((f) => rulesOf(table, f.category).oneShot && !dedupSuppressed.has(f.fingerprint));

  const scannerOf = new Map(okResults.flatMap((r) => r.findings.map((f) => [f.fingerprint, r.scanner] as const)));
  const recoveryWatch = Object.fromEntries(
    reportable
      .filter((f) => recoveryNoticeOf(table.info(f.category), f.priority))
      .map((f) => [f.fingerprint, scannerOf.get(f.fingerprint) ?? '']),
  );

  const nextState: HeartbeatState = {
    ...state,
    undelivered,
    cycle,
    reported: memory.reported,
    reportedContent: memory.reportedContent,
    seen,
  };
  if (Object.keys(scannerSlices).length > 0) nextState.scannerSlices = scannerSlices;
  else delete nextState.scannerSlices;
  if (Object.keys(acks.memory).length > 0) nextState.acked = acks.memory;
  else delete nextState.acked;
  if (Object.keys(breaker.breakers).length > 0) nextState.breakers = breaker.breakers;
  else delete nextState.breakers;
  if (isEmptyRecoveryMemory(recovery)) delete nextState.recovery;
  else nextState.recovery = recovery;

  return {
    decision: {
      cycle,
      at: context.now.toISOString(),
      status: message === null ? 'ok' : 'report',
      insideActiveHours: context.insideActiveHours,
      operatorIdle,
      reportable,
      categories,
      suppressed,
      held,
      unconfirmed,
      scanners: results.map(summarise),
      warnings: [...okResults.flatMap((r) => r.warnings), ...unregisteredWarnings(table, candidates)],
      estimatedTokens,
      message,
      costAlert,
      ...(breaker.events.length > 0 ? { breakerEvents: breaker.events } : {}),
      ...(resolved.length > 0 ? { resolved } : {}),
      ...(inhibited.length > 0 ? { inhibited } : {}),
      ...(Object.keys(recoveryWatch).length > 0 ? { recoveryWatch } : {}),
    },
    nextState,
  };
}

/** The part of a decision one delivery carried (a route's share); absent = the whole decision. */
export interface DeliveredPart {
  readonly reportable: readonly Finding[];
  readonly resolved: readonly ResolvedNotice[];
}

/**
 * Marks a decision's findings (or one route's `part` of them) as reported once the sink confirmed
 * delivery. Until then they stay unreported, so a failed delivery is retried on the next cycle.
 * Delivered findings whose category sends recovery notices are watched from now on, and the
 * delivered `RESOLVED:` notices are settled (never sent twice).
 */
export function markDelivered(state: HeartbeatState, decision: CycleDecision, deliveredAt: Date, part?: DeliveredPart): HeartbeatState {
  if (decision.message === null) return state;
  const findings = part?.reportable ?? decision.reportable;
  const notices = part?.resolved ?? decision.resolved ?? [];
  const reported = { ...state.reported };
  const reportedContent = { ...state.reportedContent };
  for (const finding of findings) {
    const next = rememberDelivery(reportMemoryOf(state, finding.fingerprint), findingContentHash(finding), deliveredAt.getTime());
    reported[finding.fingerprint] = next.atMs;
    reportedContent[finding.fingerprint] = { hash: findingContentHash(finding), repeats: next.repeats };
  }
  const delivered = new Set(findings.map((f) => f.fingerprint));
  const undelivered = (state.undelivered ?? []).filter((f) => !delivered.has(f.fingerprint));
  const recovery = settleRecoveries(state.recovery, { findings, watch: decision.recoveryWatch ?? {}, notices }, deliveredAt.getTime());
  const next: HeartbeatState = { ...state, reported, reportedContent, reportsSent: state.reportsSent + 1, undelivered };
  if (isEmptyRecoveryMemory(recovery)) delete next.recovery;
  else next.recovery = recovery;
  return next;
}
