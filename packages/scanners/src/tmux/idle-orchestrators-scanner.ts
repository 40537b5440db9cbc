import { defineStatefulScanner, type Scanner, scanOk, type ScanWarning } from '@heartbeat-kit/core';
import { readConfigSection } from '@heartbeat-kit/core/host';
import { guardScan, skipped, failed, type DurationMeter } from '../scanner-support.js';
import { hashPaneCapture } from './normalise-pane.js';
import { PANE_SLICE, derivePaneIdle, type PaneSeen, type PaneSlice } from './orch-idle.js';
import { capturePanes, createTmuxSessionsSource, type TmuxDeps, type TmuxSessionsSource } from './tmux-client.js';
import { ORCHESTRATORS_CONFIG } from './orchestrators-config.js';
import { IDLE_ORCHESTRATORS_CONFIG } from './idle-orchestrators-config.js';

/** Dependencies of {@link createIdleOrchestratorsScanner}. */
export interface IdleOrchestratorsScannerDeps extends TmuxDeps {
  /** The cycle's shared session listing (default: one of its own). */
  readonly sessions?: TmuxSessionsSource;
}

const NAME = 'idle-orchestrators';

/**
 * Scan target 5: captures each orchestrator pane, hashes its last 20 normalised lines and keeps
 * the hashes in its own slice of the state; a hash unchanged for more than `orchIdleMs` is ORCH_IDLE.
 *
 * @example
 * ```ts
 * import { createIdleOrchestratorsScanner } from '@heartbeat-kit/scanners';
 * import { createProcessRunner } from '@heartbeat-kit/core/node';
 *
 * // Keeps pane hashes across cycles; 30 min without change is ORCH_IDLE.
 * const scanner = createIdleOrchestratorsScanner({ runner: createProcessRunner(), tmuxArgs: ['-L', 'work'] });
 * ```
 */
export function createIdleOrchestratorsScanner(deps: IdleOrchestratorsScannerDeps): Scanner {
  const source = deps.sessions ?? createTmuxSessionsSource(deps);
  return defineStatefulScanner({
    name: NAME,
    runsOutsideActiveHours: false,
    slice: PANE_SLICE,
    scan: async (ctx, previous) => {
      const meter: DurationMeter = { ms: 0 };
      let next: PaneSlice | undefined;
      const result = await guardScan(NAME, meter, async () => {
        const sessions = await source.list(ctx.now, ctx.signal, meter);
        if (sessions.isErr())
          return sessions.error.kind === 'tool-missing'
            ? skipped(NAME, sessions.error.message, meter)
            : failed(NAME, sessions.error.message, meter);
        const seen: PaneSeen[] = [];
        const warnings: ScanWarning[] = [];
        const orchestrators = sessions.value.filter((session) =>
          session.name.startsWith(readConfigSection(ORCHESTRATORS_CONFIG, ctx.config).orchestratorPrefix),
        );
        const captures = await capturePanes(deps, orchestrators, ctx.signal, meter);
        for (const [i, captured] of captures.entries()) {
          const session = orchestrators[i]!;
          // A session can end between the listing and the capture; the others still count.
          if (captured.isErr()) warnings.push({ code: 'PANE_CAPTURE_FAILED', message: captured.error.message });
          else seen.push({ session: session.name, hash: hashPaneCapture(captured.value) });
        }
        const idle = derivePaneIdle(previous, seen, ctx.now.getTime(), readConfigSection(IDLE_ORCHESTRATORS_CONFIG, ctx.config).orchIdleMs);
        next = idle.next;
        return scanOk(NAME, { findings: idle.findings, warnings, durationMs: meter.ms });
      });
      // A skipped or failed scan keeps the previous hashes (no next slice).
      return next === undefined ? { result } : { result, next };
    },
  });
}
