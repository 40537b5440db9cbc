import type { FindingCategory } from '../domain/categories.js';
import type { CategoryTable } from '../domain/category-table.js';
import { findingContentHash, type Finding } from '../domain/finding.js';
import type { ScanResult } from '../domain/scan-result.js';
import type { HeartbeatConfig } from '../config/heartbeat-config-schema.js';
import type { Ack } from '../operator/ack-book.js';
import { decideAcks, type AckDecision } from '../operator/ack-decision.js';
import type { HeartbeatState } from './heartbeat-state.js';
import type { SuppressedFinding, UnconfirmedFinding } from './cycle-decision.js';
import { decideRepeat, reportMemoryOf, repeatScheduleFor } from './repeat-schedule.js';

/** A finding's rules under the cycle's table; a category it lacks confirms after one cycle. */
export function rulesOf(
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

/** The findings seen on enough consecutive cycles, those still waiting, and the new counts. */
export interface Confirmation {
  readonly seen: Record<string, number>;
  readonly confirmed: Finding[];
  readonly unconfirmed: UnconfirmedFinding[];
}

/** Hysteresis: count consecutive cycles per fingerprint; a fingerprint not seen this cycle resets. */
export function confirmFindings(state: HeartbeatState, candidates: readonly Finding[], table: CategoryTable): Confirmation {
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
  return { seen, confirmed, unconfirmed };
}

/** What {@link triageFindings} reads besides the confirmed findings. */
export interface TriageInput {
  readonly state: HeartbeatState;
  readonly table: CategoryTable;
  readonly config: HeartbeatConfig;
  readonly now: Date;
  readonly insideActiveHours: boolean;
  readonly operatorIdle: boolean;
  readonly acks: readonly Ack[];
  readonly results: readonly ScanResult[];
  /** Fingerprints fresh from this cycle's scan (not carried over as undelivered). */
  readonly scannedNow: ReadonlySet<string>;
}

/** Where each confirmed finding goes: the report, left out (and why), or held for an idle operator. */
export interface Triage {
  readonly reportable: Finding[];
  readonly suppressed: SuppressedFinding[];
  readonly held: Finding[];
  /** The operator's acks as decided this cycle (their memory is kept in the next state). */
  readonly acks: AckDecision;
}

/**
 * Sorts confirmed findings: the operator's acks first (a held finding is said in the decision,
 * with the ack, never sent), then active hours, the repeat schedule, and the operator's idleness.
 */
export function triageFindings(confirmed: readonly Finding[], input: TriageInput): Triage {
  const { state, table, config } = input;
  const nowMs = input.now.getTime();
  const reportable: Finding[] = [];
  const suppressed: SuppressedFinding[] = [];
  const held: Finding[] = [];
  const acks = decideAcks({ findings: confirmed, acks: input.acks, memory: state.acked, results: input.results, now: input.now });
  for (const { finding, ack } of acks.held) suppressed.push({ finding, reason: 'ack', ack });
  const ackEnded = new Set(acks.ended.map((e) => e.finding.fingerprint));
  for (const finding of acks.pass) {
    if (!input.insideActiveHours && !reportsOutsideActiveHours(table, finding, input.scannedNow)) {
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
    if (finding.priority !== 'Immediate' && !input.operatorIdle) {
      held.push(finding);
      continue;
    }
    reportable.push(finding);
  }
  return { reportable, suppressed, held, acks };
}
