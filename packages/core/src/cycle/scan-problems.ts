import { describesInterruption } from '../command/describe-command-error.js';
import { NOT_DUE_SKIP_CODE, OUTSIDE_ACTIVE_HOURS_REASON, type ScanResult, type ScannerName } from '../domain/scan-result.js';
import { sanitizeForMessage } from '../text/sanitize.js';

/**
 * How a scanner fell short of looking: skipped (could not start), failed, timed out, cut off by
 * a signal, or ran but could not look at everything (`degraded`, from its warnings).
 */
export type ScanProblemKind = 'skipped' | 'failed' | 'timed-out' | 'cut-off' | 'degraded';

/**
 * One thing a cycle could not look at. `warning`: something the user set up, or a failure;
 * `notice`: a skip (a tool or database not found); `unused`: a scanner nothing of which is set up
 * (no GChat poll script, no forwarded questions) — listed in JSON, not printed every cycle.
 */
export interface ScanProblem {
  readonly scanner: ScannerName;
  readonly kind: ScanProblemKind;
  readonly severity: 'warning' | 'notice' | 'unused';
  /** Stable code (a scanner warning's code, or `SCANNER_<KIND>`), for matching repeats. */
  readonly code: string;
  readonly message: string;
  readonly fix: string;
  /** The failure without the details of this scanner's call, when the scanner said it (see `ScanResult`). */
  readonly cause?: string;
}

const NOT_ON_PATH = /^(\S+) not found on PATH$/;

function defaultFix(kind: ScanProblemKind, message: string): string {
  const missing = NOT_ON_PATH.exec(message);
  if (missing) return `install ${missing[1]} or put it on the PATH heartbeat-kit runs with`;
  switch (kind) {
    case 'skipped':
      return 'set up what the reason names, or ignore this if you do not use this scanner';
    case 'failed':
      return 'run the tool by hand in the project directory to see why it fails';
    case 'timed-out':
      return 'run the tool by hand to see why it hangs';
    case 'cut-off':
      return 'none if you stopped heartbeat-kit; otherwise find what signals it (systemd KillMode, timeout, a process-group kill)';
    case 'degraded':
      return 'see the message; the rest of the scanner ran';
  }
}

function clean(text: string): string {
  return sanitizeForMessage(text, { maxLength: 300 });
}

function problem(
  scanner: ScannerName,
  kind: ScanProblemKind,
  severity: ScanProblem['severity'],
  code: string,
  message: string,
  fix: string | undefined,
): ScanProblem {
  return { scanner, kind, severity, code, message: clean(message), fix: clean(fix ?? defaultFix(kind, message)) };
}

/**
 * Everything this cycle's scanners could not look at, one entry per problem, in scanner order.
 * Skips outside active hours and checks not due are by design and not problems. Pure, so `cycle`, `loop` and an
 * embedder print the same facts (one stderr line each in text mode, a `problems` list in JSON).
 */
export function scanProblems(results: readonly ScanResult[]): ScanProblem[] {
  const out: ScanProblem[] = [];
  for (const r of results) {
    switch (r.status) {
      case 'ok':
        for (const w of r.warnings) {
          const kind = describesInterruption(w.message) ? 'cut-off' : 'degraded';
          out.push(problem(r.scanner, kind, 'warning', kind === 'cut-off' ? 'SCANNER_CUT_OFF' : w.code, w.message, w.fix));
        }
        break;
      case 'skipped':
        if (r.reason === OUTSIDE_ACTIVE_HOURS_REASON || r.code === NOT_DUE_SKIP_CODE) break;
        if (describesInterruption(r.reason)) out.push(problem(r.scanner, 'cut-off', 'warning', 'SCANNER_CUT_OFF', r.reason, undefined));
        else
          out.push(
            problem(
              r.scanner,
              'skipped',
              r.configured === true ? 'warning' : r.configured === false ? 'unused' : 'notice',
              r.code ?? 'SCANNER_SKIPPED',
              r.reason,
              r.fix,
            ),
          );
        break;
      case 'error':
        if (describesInterruption(r.error)) out.push(problem(r.scanner, 'cut-off', 'warning', 'SCANNER_CUT_OFF', r.error, undefined));
        else {
          const failed = problem(r.scanner, 'failed', 'warning', 'SCANNER_FAILED', r.error, r.fix);
          out.push(r.cause === undefined ? failed : { ...failed, cause: clean(r.cause) });
        }
        break;
      case 'timeout':
        out.push(problem(r.scanner, 'timed-out', 'warning', 'SCANNER_TIMEOUT', `timed out after ${r.timeoutMs} ms`, undefined));
        break;
    }
  }
  return out;
}

/** The scanners a signal cut off this cycle (a cycle with any is partial, not completed). */
export function cutOffScanners(problems: readonly ScanProblem[]): ScannerName[] {
  return [...new Set(problems.filter((p) => p.kind === 'cut-off').map((p) => p.scanner))];
}

/**
 * The scanners that did not look at all this cycle — skipped, failed or timed out, as printed
 * (not `unused` ones nothing of which is set up, and not cut-off ones, which {@link cutOffScanners} names).
 */
export function notLookedAtScanners(problems: readonly ScanProblem[]): ScannerName[] {
  const missed = problems.filter((p) => p.severity !== 'unused' && (p.kind === 'skipped' || p.kind === 'failed' || p.kind === 'timed-out'));
  return [...new Set(missed.map((p) => p.scanner))];
}

/** The scanners skipped because the cycle fell outside active hours (by design: not a problem, still not looked at). */
export function outsideHoursScanners(results: readonly ScanResult[]): ScannerName[] {
  const skipped = results.filter((r) => r.status === 'skipped' && r.reason === OUTSIDE_ACTIVE_HOURS_REASON);
  return [...new Set(skipped.map((r) => r.scanner))];
}

const VERB: Record<ScanProblemKind, string> = {
  skipped: 'skipped',
  failed: 'failed',
  'timed-out': 'timed out',
  'cut-off': 'cut off',
  degraded: '',
};

/**
 * The stderr lines (without prefix or newline) of a cycle's problems, `unused` scanners left out: `gchat skipped: <why>; fix: <what
 * to do>`. Scanners stopped by one cause (three bd-backed scanners and "no beads database found")
 * share one line, so one problem is one line.
 */
export function formatScanProblems(problems: readonly ScanProblem[]): string[] {
  const groups = new Map<string, { problem: ScanProblem; scanners: ScannerName[] }>();
  for (const p of problems) {
    if (p.severity === 'unused') continue;
    const key = JSON.stringify([p.severity, p.kind, p.message, p.fix]);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { problem: p, scanners: [p.scanner] });
    else group.scanners.push(p.scanner);
  }
  return [...groups.values()].map(
    ({ problem: p, scanners }) =>
      `${p.severity === 'warning' ? 'warning: ' : ''}${scanners.join(', ')}${VERB[p.kind] === '' ? '' : ` ${VERB[p.kind]}`}: ${p.message}; fix: ${p.fix}`,
  );
}
