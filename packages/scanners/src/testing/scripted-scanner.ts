import { type Finding, type ScanContext, type Scanner, scanOk, type ScanResult } from '@heartbeat-kit/core';
import type { ScannerName } from '@heartbeat-kit/core/host';

/** One scripted answer: findings for an ok result, a whole result, or a function of the context. */
export type ScriptStep = readonly Finding[] | ScanResult | ((context: ScanContext) => ScanResult | Promise<ScanResult>);

/** Options of {@link createScriptedScanner}. */
export interface ScriptedScannerOptions {
  readonly name: ScannerName;
  readonly runsOutsideActiveHours?: boolean;
  /** Answers in call order; the last one repeats once the script runs out (empty script = ok with nothing). */
  readonly script: readonly ScriptStep[];
}

/** A {@link Scanner} that answers from a script and remembers the contexts it was called with. */
export interface ScriptedScanner extends Scanner {
  readonly calls: readonly ScanContext[];
}

/**
 * Creates a scanner that replays scripted answers, so a test can drive several cycles of a loop
 * through findings appearing, persisting and disappearing.
 *
 * @example
 * ```ts
 * import { createFinding } from '@heartbeat-kit/core';
 * import { createScriptedScanner } from '@heartbeat-kit/scanners/testing';
 *
 * const crash = createFinding({ category: 'ORCH_FAILURE', subject: 'orch-a', line: 'CRASHED: orch-a', action: 'Re-launch orch-a', short: 'orch-a crashed' });
 * // Cycle 1 finds the crash, cycle 2 and later find nothing.
 * const scanner = createScriptedScanner({ name: 'orchestrators', runsOutsideActiveHours: true, script: [[crash], []] });
 * ```
 */
export function createScriptedScanner(options: ScriptedScannerOptions): ScriptedScanner {
  const calls: ScanContext[] = [];
  return {
    name: options.name,
    runsOutsideActiveHours: options.runsOutsideActiveHours ?? false,
    calls,
    scan: async (context) => {
      calls.push(context);
      const step = options.script[Math.min(calls.length, options.script.length) - 1];
      if (step === undefined) return scanOk(options.name, {});
      if (typeof step === 'function') return step(context);
      if (Array.isArray(step)) return scanOk(options.name, { findings: step as readonly Finding[] });
      return step as ScanResult;
    },
  };
}
