import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createFileLockStore, currentProcessIdentity, processStartMark } from '@heartbeat-kit/core/node';
import { afterAll, describe, expect, it } from 'vitest';
import { woterclipLockCodec } from '../src/index.js';
import { lockStoreContract } from '@heartbeat-kit/core/testing';

const T0 = 1_784_500_980_000;
const HOUR = 3_600_000;

const root = mkdtempSync(join(tmpdir(), 'woterclip-lock-codec-'));
let counter = 0;
const fresh = (name: string): string => join(root, `case-${(counter += 1)}`, name);
afterAll(() => rmSync(root, { recursive: true, force: true }));

// The contract's racers all run in this process: without an identity (or with another host's) the
// lock's age decides, which is what the contract describes.
await lockStoreContract('file (WoterClip codec)', () =>
  createFileLockStore({ path: fresh('.heartbeat-lock'), codec: woterclipLockCodec, identity: false }),
);
await lockStoreContract('file (WoterClip codec, identity of another host)', () =>
  createFileLockStore({ path: fresh('.heartbeat-lock'), codec: woterclipLockCodec, identity: { pid: 1, host: 'elsewhere.invalid' } }),
);

/** The pid of a process that has exited and was reaped: dead for sure. */
const deadPid = (): number => spawnSync(process.execPath, ['-e', '0']).pid;
const lockAt = (path: string, fields: object): void => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(
    path,
    `${JSON.stringify({ beat_id: '1784500980-4821', started_at: '2026-07-19T22:43:00Z', started_epoch: T0 / 1000, ...fields })}\n`,
  );
};

describe('core file lock store with the WoterClip codec', () => {
  it("writes WoterClip's lockfile format and reads one WoterClip wrote", async () => {
    const path = join(fresh('.woterclip'), '.heartbeat-lock');
    const store = createFileLockStore({ path, codec: woterclipLockCodec, identity: false });
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

// Issue 25 item 2: a beat SIGKILLed mid-dispatch left its lock, and every later beat skipped for
// stale_lock_hours (4 h). The lock now names its holder's host, pid and start time.
describe('WoterClip lock: a dead holder on this host is stale at once, a live one never', () => {
  const store = (path: string) => createFileLockStore({ path, codec: woterclipLockCodec });
  const take = (path: string, nowMs: number) => store(path).acquire({ owner: 'next-beat', nowMs, staleAfterMs: 4 * HOUR });

  it("records this process's host, pid and start time after the spec's keys", async () => {
    const path = fresh('.heartbeat-lock');
    (await store(path).acquire({ owner: '1784500980-4821', nowMs: T0, staleAfterMs: HOUR }))._unsafeUnwrap();
    const me = await currentProcessIdentity();
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
      beat_id: '1784500980-4821',
      started_at: '2026-07-19T22:43:00Z',
      started_epoch: T0 / 1000,
      host: hostname(),
      pid: process.pid,
      process_start: me.processStart,
    });
  });

  it('a fresh lock whose holder on this host is dead is taken over at once', async () => {
    const path = fresh('.heartbeat-lock');
    const pid = deadPid();
    lockAt(path, { host: hostname(), pid, process_start: '1' });
    const taken = (await take(path, T0 + 1000))._unsafeUnwrap();
    expect(taken.tookOverFrom).toMatchObject({ owner: '1784500980-4821', pid, host: hostname() });
  });

  it('a reused pid (this live process, another start time) is a dead holder: taken over at once', async () => {
    const path = fresh('.heartbeat-lock');
    const mine = await processStartMark(process.pid);
    lockAt(path, { host: hostname(), pid: process.pid, process_start: `${mine}0` });
    expect((await take(path, T0 + 1000))._unsafeUnwrap().tookOverFrom?.pid).toBe(process.pid);
  });

  it('a live holder (a real running process, its pid and start time) blocks, however old the lock', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
    try {
      const pid = child.pid!;
      let start: string | undefined;
      while ((start = await processStartMark(pid)) === undefined) await new Promise((resolve) => setImmediate(resolve));
      const path = fresh('.heartbeat-lock');
      lockAt(path, { host: hostname(), pid, process_start: start });
      const refused = (await take(path, T0 + 48 * HOUR))._unsafeUnwrapErr();
      expect(refused).toMatchObject({ kind: 'held', holder: { pid }, liveness: 'alive' });
    } finally {
      child.kill('SIGKILL');
    }
  });

  it("another host's lock, and a lock without identity (older versions, WoterClip itself), are judged by age", async () => {
    for (const fields of [{ host: 'other-host.invalid', pid: deadPid(), process_start: '1' }, {}]) {
      const path = fresh('.heartbeat-lock');
      lockAt(path, fields);
      expect((await take(path, T0 + 4 * HOUR - 1000))._unsafeUnwrapErr()).toMatchObject({ kind: 'held', liveness: 'unknown' });
      expect((await take(path, T0 + 4 * HOUR))._unsafeUnwrap().tookOverFrom?.owner).toBe('1784500980-4821');
    }
  });
});
