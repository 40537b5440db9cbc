import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatWoterclipTimestamp, woterclipLockCodec } from './woterclip-lock-codec.js';

const owner = fc.string({ minLength: 1, maxLength: 40 });
const epochMs = fc.integer({ min: 0, max: 4_102_444_800_000 });

describe('woterclipLockCodec', () => {
  it('round-trips owner and whole seconds, and writes started_at in the reference format', () => {
    fc.assert(
      fc.property(owner, epochMs, (who, at) => {
        const text = woterclipLockCodec.encode({ owner: who, acquiredAtMs: at });
        const raw = JSON.parse(text) as { beat_id: string; started_at: string; started_epoch: number };
        expect(raw.beat_id).toBe(who);
        expect(raw.started_epoch).toBe(Math.floor(at / 1000));
        expect(raw.started_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
        expect(Date.parse(raw.started_at)).toBe(raw.started_epoch * 1000);
        expect(woterclipLockCodec.decode(text)._unsafeUnwrap()).toEqual({ owner: who, acquiredAtMs: raw.started_epoch * 1000 });
      }),
    );
  });

  it('formats the timestamp without milliseconds', () => {
    expect(formatWoterclipTimestamp(Date.UTC(2026, 6, 22, 10, 3, 0, 999))).toBe('2026-07-22T10:03:00Z');
  });

  it('rejects malformed lockfiles with a reason, never throws', () => {
    expect(woterclipLockCodec.decode('')._unsafeUnwrapErr()).toContain('not valid JSON');
    expect(woterclipLockCodec.decode('{"beat_id": "x"}')._unsafeUnwrapErr()).toContain('started_epoch');
    expect(woterclipLockCodec.decode('{"beat_id": "", "started_epoch": 1}')._unsafeUnwrapErr()).toContain('beat_id');
    expect(woterclipLockCodec.decode('{"beat_id": "x", "started_epoch": -5}').isErr()).toBe(true);
    expect(woterclipLockCodec.decode('[1,2]').isErr()).toBe(true);
    fc.assert(
      fc.property(fc.string(), (text) => {
        woterclipLockCodec.decode(text);
      }),
    );
  });
});
