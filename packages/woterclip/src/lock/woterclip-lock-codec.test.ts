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

  it("round-trips the holder's host, pid and start time after the spec's three keys, which stay first", () => {
    const identity = fc.record(
      {
        host: fc.string({ minLength: 1, maxLength: 40 }),
        pid: fc.integer({ min: 1, max: 2 ** 31 }),
        processStart: fc.stringMatching(/^\d{1,20}$/),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(owner, epochMs, identity, (who, at, id) => {
        const text = woterclipLockCodec.encode({ owner: who, acquiredAtMs: at, ...id });
        expect(Object.keys(JSON.parse(text) as object).slice(0, 3)).toEqual(['beat_id', 'started_at', 'started_epoch']);
        expect(woterclipLockCodec.decode(text)._unsafeUnwrap()).toEqual({ owner: who, acquiredAtMs: Math.floor(at / 1000) * 1000, ...id });
      }),
    );
    expect(
      woterclipLockCodec.encode({
        owner: '1784500980-4821',
        acquiredAtMs: 1_784_500_980_000,
        host: 'vm',
        pid: 4821,
        processStart: '157731',
      }),
    ).toBe(
      '{"beat_id": "1784500980-4821", "started_at": "2026-07-19T22:43:00Z", "started_epoch": 1784500980, "host": "vm", "pid": 4821, "process_start": "157731"}\n',
    );
  });

  it('reads a lock without identity (older versions, WoterClip itself) as one the age decides, and drops malformed identity fields', () => {
    const spec = '{"beat_id": "1784500980-4821", "started_at": "2026-07-22T10:03:00Z", "started_epoch": 1784500980}';
    expect(woterclipLockCodec.decode(spec)._unsafeUnwrap()).toEqual({ owner: '1784500980-4821', acquiredAtMs: 1_784_500_980_000 });
    const odd = '{"beat_id": "b", "started_epoch": 1, "host": "", "pid": -3, "process_start": 7}';
    expect(woterclipLockCodec.decode(odd)._unsafeUnwrap()).toEqual({ owner: 'b', acquiredAtMs: 1000 });
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), fc.jsonValue(), (host, pid, start) => {
        const decoded = woterclipLockCodec.decode(JSON.stringify({ beat_id: 'b', started_epoch: 1, host, pid, process_start: start }));
        expect(decoded.isOk()).toBe(true);
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
