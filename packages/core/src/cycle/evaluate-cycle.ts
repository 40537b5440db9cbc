import { CATEGORY_INFO, isCoBuilderCategory, type FindingCategory } from '../domain/categories.js';
import { createFinding, findingContentHash, type Finding } from '../domain/finding.js';
import type { Observation, ScanResult, ScanWarning, ScannerName } from '../domain/scan-result.js';
import type { HeartbeatConfig } from '../config/heartbeat-config-schema.js';
import type { OutboundMessage } from '../ports/sink.js';
import { sanitizeForMessage } from '../text/sanitize.js';
import { renderCostAlert, renderWorkFound } from '../messages/render-messages.js';
import type { TokenEstimator } from '../messages/token-estimate.js';
import { stableMessageId } from '../messages/message-id.js';
import type { HeartbeatState } from './heartbeat-state.js';
import { updateBreakers, type BreakerEvent } from './scanner-breaker.js';
import {
  decideRepeat,
  pruneReportMemory,
  rememberDelivery,
  reportMemoryOf,
  reportMemoryRetentionMs,
  repeatScheduleOf,
} from './repeat-schedule.js';

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
}

/** Why a confirmed finding is not in this cycle's report. */
export type SuppressionReason = 'dedup' | 'outside-active-hours';

/** A finding the decision left out, and why. */
export interface SuppressedFinding {
  readonly finding: Finding;
  readonly reason: SuppressionReason;
  /** For `dedup`: when the fingerprint was last reported (epoch ms). */
  readonly lastReportedAtMs?: number;
  /** For `dedup`: when the unchanged finding is due again under its repeat schedule (epoch ms). */
  readonly repeatAtMs?: number;
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
}

/** The decision and the memory to keep for the next cycle (reports not yet marked delivered). */
export interface CycleEvaluation {
  readonly decision: CycleDecision;
  readonly nextState: HeartbeatState;
}

function confirmCyclesOf(category: FindingCategory): number {
  return isCoBuilderCategory(category) ? CATEGORY_INFO[category].confirmCycles : 1;
}

function isOneShot(category: FindingCategory): boolean {
  return isCoBuilderCategory(category) ? CATEGORY_INFO[category].oneShot : false;
}

function allowedOutsideHours(category: FindingCategory): boolean {
  return isCoBuilderCategory(category) ? CATEGORY_INFO[category].outsideActiveHours : false;
}

/**
 * Observation strings (session names, graph names, PRD refs) are untrusted; the renderer cleans
 * each line but keeps line breaks, so a raw newline would let a name forge a message section.
 */
function safe(text: string, maxLength = 80): string {
  return sanitizeForMessage(text, { maxLength });
}

function minutes(ms: number): number {
  return Math.floor(ms / 60_000);
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

/** Derives ORCH_IDLE from pane hashes kept across cycles. */
function derivePanes(
  previous: HeartbeatState['panes'],
  observations: readonly Extract<Observation, { kind: 'pane' }>[],
  scannerRan: boolean,
  nowMs: number,
  idleMs: number,
): { panes: HeartbeatState['panes']; findings: Finding[] } {
  if (!scannerRan) return { panes: previous, findings: [] };
  const panes: Record<string, { hash: string; sinceMs: number }> = {};
  const findings: Finding[] = [];
  for (const obs of observations) {
    const before = previous[obs.session];
    const sinceMs = before !== undefined && before.hash === obs.hash ? before.sinceMs : nowMs;
    panes[obs.session] = { hash: obs.hash, sinceMs };
    const quietMs = nowMs - sinceMs;
    // Spec 000: quiet for MORE than the threshold (exactly 30:00 is not idle yet), like GIT_STALE.
    if (quietMs > idleMs) {
      const session = safe(obs.session);
      findings.push(
        createFinding({
          category: 'ORCH_IDLE',
          subject: obs.session,
          line: `IDLE: ${session} (no pane change for ${minutes(quietMs)} min)`,
          action: `Check ${session}: it may be waiting for input or finished`,
          short: `${session} idle`,
          details: { session: obs.session, quietMinutes: minutes(quietMs), sinceMs },
          // The minutes grow every cycle; a pane that moved and went quiet again is a new idle spell.
          content: { sinceMs },
        }),
      );
    }
  }
  return { panes, findings };
}

/** Derives PIPELINE_FINALIZED from the stage each pipeline had at its last cycle. */
function derivePipelines(
  previous: HeartbeatState['pipelines'],
  observations: readonly Extract<Observation, { kind: 'pipeline' }>[],
  scannerRan: boolean,
): { pipelines: HeartbeatState['pipelines']; findings: Finding[] } {
  if (!scannerRan) return { pipelines: previous, findings: [] };
  const pipelines: Record<string, HeartbeatState['pipelines'][string]> = {};
  const findings: Finding[] = [];
  for (const obs of observations) {
    pipelines[obs.pipeline] = obs.stage;
    // A pipeline first seen already Finalized is reported once (DESIGN.md); dedup stops repeats.
    if (obs.stage === 'Finalized' && previous[obs.pipeline] !== 'Finalized') {
      const pipeline = safe(obs.pipeline);
      const prd = safe(obs.prdRef);
      findings.push(
        createFinding({
          category: 'PIPELINE_FINALIZED',
          subject: `${obs.pipeline}:Finalized`,
          line: `PIPELINE_FINALIZED:\n  Pipeline: ${pipeline}\n  PRD: ${prd}\n  Stage: Finalized\n  Promise: ${obs.validated}/${obs.total} gates validated`,
          action: `Review finalized pipeline ${pipeline} and close out ${prd}`,
          short: `${pipeline} finalized`,
          details: { pipeline: obs.pipeline, prdRef: obs.prdRef, validated: obs.validated, total: obs.total },
        }),
      );
    }
  }
  return { pipelines, findings };
}

/**
 * HEARTBEAT.md's Beads "Alert if: in_progress count changed since last check" (opt-in). Spec 000
 * gives it no category; it is reported as IN_PROGRESS_CHANGED with Normal priority, so it waits
 * for an idle operator like WORK_READY.
 */
function deriveInProgressChange(
  previous: number | undefined,
  observations: readonly Extract<Observation, { kind: 'in-progress' }>[],
  enabled: boolean,
): { count: number | undefined; findings: Finding[] } {
  const current = observations.at(-1)?.count;
  if (current === undefined) return { count: previous, findings: [] };
  if (!enabled || previous === undefined || previous === current) return { count: current, findings: [] };
  return {
    count: current,
    findings: [
      createFinding({
        category: 'IN_PROGRESS_CHANGED',
        priority: 'Normal',
        subject: `${previous}->${current}`,
        line: `IN PROGRESS: ${previous} → ${current} beads in progress since the last check`,
        action: 'Review which beads started or stopped since the last check',
        short: `in-progress ${previous}→${current}`,
        details: { previous, current },
      }),
    ],
  };
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
 * spec 000's report rules: hysteresis, active hours, dedup window, operator-idle rule,
 * batching into one message, cost estimate and cost alert. Pure and deterministic, so any
 * recorded cycle can be replayed.
 *
 * @example
 * ```ts
 * import { DEFAULT_HEARTBEAT_CONFIG, createFinding, decodeHeartbeatState, evaluateCycle, scanOk } from '@heartbeat-kit/core';
 *
 * const crash = createFinding({ category: 'ORCH_FAILURE', subject: 'orch-auth', line: 'CRASHED: orch-auth', action: 'Re-launch orch-auth', short: 'orch-auth crashed' });
 * const { decision, nextState } = evaluateCycle(decodeHeartbeatState(undefined).state, [scanOk('orchestrators', { findings: [crash] })], {
 *   now: new Date('2026-02-19T14:50:00Z'),
 *   config: DEFAULT_HEARTBEAT_CONFIG,
 *   timeZone: 'UTC',
 *   insideActiveHours: true,
 *   operatorLastActiveAt: undefined, // unknown = idle
 * });
 * console.log(decision.status, decision.message?.content.split('\n')[0]); // report WORK_FOUND: ORCH_FAILURE
 * console.log(nextState.cycle); // 1 — pure: nothing was delivered or saved
 * ```
 */
export function evaluateCycle(state: HeartbeatState, results: readonly ScanResult[], context: CycleContext): CycleEvaluation {
  const { config } = context;
  const nowMs = context.now.getTime();
  const cycle = state.cycle + 1;
  const okResults = results.filter((r): r is Extract<ScanResult, { status: 'ok' }> => r.status === 'ok');
  const observations = okResults.flatMap((r) => r.observations);
  const paneObs = observations.filter((o): o is Extract<Observation, { kind: 'pane' }> => o.kind === 'pane');
  const pipelineObs = observations.filter((o): o is Extract<Observation, { kind: 'pipeline' }> => o.kind === 'pipeline');
  const ranWith = (kind: 'pane' | 'pipeline'): boolean =>
    okResults.some((r) => r.observations.some((o) => o.kind === kind)) ||
    okResults.some((r) => r.scanner === (kind === 'pane' ? 'idle-orchestrators' : 'pipelines'));

  const panes = derivePanes(state.panes, paneObs, ranWith('pane'), nowMs, config.orchIdleMs);
  const pipelines = derivePipelines(state.pipelines, pipelineObs, ranWith('pipeline'));
  const inProgressObs = observations.filter((o): o is Extract<Observation, { kind: 'in-progress' }> => o.kind === 'in-progress');
  const inProgress = deriveInProgressChange(state.inProgressCount, inProgressObs, config.alertInProgressChanged);
  // A scanner failing the same way for N cycles: one advisory, its runs backed off (scanner-breaker.ts).
  const breaker = updateBreakers(state.breakers, state.reported, results, {
    cycle,
    now: context.now,
    timeZone: context.timeZone,
    settings: config.breaker,
  });
  // One-shot findings that were not delivered come back until a delivery succeeds: their source
  // will not report them again.
  const candidates = uniqueByFingerprint([
    ...okResults.flatMap((r) => r.findings),
    ...panes.findings,
    ...pipelines.findings,
    ...inProgress.findings,
    ...breaker.findings,
    ...(state.undelivered ?? []),
  ]);

  // Hysteresis: count consecutive cycles per fingerprint; a fingerprint not seen this cycle resets.
  const seen: Record<string, number> = {};
  const confirmed: Finding[] = [];
  const unconfirmed: UnconfirmedFinding[] = [];
  for (const finding of candidates) {
    const count = (state.seen[finding.fingerprint] ?? 0) + 1;
    seen[finding.fingerprint] = count;
    const needed = confirmCyclesOf(finding.category);
    if (count >= needed) confirmed.push(finding);
    else unconfirmed.push({ finding, seenCycles: count, neededCycles: needed });
  }

  const lastActive = context.operatorLastActiveAt;
  const operatorIdle = lastActive === undefined || nowMs - lastActive.getTime() >= config.operatorIdleMs;

  const reportable: Finding[] = [];
  const suppressed: SuppressedFinding[] = [];
  const held: Finding[] = [];
  for (const finding of confirmed) {
    if (!context.insideActiveHours && !allowedOutsideHours(finding.category)) {
      suppressed.push({ finding, reason: 'outside-active-hours' });
      continue;
    }
    // Change-aware repeats: changed content is reported at once; unchanged content waits for
    // its priority's repeat schedule (by default the spec's 30-minute dedup window).
    const memory = reportMemoryOf(state, finding.fingerprint);
    const repeat = decideRepeat(memory, findingContentHash(finding), nowMs, repeatScheduleOf(config, finding.priority));
    if (!repeat.report) {
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
  if (reportable.length > 0) {
    const rendered = renderWorkFound({
      findings: reportable,
      cycle,
      at: context.now,
      timeZone: context.timeZone,
      budgetTokens: config.actionableBudgetTokens,
      ...(context.estimateTokens ? { estimateTokens: context.estimateTokens } : {}),
    });
    message = { ...rendered.message, id: stableMessageId('work_found', reportable, state.reportsSent) };
    estimatedTokens = rendered.estimatedTokens;
    categories = rendered.categories;
    if (estimatedTokens > config.costAlertTokens) {
      costAlert = renderCostAlert({ cycle, tokens: estimatedTokens, budgetTokens: config.costAlertTokens, at: context.now });
    }
  }

  // Bounded memory: what is still seen keeps its schedule; what is gone is forgotten after a while.
  const memory = pruneReportMemory(state, new Set(candidates.map((f) => f.fingerprint)), nowMs, reportMemoryRetentionMs(config));

  const dedupSuppressed = new Set(suppressed.filter((s) => s.reason === 'dedup').map((s) => s.finding.fingerprint));
  const undelivered = confirmed.filter((f) => isOneShot(f.category) && !dedupSuppressed.has(f.fingerprint));

  const nextState: HeartbeatState = {
    ...state,
    undelivered,
    cycle,
    reported: memory.reported,
    reportedContent: memory.reportedContent,
    seen,
    panes: panes.panes,
    pipelines: pipelines.pipelines,
    ...(inProgress.count === undefined ? {} : { inProgressCount: inProgress.count }),
  };
  if (Object.keys(breaker.breakers).length > 0) nextState.breakers = breaker.breakers;
  else delete nextState.breakers;

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
      warnings: okResults.flatMap((r) => r.warnings),
      estimatedTokens,
      message,
      costAlert,
      ...(breaker.events.length > 0 ? { breakerEvents: breaker.events } : {}),
    },
    nextState,
  };
}

/**
 * Marks a decision's findings as reported once the sink confirmed delivery. Until then they
 * stay unreported, so a failed delivery is retried on the next cycle.
 */
export function markDelivered(state: HeartbeatState, decision: CycleDecision, deliveredAt: Date): HeartbeatState {
  if (decision.message === null) return state;
  const reported = { ...state.reported };
  const reportedContent = { ...state.reportedContent };
  for (const finding of decision.reportable) {
    const next = rememberDelivery(reportMemoryOf(state, finding.fingerprint), findingContentHash(finding), deliveredAt.getTime());
    reported[finding.fingerprint] = next.atMs;
    reportedContent[finding.fingerprint] = { hash: findingContentHash(finding), repeats: next.repeats };
  }
  const delivered = new Set(decision.reportable.map((f) => f.fingerprint));
  const undelivered = (state.undelivered ?? []).filter((f) => !delivered.has(f.fingerprint));
  return { ...state, reported, reportedContent, reportsSent: state.reportsSent + 1, undelivered };
}
