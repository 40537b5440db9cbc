import type { Finding } from './finding.js';

/** Names of the seven built-in scanners of spec 000. */
export const BUILTIN_SCANNERS = ['beads', 'orchestrators', 'git', 'stale-tasks', 'idle-orchestrators', 'gchat', 'pipelines'] as const;

/** A built-in scanner name, or an embedder's own. */
export type ScannerName = (typeof BUILTIN_SCANNERS)[number] | (string & Record<never, never>);

/** Pipeline stages as the Attractor dashboard computes them. */
export type PipelineStage = 'Definition' | 'Implementation' | 'Validation' | 'Finalized';

/**
 * Facts a scanner saw that only mean something across cycles. The cycle evaluator keeps them in
 * state and derives findings from their history (ORCH_IDLE, PIPELINE_FINALIZED).
 */
export type Observation =
  | {
      /** A hash of an orchestrator pane's (stripped, redacted) content. */
      readonly kind: 'pane';
      readonly session: string;
      readonly hash: string;
    }
  | {
      /** A pipeline's stage this cycle. */
      readonly kind: 'pipeline';
      readonly pipeline: string;
      readonly prdRef: string;
      readonly stage: PipelineStage;
      readonly validated: number;
      readonly total: number;
    }
  | {
      /** How many beads are in progress this cycle (for "Alert if: in_progress count changed"). */
      readonly kind: 'in-progress';
      readonly count: number;
    };

/** A non-fatal note from a scanner (e.g. GChat has no credentials). */
export interface ScanWarning {
  readonly code: string;
  readonly message: string;
  /** What the user can do about it, printed after `fix:` (a generic hint when absent). */
  readonly fix?: string;
}

/** The `reason` of a scanner skipped because the cycle is outside active hours (by design, not a problem). */
export const OUTSIDE_ACTIVE_HOURS_REASON = 'outside active hours';

/** What one scanner returned for one cycle. A scanner never fails the cycle. */
export type ScanResult =
  | {
      readonly scanner: ScannerName;
      readonly status: 'ok';
      readonly findings: readonly Finding[];
      readonly observations: readonly Observation[];
      readonly warnings: readonly ScanWarning[];
      readonly durationMs: number;
    }
  | {
      readonly scanner: ScannerName;
      readonly status: 'skipped';
      readonly reason: string;
      readonly durationMs: number;
      /** What the user can do so it runs. */
      readonly fix?: string;
      /**
       * `true`: the user set this scanner up (a poll command, an `Expected:` list), so a skip is a
       * warning. `false`: nothing of it is set up (no GChat at all), so the skip is said in JSON only.
       * Absent: a plain skip, said every cycle (a tool missing from cron's PATH looks like this).
       */
      readonly configured?: boolean;
      /** Stable code of the skip (default `SCANNER_SKIPPED`; the circuit breaker's is `SCANNER_BREAKER_OPEN`). */
      readonly code?: string;
    }
  | { readonly scanner: ScannerName; readonly status: 'error'; readonly error: string; readonly durationMs: number; readonly fix?: string }
  | { readonly scanner: ScannerName; readonly status: 'timeout'; readonly timeoutMs: number; readonly durationMs: number };

/** Builds an ok scan result; omitted lists are empty. */
export function scanOk(
  scanner: ScannerName,
  parts: { findings?: readonly Finding[]; observations?: readonly Observation[]; warnings?: readonly ScanWarning[]; durationMs?: number },
): ScanResult {
  return {
    scanner,
    status: 'ok',
    findings: parts.findings ?? [],
    observations: parts.observations ?? [],
    warnings: parts.warnings ?? [],
    durationMs: parts.durationMs ?? 0,
  };
}
