import type { ScanProblem, ScanResult } from '@heartbeat-kit/core';

/**
 * What one cycle's scanners covered, in scanner order: the ones that looked, the ones that did
 * not (skipped, failed, timed out, cut off; outside active hours included), and apart from those
 * the ones nothing of which is set up (a problem of severity `unused`, e.g. no GChat poll script).
 */
export interface CycleCoverage {
  readonly lookedAt: readonly string[];
  readonly notLookedAt: readonly string[];
  readonly notSetUp: readonly string[];
}

/**
 * Splits a cycle's scan results by what was looked at (`ok`, warnings included: the scanner still
 * looked), what was not, and what is not set up (`unused` problems).
 */
export function cycleCoverage(
  results: readonly Pick<ScanResult, 'scanner' | 'status'>[],
  problems: readonly Pick<ScanProblem, 'scanner' | 'severity'>[],
): CycleCoverage {
  const unused = new Set(problems.filter((p) => p.severity === 'unused').map((p) => p.scanner));
  const missed = results.filter((r) => r.status !== 'ok');
  return {
    lookedAt: results.filter((r) => r.status === 'ok').map((r) => r.scanner),
    notLookedAt: missed.filter((r) => !unused.has(r.scanner)).map((r) => r.scanner),
    notSetUp: missed.filter((r) => unused.has(r.scanner)).map((r) => r.scanner),
  };
}

/**
 * Text mode's one stderr line of what a cycle covered, printed only when a scanner that is set up
 * did not look: a quiet cycle's stdout stays exactly `HEARTBEAT_OK`, and this line says how much
 * that covers (`heartbeat-kit: looked at: gchat; not looked at: beads, git, …`); the reasons are on
 * the lines before it. Empty when every set-up scanner looked, so a healthy cycle prints nothing.
 */
export function coverageLine(coverage: CycleCoverage): string {
  if (coverage.notLookedAt.length === 0) return '';
  const looked = coverage.lookedAt.length === 0 ? 'nothing' : coverage.lookedAt.join(', ');
  const notSetUp = coverage.notSetUp.length === 0 ? '' : `; not set up: ${coverage.notSetUp.join(', ')}`;
  return `heartbeat-kit: looked at: ${looked}; not looked at: ${coverage.notLookedAt.join(', ')}${notSetUp}\n`;
}
