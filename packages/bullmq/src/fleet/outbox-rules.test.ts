import { DEFAULT_HEARTBEAT_CONFIG } from '@heartbeat-kit/core';
import type { SinkAttempt } from '@heartbeat-kit/core/host';
import { describe, expect, it } from 'vitest';
import type { FleetMeta } from './fleet-state.js';
import {
  breakerCycle,
  CAPPED_BACKOFF,
  OUTBOX_RETRY_MS,
  outboxBackoffMs,
  stepSinkBreaker,
  type OutboxBreakerSettings,
} from './outbox-rules.js';
import { tickDueMs } from './slots.js';

const breaker: OutboxBreakerSettings = {
  settings: { ...DEFAULT_HEARTBEAT_CONFIG.breaker, after: 3 },
  timeZone: 'UTC',
  intervalMs: 60_000,
};
const failed: SinkAttempt = { kind: 'failed', code: 'HTTP 503', message: 'webhook answered 503' };
const meta = (lastCycle: number, rest: Partial<FleetMeta> = {}): FleetMeta => ({ delivered: [], pending: [], lastCycle, ...rest });
const step = (fleet: FleetMeta, attempt: SinkAttempt, messageCycle = 1) =>
  stepSinkBreaker(fleet, { messageCycle, breaker, attempt, sinkName: 'webhook', now: new Date('2026-02-19T10:00:00Z') });

describe('outbox rules', () => {
  it('backs off doubling from 500 ms up to the heartbeat interval (at least a second); other jobs retry after 500 ms', () => {
    expect([1, 2, 3, 4].map((n) => outboxBackoffMs(n, CAPPED_BACKOFF, 60_000))).toEqual([500, 1000, 2000, 4000]);
    expect(outboxBackoffMs(40, CAPPED_BACKOFF, 60_000)).toBe(60_000);
    expect(outboxBackoffMs(40, CAPPED_BACKOFF, undefined)).toBe(60_000);
    expect(outboxBackoffMs(40, CAPPED_BACKOFF, 300)).toBe(1000);
    expect(outboxBackoffMs(7, 'fixed', 60_000)).toBe(OUTBOX_RETRY_MS);
  });

  it('counts a sink failure once per heartbeat cycle, trips once with the advisory, and a delivery recovers it', () => {
    let fleet = meta(1);
    const notes = [];
    for (let cycle = 1; cycle <= 4; cycle += 1) {
      fleet = { ...fleet, lastCycle: cycle };
      // Outbox retries within one cycle are the same try.
      for (let retry = 0; retry < 3; retry += 1) {
        const stepped = step(fleet, failed);
        if (retry > 0) expect(stepped.fleet).toBe(fleet);
        fleet = stepped.fleet;
        notes.push(...stepped.notes);
      }
    }
    expect(notes.map((n) => [n.kind, n.cycle])).toEqual([['tripped', 3]]);
    expect(notes[0]!.advisory?.line).toContain('webhook');
    expect(fleet.sinkBreaker?.triedCycle).toBe(4);
    const recovered = step({ ...fleet, lastCycle: 5 }, { kind: 'delivered' });
    expect(recovered.notes.map((n) => n.kind)).toEqual(['recovered']);
    expect(recovered.fleet.sinkBreaker).toBeUndefined();
  });

  it('counts in the latest committed cycle, never one older than the message', () => {
    expect(breakerCycle(meta(7), 3)).toBe(7);
    expect(breakerCycle(meta(2), 3)).toBe(3);
    expect(breakerCycle({ delivered: [], pending: [] }, 3)).toBe(3);
  });

  it('reads a tick’s due time from its scheduler job id, else creation time plus delay', () => {
    expect(tickDueMs({ id: 'repeat:hb-alpha:1771495200000', timestamp: 5, delay: 10 })).toBe(1771495200000);
    expect(tickDueMs({ id: 'repeat:hb-alpha:not-a-number', timestamp: 5, delay: 10 })).toBe(15);
    expect(tickDueMs({ id: 'manual:42', timestamp: 5, delay: 10 })).toBe(15);
    expect(tickDueMs({ id: undefined, timestamp: 5, delay: undefined })).toBe(5);
  });
});
