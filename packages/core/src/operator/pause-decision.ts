import { OPEN_CATEGORIES, type CategoryTable } from '../domain/category-table.js';
import type { Finding } from '../domain/finding.js';
import type { ScanResult, ScannerName } from '../domain/scan-result.js';
import { describePause, type Pause } from './pause-model.js';

/**
 * What an operator pause means for one slot: `run` (no pause, or it has ended), `skip` (the whole
 * slot is paused: a `paused` receipt, nothing scanned) or `partial` (the slot runs, but the listed
 * scanners are not looked at, and with `criticalOnly` only critical findings are kept).
 */
export type PauseDecision =
  | { readonly kind: 'run' }
  | { readonly kind: 'skip'; readonly pause: Pause; readonly line: string }
  | {
      readonly kind: 'partial';
      readonly pause: Pause;
      readonly line: string;
      /** Scanners not run this slot (said as "not looked at"). */
      readonly scanners: readonly string[];
      /** Only {@link isCriticalFinding} findings are kept. */
      readonly criticalOnly: boolean;
    };

/** The pause a slot that runs honours (a `partial` decision). */
export type SlotPause = Extract<PauseDecision, { kind: 'partial' }>;

/** The `code` of a scanner's skipped result while an operator paused it. */
export const PAUSED_SCANNER_CODE = 'SCANNER_PAUSED';

/** Is the pause in force at `nowMs`? From its start up to (not including) its end. */
export function pauseActiveAt(pause: Pause | undefined, nowMs: number): pause is Pause {
  if (pause === undefined) return false;
  if (Date.parse(pause.since) > nowMs) return false;
  return pause.until === undefined || nowMs < Date.parse(pause.until);
}

/**
 * The pause decision for the slot at `nowMs`: pure, so the cycle, the loop, the fleet job and
 * `plan` agree. An ended pause never skips; a pause with `exceptCritical` never skips either
 * (the slot runs so Immediate findings still reach the operator).
 */
export function decidePause(pause: Pause | undefined, nowMs: number): PauseDecision {
  if (!pauseActiveAt(pause, nowMs)) return { kind: 'run' };
  const line = describePause(pause);
  if (pause.scanners === undefined && pause.exceptCritical !== true) return { kind: 'skip', pause, line };
  return { kind: 'partial', pause, line, scanners: pause.scanners ?? [], criticalOnly: pause.exceptCritical === true };
}

/**
 * What `--except-critical` keeps flowing: Immediate findings and those of a category its table marks
 * `critical` (the CoBuilder table: orchestrator failures and GChat replies, where a person is waiting).
 */
export function isCriticalFinding(finding: Pick<Finding, 'priority' | 'category'>, categories: CategoryTable = OPEN_CATEGORIES): boolean {
  return finding.priority === 'Immediate' || categories.info(finding.category)?.critical === true;
}

/** The result a paused scanner reports instead of scanning: a skip that says the pause and how to end it. */
export function pausedScanResult(scanner: ScannerName, pause: SlotPause): Extract<ScanResult, { status: 'skipped' }> {
  return {
    scanner,
    status: 'skipped',
    reason: pause.line,
    durationMs: 0,
    fix: 'heartbeat-kit resume (or wait for the pause to end)',
    configured: true,
    code: PAUSED_SCANNER_CODE,
  };
}

/** The scanners a partial pause stops, as the skip map the scan runner takes. */
export function pausedScannerSkips(pause: SlotPause | undefined): Map<ScannerName, ScanResult> {
  return new Map((pause?.scanners ?? []).map((name) => [name, pausedScanResult(name, pause!)]));
}

/** Scan results with only the critical findings (by the cycle's category table) kept, when the pause says `criticalOnly`. */
export function keepCriticalFindings(
  results: readonly ScanResult[],
  pause: SlotPause | undefined,
  categories: CategoryTable = OPEN_CATEGORIES,
): readonly ScanResult[] {
  if (pause?.criticalOnly !== true) return results;
  const critical = (finding: Finding): boolean => isCriticalFinding(finding, categories);
  return results.map((r) => (r.status === 'ok' ? { ...r, findings: r.findings.filter(critical) } : r));
}

/** What `check-liveness` says about a pause in force: a pause is not a death, but a forgotten one is worth a warning. */
export interface PauseLiveness {
  /** `paused until …: note` (or `paused since … (no end…): note`). */
  readonly message: string;
  /** Set when a pause with no end is older than the allowed age: it may have been forgotten. */
  readonly warning?: string;
}

/**
 * The liveness answer while a pause is in force at `nowMs`, or undefined when none is. A pause
 * without an end older than `maxOpenAgeMs` still answers "paused" (exit 0), with a warning.
 */
export function pauseLiveness(pause: Pause | undefined, nowMs: number, maxOpenAgeMs: number): PauseLiveness | undefined {
  if (!pauseActiveAt(pause, nowMs)) return undefined;
  const message = describePause(pause);
  const ageMs = nowMs - Date.parse(pause.since);
  if (pause.until !== undefined || ageMs <= maxOpenAgeMs) return { message };
  const hours = Math.floor(ageMs / 3_600_000);
  return {
    message,
    warning: `the pause has no end and was set ${hours} h ago (${pause.since}), longer than ${Math.round(maxOpenAgeMs / 3_600_000)} h: is it forgotten? Fix: 'heartbeat-kit resume', or pause again with --for or --until`,
  };
}
