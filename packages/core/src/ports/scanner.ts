import type { HeartbeatConfig } from '../config/heartbeat-config-schema.js';
import type { ScanResult, ScannerName } from '../domain/scan-result.js';

/** What a scanner is told about the cycle it runs in. */
export interface ScanContext {
  readonly now: Date;
  readonly config: HeartbeatConfig;
  /** Outside active hours a scanner reports only what spec 000's exception allows (e.g. P0/P1 beads). */
  readonly insideActiveHours: boolean;
  /** Aborted when the scanner's time is up or the heartbeat is shutting down. */
  readonly signal: AbortSignal;
}

/**
 * One scan target. `scan` never rejects: a failure, a missing tool or a hang becomes an
 * error, skipped or timeout result, so one scanner never fails the cycle.
 */
export interface Scanner {
  readonly name: ScannerName;
  /** Runs outside active hours too (orchestrator failures, P0/P1 beads, GChat). */
  readonly runsOutsideActiveHours: boolean;
  readonly scan: (context: ScanContext) => Promise<ScanResult>;
}
