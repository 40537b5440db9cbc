import { scanOk, type Observation, type ScanWarning, type Scanner } from '@heartbeat-kit/core';
import { guardScan, skipped, failed, type DurationMeter } from '../scanner-support.js';
import { hashPaneCapture } from './normalise-pane.js';
import { capturePanes, createTmuxSessionsSource, type TmuxDeps, type TmuxSessionsSource } from './tmux-client.js';

/** Dependencies of {@link createIdleOrchestratorsScanner}. */
export interface IdleOrchestratorsScannerDeps extends TmuxDeps {
  /** The cycle's shared session listing (default: one of its own). */
  readonly sessions?: TmuxSessionsSource;
}

const NAME = 'idle-orchestrators';

/**
 * Scan target 5: captures each orchestrator pane and reports a hash of its last 20 normalised
 * lines as a `pane` observation. It emits no findings: ORCH_IDLE needs the hash history, which
 * core's cycle evaluator keeps.
 *
 * @example
 * ```ts
 * import { createIdleOrchestratorsScanner } from '@heartbeat-kit/scanners';
 * import { createProcessRunner } from '@heartbeat-kit/core/node';
 *
 * // Emits pane-hash observations; the cycle evaluator turns 30 min without change into ORCH_IDLE.
 * const scanner = createIdleOrchestratorsScanner({ runner: createProcessRunner(), tmuxArgs: ['-L', 'work'] });
 * ```
 */
export function createIdleOrchestratorsScanner(deps: IdleOrchestratorsScannerDeps): Scanner {
  const source = deps.sessions ?? createTmuxSessionsSource(deps);
  return {
    name: NAME,
    runsOutsideActiveHours: false,
    scan: (ctx) => {
      const meter: DurationMeter = { ms: 0 };
      return guardScan(NAME, meter, async () => {
        const sessions = await source.list(ctx.now, ctx.signal, meter);
        if (sessions.isErr())
          return sessions.error.kind === 'tool-missing'
            ? skipped(NAME, sessions.error.message, meter)
            : failed(NAME, sessions.error.message, meter);
        const observations: Observation[] = [];
        const warnings: ScanWarning[] = [];
        const orchestrators = sessions.value.filter((session) => session.name.startsWith(ctx.config.orchestratorPrefix));
        const captures = await capturePanes(deps, orchestrators, ctx.signal, meter);
        for (const [i, captured] of captures.entries()) {
          const session = orchestrators[i]!;
          // A session can end between the listing and the capture; the others still count.
          if (captured.isErr()) warnings.push({ code: 'PANE_CAPTURE_FAILED', message: captured.error.message });
          else observations.push({ kind: 'pane', session: session.name, hash: hashPaneCapture(captured.value) });
        }
        return scanOk(NAME, { observations, warnings, durationMs: meter.ms });
      });
    },
  };
}
