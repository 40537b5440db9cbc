import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileLockStore } from '@heartbeat-kit/core/node';
import { afterAll, describe, expect, it } from 'vitest';
import { lockStoreContract } from '../../core/test/contract/lock-store-contract.js';
import { woterclipLockCodec } from '../src/index.js';

const T0 = 1_784_500_980_000;
const HOUR = 3_600_000;

const root = mkdtempSync(join(tmpdir(), 'woterclip-lock-codec-'));
let counter = 0;
const fresh = (name: string): string => join(root, `case-${(counter += 1)}`, name);
afterAll(() => rmSync(root, { recursive: true, force: true }));

lockStoreContract('file (WoterClip codec)', () => createFileLockStore({ path: fresh('.heartbeat-lock'), codec: woterclipLockCodec }));

describe('core file lock store with the WoterClip codec', () => {
  it("writes WoterClip's lockfile format and reads one WoterClip wrote", async () => {
    const path = join(fresh('.woterclip'), '.heartbeat-lock');
    const store = createFileLockStore({ path, codec: woterclipLockCodec });
    const acquired = (await store.acquire({ owner: '1784500980-4821', nowMs: T0 + 456, staleAfterMs: HOUR }))._unsafeUnwrap();
    // (The reference's sample pairs this epoch with 2026-07-22T10:03:00Z, which is not the same
    // instant; the epoch is the beat clock, so started_at is derived from it.)
    expect(readFileSync(path, 'utf8')).toBe(
      '{"beat_id": "1784500980-4821", "started_at": "2026-07-19T22:43:00Z", "started_epoch": 1784500980}\n',
    );
    // The record returned is what a later read sees: whole seconds.
    expect(acquired.record).toEqual({ owner: '1784500980-4821', acquiredAtMs: T0 });
    expect((await store.read())._unsafeUnwrap()).toEqual(acquired.record);

    // The reference's sample, verbatim: started_epoch wins over started_at.
    writeFileSync(path, '{"beat_id": "1784500980-4821", "started_at": "2026-07-22T10:03:00Z", "started_epoch": 1784500980}');
    expect((await store.read())._unsafeUnwrap()).toEqual({ owner: '1784500980-4821', acquiredAtMs: 1_784_500_980_000 });
    expect((await store.release('someone-else'))._unsafeUnwrap()).toBe('not-owner');
    expect((await store.release('1784500980-4821'))._unsafeUnwrap()).toBe('released');
  });
});
