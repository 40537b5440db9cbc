import type { CycleOutcome } from '@heartbeat-kit/core';
import { createCycleRecord } from '@heartbeat-kit/core/host';
import { DEFAULT_CATEGORIES } from '@heartbeat-kit/scanners';
import type { CliIo } from '../../io.js';
import { appendJsonLine, resolvePath } from '../../wiring/cycle-deps.js';
import type { LoadedHeartbeatSettings } from '../../wiring/heartbeat-settings.js';

/**
 * Appends the cycle's inputs and decision to `--record FILE` (for `heartbeat-kit replay`). False
 * when it could not: the cycle already ran and delivered, so this says so and the caller still
 * prints its result, but fails the exit code.
 */
export async function appendCycleRecord(
  file: string,
  outcome: CycleOutcome,
  settings: LoadedHeartbeatSettings,
  io: CliIo,
): Promise<boolean> {
  const d = outcome.decision;
  const recordPath = resolvePath(io.cwd, file);
  try {
    await appendJsonLine(
      recordPath,
      createCycleRecord(
        outcome.previousState,
        outcome.scanResults,
        {
          now: new Date(d.at),
          config: settings.config,
          timeZone: settings.timeZone,
          insideActiveHours: d.insideActiveHours,
          operatorLastActiveAt: outcome.operatorLastActiveAt,
          categories: DEFAULT_CATEGORIES,
        },
        d,
      ),
    );
    return true;
  } catch (error) {
    io.stderr(
      `heartbeat-kit cycle: cannot append the cycle record to ${recordPath}: ${(error as Error).message}. Fix: check the path and its permissions.\n`,
    );
    return false;
  }
}
