import type { FindingCategory } from '../domain/categories.js';
import type { Finding } from '../domain/finding.js';
import type { ScanResult, ScanWarning, ScannerName } from '../domain/scan-result.js';
import type { OutboundMessage } from '../ports/sink.js';
import type { Ack } from '../operator/ack-book.js';
import type { HeartbeatState } from './heartbeat-state.js';
import type { BreakerEvent } from './scanner-breaker.js';
import type { InhibitedFinding, ResolvedNotice } from './recovery-notices.js';

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
