import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LockRecord } from '../ports/lock-store.js';
import { jsonLockCodec } from './lock-codecs.js';

const owner = fc.string({ minLength: 1, maxLength: 40 });
const epochMs = fc.integer({ min: 0, max: 4_102_444_800_000 });

describe('jsonLockCodec', () => {
  it('round-trips every record', () => {
    fc.assert(
      fc.property(owner, epochMs, fc.option(fc.nat(), { nil: undefined }), (who, at, fence) => {
        const record: LockRecord = fence === undefined ? { owner: who, acquiredAtMs: at } : { owner: who, acquiredAtMs: at, fence };
        expect(jsonLockCodec.decode(jsonLockCodec.encode(record))._unsafeUnwrap()).toEqual(record);
      }),
    );
  });

  it('rejects malformed lock files with a reason, never throws', () => {
    expect(jsonLockCodec.decode('')._unsafeUnwrapErr()).toContain('not valid JSON');
    expect(jsonLockCodec.decode('[1,2]').isErr()).toBe(true);
    fc.assert(
      fc.property(fc.string(), (text) => {
        jsonLockCodec.decode(text);
      }),
    );
  });
});
