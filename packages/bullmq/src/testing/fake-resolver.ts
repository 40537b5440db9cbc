import { DEFAULT_HEARTBEAT_CONFIG, type HeartbeatConfig, type Sleep } from '@heartbeat-kit/core';
import { nodeSleep } from '@heartbeat-kit/core/node';
import { err, ok } from 'neverthrow';
import type { ResolveHeartbeat } from '../node/fleet-worker-types.js';
import { createFakeScanners } from './fake-scanners.js';

/** The config of fake heartbeats: always inside active hours, so runs are comparable. */
const FAKE_CONFIG: HeartbeatConfig = {
  ...DEFAULT_HEARTBEAT_CONFIG,
  activeHours: { ...DEFAULT_HEARTBEAT_CONFIG.activeHours, start: '00:00', end: '00:00', weekend: true },
};

/**
 * Resolves the built-in `fake` scanner set (tests, benchmarks, `fleet worker --fake-scanners`);
 * every other registration is an error naming what is missing. Pass it as the worker's `resolve`.
 */
export function createFakeResolver(sleep: Sleep = nodeSleep): ResolveHeartbeat {
  return (heartbeat, slot) => {
    const { source } = heartbeat;
    if (source.kind === 'scanners' && source.set === 'fake') {
      return Promise.resolve(
        ok({
          scanners: createFakeScanners({ heartbeatId: heartbeat.id, slot, sleep, scanMs: source.scanMs, reportEvery: source.reportEvery }),
          config: FAKE_CONFIG,
          timeZone: 'UTC',
        }),
      );
    }
    return Promise.resolve(
      err(
        source.kind === 'project'
          ? `heartbeat ${heartbeat.id} scans a project; this worker has no project resolver`
          : `unknown scanner set "${source.set}"`,
      ),
    );
  };
}
