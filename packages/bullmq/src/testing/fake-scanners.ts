import { createFinding, type Scanner, scanOk, type Sleep } from '@heartbeat-kit/core';

/** Options of {@link createFakeScanners}. */
export interface FakeScannerOptions {
  readonly heartbeatId: string;
  readonly slot: number;
  readonly sleep: Sleep;
  /** How long the scan takes. */
  readonly scanMs: number;
  /** The finding's subject changes every this many slots; 0 = a quiet heartbeat. */
  readonly reportEvery: number;
}

/**
 * In-memory scanners for fleet tests and benchmarks: one scanner that takes `scanMs` and, when
 * `reportEvery > 0`, finds one ORCH_FAILURE whose subject changes every `reportEvery` slots —
 * so a heartbeat reports once per window and dedup keeps the repeats quiet.
 */
export function createFakeScanners(options: FakeScannerOptions): Scanner[] {
  return [
    {
      name: 'fake',
      runsOutsideActiveHours: true,
      scan: async (context) => {
        if (options.scanMs > 0) await options.sleep.sleep(options.scanMs, context.signal);
        if (options.reportEvery <= 0) return scanOk('fake', {});
        const window = Math.floor(options.slot / options.reportEvery);
        const session = `orch-${options.heartbeatId}-${window}`;
        const finding = createFinding({
          category: 'ORCH_FAILURE',
          // Core knows no category's priority; this is ORCH_FAILURE's in the CoBuilder table.
          priority: 'Immediate',
          subject: session,
          line: `CRASHED: ${session} (fake scanner)`,
          action: `Restart ${session}`,
          short: `${session} crashed`,
          details: { heartbeat: options.heartbeatId, window },
        });
        return scanOk('fake', { findings: [finding] });
      },
    },
  ];
}
