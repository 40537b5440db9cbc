import type { z } from 'zod';
import type { HeartbeatConfig } from '../config/heartbeat-config-schema.js';
import type { JsonValue } from '../domain/json.js';
import type { ScanResult, ScannerName } from '../domain/scan-result.js';

/** What a scanner is told about the cycle it runs in. */
export interface ScanContext {
  readonly now: Date;
  readonly config: HeartbeatConfig;
  /** Outside active hours a scanner reports only critical alerts: P0/P1 beads and ORCH_FAILURE (spec 000's exception). */
  readonly insideActiveHours: boolean;
  /** Aborted when the scanner's time is up or the heartbeat is shutting down. */
  readonly signal: AbortSignal;
  /**
   * The scanner's previous slice of the state, already checked against its `slice.schema`
   * (its initial slice on the first cycle or after a set-aside); absent for a scanner without one.
   */
  readonly slice?: unknown;
}

/**
 * How a scanner's own slice of the persisted state looks: a zod schema, a version and a bound.
 * The cycle validates the stored slice on load (a slice that does not fit is set aside with a
 * warning naming the scanner) and keeps the next one the scanner returns.
 */
export interface ScannerSliceSpec<S> {
  /** Version of the slice's shape; bump it when the schema changes and migrate older ones. */
  readonly version: number;
  readonly schema: z.ZodType<S>;
  /** The slice before the first cycle. */
  readonly initial: () => S;
  /** Bound of the serialised slice (default 64 KiB); a larger next slice is not kept. */
  readonly maxBytes?: number;
  /** Turns a slice of an older version into data the current schema reads; absent = set older slices aside. */
  readonly migrate?: (fromVersion: number, data: JsonValue) => unknown;
}

/**
 * One scan target. `scan` never rejects: a failure, a missing tool or a hang becomes an
 * error, skipped or timeout result, so one scanner never fails the cycle.
 */
export interface Scanner {
  readonly name: ScannerName;
  /**
   * Runs outside active hours too (orchestrator failures, P0/P1 beads, GChat). Its findings are then
   * reported there unless their category's table entry says `outsideActiveHours: false`.
   */
  readonly runsOutsideActiveHours: boolean;
  readonly scan: (context: ScanContext) => Promise<ScanResult>;
  /** The scanner's slice of the persisted state (see `defineStatefulScanner`); absent = stateless. */
  readonly slice?: ScannerSliceSpec<unknown>;
}
