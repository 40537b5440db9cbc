import type { CycleOutcome } from '@heartbeat-kit/core';
import { isWithinActiveHours } from '@heartbeat-kit/core/host';
import type { LoadedHeartbeatSettings } from '../../wiring/heartbeat-settings.js';

/** How far ahead the next cycle's active hours are known: a prefetch is checked this often. */
const PREFETCH_STEP_MS = 15 * 60_000;
/** The longest a plan stays valid: past the longest interval anyone runs a one-shot cycle at. */
const PREFETCH_HORIZON_MS = 5 * PREFETCH_STEP_MS;

/**
 * Until when the next cycle may start this one's listings early: while the same scanners run
 * (inside the active hours all of them, outside only those that run at night), checked every 15
 * minutes up to 75 minutes ahead (the last check on the same side bounds it), and only when every
 * scanner breaker is closed (an open one skips its scanner). Undefined: no prefetch.
 */
export function prefetchValidUntil(outcome: CycleOutcome, settings: LoadedHeartbeatSettings): number | undefined {
  if (Object.keys(outcome.state.breakers ?? {}).length > 0) return undefined;
  const at = Date.parse(outcome.decision.at);
  const inside = outcome.decision.insideActiveHours;
  const window = { ...settings.config.activeHours, timeZone: settings.timeZone };
  let until: number | undefined;
  for (let ahead = 0; ahead <= PREFETCH_HORIZON_MS; ahead += PREFETCH_STEP_MS) {
    if (isWithinActiveHours(new Date(at + ahead), window) !== inside) break;
    until = at + ahead;
  }
  return until === undefined || until === at ? undefined : until;
}
