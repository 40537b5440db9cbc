import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LIVE_TICK_STATES, tickChainBroken, unscheduledHeartbeats } from './tick-chains.js';

const states = fc.constantFrom(...LIVE_TICK_STATES, 'unknown', 'completed', 'failed');

describe('tickChainBroken', () => {
  it('is broken exactly when the next tick is over one interval late and no live job carries it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 40 }),
        fc.integer({ min: 250, max: 86_400_000 }),
        fc.integer({ min: -86_400_000, max: 3 * 86_400_000 }),
        states,
        (nextMs, intervalMs, lateMs, jobState) => {
          const broken = tickChainBroken({ nextMs, intervalMs, jobState }, nextMs + lateMs);
          expect(broken).toBe(lateMs > intervalMs && !LIVE_TICK_STATES.includes(jobState));
        },
      ),
    );
  });

  it('leaves a backlog alone: a tick waiting for a busy worker is late, not lost', () => {
    expect(tickChainBroken({ nextMs: 0, intervalMs: 1000, jobState: 'waiting' }, 60_000)).toBe(false);
    expect(tickChainBroken({ nextMs: 0, intervalMs: 1000, jobState: 'delayed' }, 60_000)).toBe(false);
  });

  it('restarts a chain whose tick job is gone or finished without scheduling the next', () => {
    expect(tickChainBroken({ nextMs: 0, intervalMs: 1000, jobState: 'unknown' }, 1001)).toBe(true);
    expect(tickChainBroken({ nextMs: 0, intervalMs: 1000, jobState: 'failed' }, 1001)).toBe(true);
    expect(tickChainBroken({ nextMs: 0, intervalMs: 1000, jobState: 'unknown' }, 1000)).toBe(false);
  });
});

describe('unscheduledHeartbeats', () => {
  it('lists the registered ids without a scheduler, in order, and nothing else', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string()), fc.array(fc.string()), (registered, scheduled) => {
        const set = new Set(scheduled);
        const missing = unscheduledHeartbeats(registered, set);
        // Each registered id is named exactly when it has no scheduler, in the registry's order.
        for (const id of registered) expect(missing.includes(id)).toBe(!set.has(id));
        expect(missing.every((id) => registered.includes(id))).toBe(true);
        expect(missing.map((id) => registered.indexOf(id))).toEqual([...missing.map((id) => registered.indexOf(id))].sort((a, b) => a - b));
      }),
    );
  });
});
