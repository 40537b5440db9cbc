import type { ScanResult } from '@heartbeat-kit/core';
import { NOT_DUE_SKIP_CODE, type ScanProblem } from '@heartbeat-kit/core/host';

/**
 * What one cycle's scanners covered, in scanner order: the ones that looked, the ones that did
 * not (skipped, failed, timed out, cut off; outside active hours included), and apart from those
 * the ones nothing of which is set up (a problem of severity `unused`, e.g. no GChat poll script).
 */
export interface CycleCoverage {
  readonly lookedAt: readonly string[];
  readonly notLookedAt: readonly string[];
  readonly notSetUp: readonly string[];
  /** Checks whose `every:` did not fall on this cycle: not looked at, by design (said, never a problem). */
  readonly notDue: readonly string[];
}

/**
 * Splits a cycle's scan results by what was looked at (`ok`, warnings included: the scanner still
 * looked), what was not, and what is not set up (`unused` problems).
 */
export function cycleCoverage(
  results: readonly (Pick<ScanResult, 'scanner' | 'status'> & { readonly code?: string | undefined })[],
  problems: readonly Pick<ScanProblem, 'scanner' | 'severity'>[],
): CycleCoverage {
  const unused = new Set(problems.filter((p) => p.severity === 'unused').map((p) => p.scanner));
  const notDue = results.filter((r) => r.status === 'skipped' && r.code === NOT_DUE_SKIP_CODE).map((r) => r.scanner);
  const missed = results.filter((r) => r.status !== 'ok' && !notDue.includes(r.scanner));
  return {
    lookedAt: results.filter((r) => r.status === 'ok').map((r) => r.scanner),
    notLookedAt: missed.filter((r) => !unused.has(r.scanner)).map((r) => r.scanner),
    notSetUp: missed.filter((r) => unused.has(r.scanner)).map((r) => r.scanner),
    notDue,
  };
}

/**
 * Text mode's one stderr line of what a cycle covered, printed only when a scanner that is set up
 * did not look: a quiet cycle's stdout stays exactly `HEARTBEAT_OK`, and this line says how much
 * that covers (`heartbeat-kit: looked at: gchat; not looked at: beads, git, …`); the reasons are on
 * the lines before it. Empty when every set-up scanner looked, so a healthy cycle prints nothing.
 */
export function coverageLine(coverage: CycleCoverage): string {
  // Checks whose cadence skipped this cycle are said too: a quiet cycle never passes for having looked there.
  if (coverage.notLookedAt.length === 0)
    return coverage.notDue.length === 0
      ? ''
      : `heartbeat-kit: not due this cycle (their every: skipped it): ${coverage.notDue.join(', ')}\n`;
  const looked = coverage.lookedAt.length === 0 ? 'nothing' : coverage.lookedAt.join(', ');
  const notSetUp = coverage.notSetUp.length === 0 ? '' : `; not set up: ${coverage.notSetUp.join(', ')}`;
  const notDue = coverage.notDue.length === 0 ? '' : `; not due this cycle: ${coverage.notDue.join(', ')}`;
  return `heartbeat-kit: looked at: ${looked}; not looked at: ${coverage.notLookedAt.join(', ')}${notSetUp}${notDue}\n`;
}
