import { findingContentHash, type Finding } from '../domain/finding.js';
import type { HeartbeatState } from './heartbeat-state.js';
import type { CycleDecision } from './cycle-decision.js';
import { isEmptyRecoveryMemory, settleRecoveries, type ResolvedNotice } from './recovery-notices.js';
import { reportMemoryOf, rememberDelivery } from './repeat-schedule.js';

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
