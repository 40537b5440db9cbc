import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AcquireRequest, LockRecord } from '../ports/lock-store.js';
import { decideAcquire, decideRelease, isLockStale, lockRecordSchema, ownsLock, parseLockRecord } from './lock-decisions.js';

const owner = fc.string({ minLength: 1, maxLength: 20 });
const ms = fc.integer({ min: 0, max: 4_000_000_000_000 });
const record: fc.Arbitrary<LockRecord> = fc.record({ owner, acquiredAtMs: ms });
const request: fc.Arbitrary<AcquireRequest> = fc.record({ owner, nowMs: ms, staleAfterMs: fc.integer({ min: 0, max: 86_400_000 }) });

describe('decideAcquire', () => {
  it('acquires a free lock whatever the request', () => {
    fc.assert(fc.property(request, (req) => decideAcquire(undefined, req) === 'acquire'));
  });

  it('takes over exactly when the holder is at least staleAfterMs old', () => {
    fc.assert(
      fc.property(record, request, (held, req) => {
        const age = req.nowMs - held.acquiredAtMs;
        const expected = age >= 0 && age >= req.staleAfterMs ? 'take-over' : 'conflict';
        expect(decideAcquire(held, req)).toBe(expected);
      }),
    );
  });

  it('a dead holder is stale at once and a live one never, whatever the age; unknown falls back to age', () => {
    fc.assert(
      fc.property(record, request, (held, req) => {
        expect(decideAcquire(held, req, 'dead')).toBe('take-over');
        expect(decideAcquire(held, req, 'alive')).toBe('conflict');
        expect(decideAcquire(held, req, 'unknown')).toBe(decideAcquire(held, req));
      }),
    );
  });

  it('never takes over a record from the future, even with staleAfterMs 0', () => {
    fc.assert(
      fc.property(record, owner, fc.integer({ min: 1, max: 1_000_000 }), (held, who, ahead) => {
        expect(decideAcquire(held, { owner: who, nowMs: held.acquiredAtMs - ahead, staleAfterMs: 0 })).toBe('conflict');
      }),
    );
  });

  it('is monotonic in time: once stale, a later instant is stale too', () => {
    fc.assert(
      fc.property(record, request, fc.integer({ min: 0, max: 1_000_000 }), (held, req, later) => {
        fc.pre(decideAcquire(held, req) === 'take-over');
        expect(decideAcquire(held, { ...req, nowMs: req.nowMs + later })).toBe('take-over');
      }),
    );
  });

  it('is not re-entrant: the owner of a live lock gets conflict', () => {
    expect(decideAcquire({ owner: 'a', acquiredAtMs: 1000 }, { owner: 'a', nowMs: 1500, staleAfterMs: 1000 })).toBe('conflict');
  });

  it('treats the boundary as stale (age === staleAfterMs)', () => {
    const held = { owner: 'a', acquiredAtMs: 1000 };
    expect(decideAcquire(held, { owner: 'b', nowMs: 1999, staleAfterMs: 1000 })).toBe('conflict');
    expect(decideAcquire(held, { owner: 'b', nowMs: 2000, staleAfterMs: 1000 })).toBe('take-over');
  });

  it('never calls a lock stale on non-finite clocks', () => {
    const held = { owner: 'a', acquiredAtMs: 1000 };
    expect(isLockStale(held, Number.NaN, 0)).toBe(false);
    expect(isLockStale(held, Number.POSITIVE_INFINITY, 0)).toBe(false);
    expect(isLockStale(held, 5000, Number.NaN)).toBe(false);
    expect(isLockStale({ owner: 'a', acquiredAtMs: Number.NaN }, 5000, 0)).toBe(false);
  });
});

describe('decideRelease and ownsLock', () => {
  it('releases only for the owner, and agrees with ownsLock', () => {
    fc.assert(
      fc.property(fc.option(record, { nil: undefined }), owner, (held, who) => {
        const decision = decideRelease(held, who);
        if (held === undefined) expect(decision).toBe('absent');
        else expect(decision).toBe(held.owner === who ? 'release' : 'not-owner');
        expect(ownsLock(held, who)).toBe(decision === 'release');
      }),
    );
  });

  it('the owner of a record always owns it', () => {
    fc.assert(fc.property(record, (held) => ownsLock(held, held.owner) && decideRelease(held, held.owner) === 'release'));
  });
});

describe('lock record schema', () => {
  it('round-trips every valid record through JSON', () => {
    fc.assert(
      fc.property(record, fc.option(fc.nat(), { nil: undefined }), (held, fence) => {
        const withFence: LockRecord = fence === undefined ? held : { ...held, fence };
        const parsed = parseLockRecord(JSON.parse(JSON.stringify(withFence)));
        expect(parsed._unsafeUnwrap()).toEqual(withFence);
      }),
    );
  });

  it('rejects malformed records with a message naming the key', () => {
    const missing = parseLockRecord({ owner: 'a' });
    expect(missing._unsafeUnwrapErr()).toContain('acquiredAtMs');
    expect(parseLockRecord({ owner: '', acquiredAtMs: 1 })._unsafeUnwrapErr()).toContain('owner');
    expect(parseLockRecord({ owner: 'a', acquiredAtMs: -1 }).isErr()).toBe(true);
    expect(parseLockRecord({ owner: 'a', acquiredAtMs: 1.5 }).isErr()).toBe(true);
    expect(parseLockRecord({ owner: 'a', acquiredAtMs: 1, extra: true })._unsafeUnwrapErr()).toMatch(/extra|unrecognized/i);
    expect(parseLockRecord(null).isErr()).toBe(true);
    expect(parseLockRecord('{"owner":"a"}').isErr()).toBe(true);
  });

  it('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        parseLockRecord(value);
      }),
    );
    expect(lockRecordSchema.safeParse({ owner: 'x', acquiredAtMs: 0 }).success).toBe(true);
  });
});
