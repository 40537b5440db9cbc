import type { LockRecord } from '@heartbeat-kit/core';
import type { HolderLiveness } from '@heartbeat-kit/core/host';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { heldReason, lockView, renderLockView, takeOverReason } from './lock-holder.js';

const T = Date.parse('2026-07-22T10:00:00Z');
const HOUR = 3_600_000;
const record: fc.Arbitrary<LockRecord> = fc.record(
  {
    owner: fc.string({ minLength: 1, maxLength: 60 }),
    acquiredAtMs: fc.integer({ min: 0, max: 4_000_000_000 }).map((s) => s * 1000),
    pid: fc.integer({ min: 1, max: 2 ** 31 }),
    host: fc.string({ minLength: 1, maxLength: 60 }),
  },
  { requiredKeys: ['owner', 'acquiredAtMs'] },
);
const liveness = fc.constantFrom<HolderLiveness>('alive', 'dead', 'unknown');

describe('lockView / renderLockView (woterclip status)', () => {
  it('free, alive, dead, and by age', () => {
    expect(renderLockView(lockView(undefined, T, 4))).toBe('Lock: free.');
    const holder = { owner: '1784714400-4242', acquiredAtMs: T - HOUR, pid: 4242, host: 'vm' };
    expect(renderLockView(lockView({ holder, liveness: 'alive' }, T, 4))).toBe(
      'Lock: beat 1784714400-4242 (pid 4242 on host vm) since 2026-07-22T09:00:00Z; running on this host.',
    );
    expect(renderLockView(lockView({ holder, liveness: 'dead' }, T, 4))).toBe(
      'Lock: beat 1784714400-4242 (pid 4242 on host vm) since 2026-07-22T09:00:00Z; no longer running on this host: the next beat takes it over at once.',
    );
    expect(lockView({ holder, liveness: 'dead' }, T, 4)).toMatchObject({ held: true, holder: 'dead', takeOver: true, pid: 4242 });
    expect(renderLockView(lockView({ holder, liveness: 'unknown' }, T, 4))).toBe(
      'Lock: beat 1784714400-4242 (pid 4242 on host vm) since 2026-07-22T09:00:00Z; its process is on another host, so its age decides: stale at 2026-07-22T13:00:00Z (stale_lock_hours (4 h)).',
    );
    expect(renderLockView(lockView({ holder: { owner: 'b', acquiredAtMs: T - 5 * HOUR }, liveness: 'unknown' }, T, 4))).toBe(
      'Lock: beat b since 2026-07-22T05:00:00Z; older than stale_lock_hours (4 h): the next beat takes it over.',
    );
  });

  it('takeOver is exactly what a beat would do: dead at once, alive never, unknown by age', () => {
    fc.assert(
      fc.property(record, liveness, fc.integer({ min: 0, max: 48 * 3600 }), fc.integer({ min: 1, max: 72 }), (holder, l, ageS, hours) => {
        const view = lockView({ holder, liveness: l }, holder.acquiredAtMs + ageS * 1000, hours);
        expect(view.held && view.takeOver).toBe(l === 'dead' || (l === 'unknown' && ageS * 1000 >= hours * HOUR));
      }),
    );
  });

  it('every line is one printable line, whatever the lock file holds', () => {
    fc.assert(
      fc.property(record, liveness, (holder, l) => {
        for (const line of [
          renderLockView(lockView({ holder, liveness: l }, T, 4)),
          heldReason(holder, l, 4),
          takeOverReason(holder, T, 4),
        ]) {
          // eslint-disable-next-line no-control-regex
          expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
          expect(line.length).toBeLessThan(400);
        }
      }),
    );
  });
});

describe('takeOverReason (the line after "Cleaned stale lockfile.")', () => {
  it('a lock younger than stale_lock_hours was taken because its holder died; an older one, by age', () => {
    const replaced = { owner: '1784714400-4242', acquiredAtMs: T - 60_000, pid: 4242, host: 'vm' };
    expect(takeOverReason(replaced, T, 4)).toBe(
      'It was left by beat 1784714400-4242 (pid 4242 on host vm) at 2026-07-22T09:59:00Z, which no longer runs on this host: taken over at once.',
    );
    expect(takeOverReason({ owner: 'old', acquiredAtMs: T - 4 * HOUR }, T, 4)).toBe(
      'It was left by beat old at 2026-07-22T06:00:00Z, older than stale_lock_hours (4 h).',
    );
  });
});
