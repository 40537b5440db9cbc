import { decidePause, type PauseDecision, type PauseStore } from '@heartbeat-kit/core/host';
import { createFilePauseStore, pausePathFor } from '@heartbeat-kit/core/node';
import type { CliIo } from '../io.js';

/** The operator's pause beside a state file (`state.json` → `state.pause.json`). */
export function pauseStoreFor(statePath: string): PauseStore {
  return createFilePauseStore({ path: pausePathFor(statePath) });
}

/**
 * The pause decision for the slot at `nowMs`, read once (under the cycle lock, by the caller):
 * the file is replaced by rename, so the whole pause is in this decision or none of it. A pause
 * that cannot be read never silences the heartbeat: the slot runs, and stderr says why and the fix.
 */
export async function readPauseDecision(statePath: string, nowMs: number, io: CliIo, command: string): Promise<PauseDecision> {
  const read = await pauseStoreFor(statePath).read();
  if (read.isErr()) {
    io.stderr(`heartbeat-kit ${command}: warning: the pause is ignored, this slot runs: ${read.error.message}\n`);
    return { kind: 'run' };
  }
  return decidePause(read.value, nowMs);
}

/** The stderr line of a slot that runs under a partial pause: what it did not look at, or what it did not report. */
export function pausePartialLine(paused: Extract<PauseDecision, { kind: 'partial' }>, command: string): string {
  const parts = [
    ...(paused.scanners.length === 0 ? [] : [`not looked at: ${paused.scanners.join(', ')}`]),
    ...(paused.criticalOnly
      ? ['only Immediate findings, orchestrator failures and GChat replies are reported; the rest waits for resume']
      : []),
  ];
  return `heartbeat-kit ${command}: ${paused.line}; ${parts.join('; ')}.\n`;
}
