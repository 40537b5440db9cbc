import type { Finding } from './finding.js';
import type { JsonValue } from './json.js';

/**
 * A scanner's name: a built-in one (`BUILTIN_SCANNERS` of `@heartbeat-kit/scanners`), a check's, or an
 * embedder's own. Core knows none of them.
 */
export type ScannerName = string;

/** A non-fatal note from a scanner (e.g. GChat has no credentials). */
export interface ScanWarning {
  readonly code: string;
  readonly message: string;
  /** What the user can do about it, printed after `fix:` (a generic hint when absent). */
  readonly fix?: string;
}

/** The `reason` of a scanner skipped because the cycle is outside active hours (by design, not a problem). */
export const OUTSIDE_ACTIVE_HOURS_REASON = 'outside active hours';

/**
 * The `code` of a skip by cadence: a check (HEARTBEAT.md `## Checks`, `every:`) that is not due this
 * cycle. By design like a skip outside active hours: not a problem, never a breaker failure.
 */
export const NOT_DUE_SKIP_CODE = 'SCANNER_NOT_DUE';

/** What one scanner returned for one cycle. A scanner never fails the cycle. */
export type ScanResult =
  | {
      readonly scanner: ScannerName;
      readonly status: 'ok';
      readonly findings: readonly Finding[];
      readonly warnings: readonly ScanWarning[];
      readonly durationMs: number;
      /**
       * The scanner's next slice of the state (its own schema's version and data), kept for its
       * next cycle; absent for a stateless scanner. See `defineStatefulScanner`.
       */
      readonly slice?: { readonly version: number; readonly data: JsonValue };
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
  | {
      readonly scanner: ScannerName;
      readonly status: 'error';
      readonly error: string;
      readonly durationMs: number;
      readonly fix?: string;
      /**
       * The failure without what is particular to this scanner's call (`bd: Error: database is
       * locked`, not `bd ready --json: …`): scanners failing with the same code, cause and fix share
       * one SCANNER_FAILING advisory. Defaults to `error`.
       */
      readonly cause?: string;
    }
  | { readonly scanner: ScannerName; readonly status: 'timeout'; readonly timeoutMs: number; readonly durationMs: number };

/** Builds an ok scan result; omitted lists are empty. */
export function scanOk(
  scanner: ScannerName,
  parts: {
    findings?: readonly Finding[];
    warnings?: readonly ScanWarning[];
    durationMs?: number;
    slice?: { readonly version: number; readonly data: JsonValue };
  },
): ScanResult {
  return {
    scanner,
    status: 'ok',
    findings: parts.findings ?? [],
    warnings: parts.warnings ?? [],
    durationMs: parts.durationMs ?? 0,
    ...(parts.slice === undefined ? {} : { slice: parts.slice }),
  };
}
