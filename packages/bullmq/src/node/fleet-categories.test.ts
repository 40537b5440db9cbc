import {
  DEFAULT_HEARTBEAT_CONFIG,
  defineCategories,
  type HeartbeatConfig,
  OPEN_CATEGORIES,
  type Scanner,
  scanOk,
} from '@heartbeat-kit/core';
import { ok, okAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { useRedis } from '../../test/support/redis-server.js';
import { decodeFleetState } from '../fleet/fleet-state.js';
import { fleetKeys } from './fleet-keys.js';
import { createFleetScheduler } from './fleet-scheduler.js';
import { createFleetWorker, type FleetDelivery, type FleetEvent } from './fleet-worker.js';

const redis = useRedis();

/** Polls until `predicate` holds, however long a loaded machine takes (the test timeout is the backstop). */
const waitFor = async (predicate: () => boolean): Promise<void> => {
  while (!predicate()) await new Promise((resolve) => setTimeout(resolve, 50));
};

/** Active hours that exclude the present: one hour, twelve hours from now (UTC, every day). */
const outsideHoursConfig = (): HeartbeatConfig => {
  const start = (new Date().getUTCHours() + 12) % 24;
  const hh = (hour: number): string => `${String(hour).padStart(2, '0')}:00`;
  return {
    ...DEFAULT_HEARTBEAT_CONFIG,
    activeHours: { ...DEFAULT_HEARTBEAT_CONFIG.activeHours, start: hh(start), end: hh((start + 1) % 24), weekend: true },
  };
};

describe('fleet worker: an embedder’s category table', () => {
  it('a custom category is confirmed, ranked and let through outside active hours as the heartbeat’s table says', async () => {
    const categories = defineCategories(
      { QUEUE_RISING: { priority: 'Immediate', outsideActiveHours: true, confirmCycles: 2, brief: 'queue depth rising' } },
      { extend: OPEN_CATEGORIES },
    );
    const rising: Scanner = {
      name: 'queue-depth',
      runsOutsideActiveHours: true,
      scan: () =>
        Promise.resolve(
          scanOk('queue-depth', {
            findings: [
              categories.createFinding({
                category: 'QUEUE_RISING',
                subject: 'jobs',
                line: 'QUEUE RISING: jobs (3 cycles)',
                action: 'Add a worker to jobs',
                short: 'jobs rising',
              }),
            ],
          }),
        ),
    };
    const prefix = 'categories';
    const scheduler = createFleetScheduler({ target: redis.target, prefix });
    const delivered: FleetDelivery[] = [];
    const events: FleetEvent[] = [];
    const worker = createFleetWorker({
      target: redis.target,
      prefix,
      resolve: () => Promise.resolve(ok({ scanners: [rising], config: outsideHoursConfig(), timeZone: 'UTC', categories })),
      sink: { deliver: (d) => (delivered.push(d), okAsync(undefined)) },
      onEvent: (e) => events.push(e),
    });
    (await scheduler.add({ id: 'queues', intervalMs: 300, source: { kind: 'scanners', set: 'fake' } }))._unsafeUnwrap();
    const cycles = () => events.filter((e): e is Extract<FleetEvent, { type: 'cycle' }> => e.type === 'cycle');
    // Four cycles, and every report they queued delivered (none at all under the default table).
    await waitFor(
      () => cycles().length >= 4 && events.filter((e) => e.type === 'delivered').length >= cycles().filter((c) => c.report).length,
    );
    await worker.close();
    await scheduler.close();

    // Outside active hours, after its two confirming cycles, once (dedup keeps the repeats quiet).
    expect(delivered.map((d) => d.cycle)).toEqual([2]);
    expect(delivered[0]!.message.content).toContain('QUEUE RISING: jobs');
    expect(cycles().map((c) => c.report)).toEqual([
      false,
      true,
      ...cycles()
        .slice(2)
        .map(() => false),
    ]);
    expect(cycles().every((c) => c.warnings === undefined)).toBe(true);
    const state = decodeFleetState(JSON.parse((await redis.client.get(fleetKeys(prefix).state('queues'))) ?? 'null') as never).state;
    expect(state.heartbeat.reportsSent).toBe(1);
  });
});
