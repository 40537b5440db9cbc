import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { err, ok } from 'neverthrow';
import { heldFifo } from '../../test/support/fifo.js';
import { jsonLockCodec, type LockCodec } from '../lock/lock-codecs.js';
import { createFileLockStore, takeoverGuardPath } from './file-lock-store.js';
import { currentProcessIdentity, processStartMark } from './process-liveness.js';

/** The pid of a process that has exited (and was reaped) — dead for sure. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '0']);
  return child.pid;
}

const T0 = 1_784_500_980_000;
const HOUR = 3_600_000;

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hb-core-lock-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('createFileLockStore', () => {
  it('writes and reads through a non-default codec, and returns the record a later read sees', async () => {
    // A codec that keeps whole seconds, in a format of its own (WoterClip's lives in @heartbeat-kit/woterclip).
    const secondsCodec: LockCodec = {
      encode: (record) => `${record.owner} ${Math.floor(record.acquiredAtMs / 1000)}\n`,
      decode: (text) => {
        const match = /^(\S+) (\d+)\n?$/.exec(text);
        return match?.[1] === undefined || match[2] === undefined
          ? err('not an owner and epoch')
          : ok({ owner: match[1], acquiredAtMs: Number(match[2]) * 1000 });
      },
    };
    const path = join(root, 'dir', 'lock');
    const store = createFileLockStore({ path, codec: secondsCodec });
    const acquired = (await store.acquire({ owner: 'beat-1', nowMs: T0 + 456, staleAfterMs: HOUR }))._unsafeUnwrap();
    expect(readFileSync(path, 'utf8')).toBe(`beat-1 ${T0 / 1000}\n`);
    // The record returned is what a later read sees: whole seconds.
    expect(acquired.record).toEqual({ owner: 'beat-1', acquiredAtMs: T0 });
    expect((await store.read())._unsafeUnwrap()).toEqual(acquired.record);
    writeFileSync(path, 'someone 1784500000');
    expect((await store.read())._unsafeUnwrap()).toEqual({ owner: 'someone', acquiredAtMs: 1_784_500_000_000 });
    expect((await store.release('beat-1'))._unsafeUnwrap()).toBe('not-owner');
    expect((await store.release('someone'))._unsafeUnwrap()).toBe('released');
  });

  it('reports a corrupt lock as corrupt, naming the file and the fix, and leaves it alone', async () => {
    const path = join(root, 'lock');
    writeFileSync(path, 'not json at all');
    const store = createFileLockStore({ path });
    const error = (await store.acquire({ owner: 'a', nowMs: T0, staleAfterMs: HOUR }))._unsafeUnwrapErr();
    expect(error.kind).toBe('corrupt');
    expect(error.kind === 'corrupt' && error.message).toContain(path);
    expect(error.kind === 'corrupt' && error.message).toContain('delete it');
    expect((await store.read())._unsafeUnwrapErr().kind).toBe('corrupt');
    expect((await store.release('a'))._unsafeUnwrapErr().kind).toBe('corrupt');
    expect(readFileSync(path, 'utf8')).toBe('not json at all');
  });

  it('waits out an in-flight take-over guard and then reports the lock held', async () => {
    const path = join(root, 'lock');
    const staleText = jsonLockCodec.encode({ owner: 'dead', acquiredAtMs: T0 });
    writeFileSync(path, staleText);
    // Another process is mid take-over (its guard is fresh).
    writeFileSync(takeoverGuardPath(path, staleText), jsonLockCodec.encode({ owner: 'other', acquiredAtMs: T0 + 2 * HOUR }));
    const error = (
      await createFileLockStore({ path }).acquire({ owner: 'me', nowMs: T0 + 2 * HOUR, staleAfterMs: HOUR })
    )._unsafeUnwrapErr();
    expect(error).toMatchObject({ kind: 'held', holder: { owner: 'dead' } });
    expect(readFileSync(path, 'utf8')).toBe(staleText);
  });

  it('breaks a guard abandoned by a crashed taker once it is older than the stale window', async () => {
    const path = join(root, 'lock');
    const staleText = jsonLockCodec.encode({ owner: 'dead', acquiredAtMs: T0 });
    writeFileSync(path, staleText);
    writeFileSync(takeoverGuardPath(path, staleText), jsonLockCodec.encode({ owner: 'crashed-taker', acquiredAtMs: T0 + HOUR }));
    const acquired = (
      await createFileLockStore({ path }).acquire({ owner: 'me', nowMs: T0 + 3 * HOUR, staleAfterMs: HOUR })
    )._unsafeUnwrap();
    expect(acquired.record.owner).toBe('me');
    expect(acquired.tookOverFrom?.owner).toBe('dead');
    expect(readdirSync(root)).toEqual(['lock']);
  });

  it('breaks at once a guard whose writer on this host is dead (a cycle SIGKILLed mid take-over)', async () => {
    const path = join(root, 'lock');
    const stale = { owner: 'killed-cycle', acquiredAtMs: T0, pid: deadPid(), host: hostname(), processStart: '1' };
    const staleText = jsonLockCodec.encode(stale);
    writeFileSync(path, staleText);
    // The taker was killed between creating its guard and removing the stale lock; the guard is fresh.
    const guard = { owner: 'killed-taker', acquiredAtMs: T0 + 1000, pid: deadPid(), host: hostname(), processStart: '1' };
    writeFileSync(takeoverGuardPath(path, staleText), jsonLockCodec.encode(guard));
    const acquired = (await createFileLockStore({ path }).acquire({ owner: 'me', nowMs: T0 + 2000, staleAfterMs: HOUR }))._unsafeUnwrap();
    expect(acquired.record.owner).toBe('me');
    expect(acquired.tookOverFrom?.owner).toBe('killed-cycle');
    expect(readdirSync(root)).toEqual(['lock']);
  });

  it('a fresh guard whose writer is alive on this host is respected (the lock stays held)', async () => {
    const path = join(root, 'lock');
    const staleText = jsonLockCodec.encode({
      owner: 'killed-cycle',
      acquiredAtMs: T0,
      pid: deadPid(),
      host: hostname(),
      processStart: '1',
    });
    writeFileSync(path, staleText);
    const me = await currentProcessIdentity();
    writeFileSync(takeoverGuardPath(path, staleText), jsonLockCodec.encode({ owner: 'live-taker', acquiredAtMs: T0 + 1000, ...me }));
    const error = (await createFileLockStore({ path }).acquire({ owner: 'me', nowMs: T0 + 2000, staleAfterMs: HOUR }))._unsafeUnwrapErr();
    expect(error.kind).toBe('held');
    expect(readFileSync(path, 'utf8')).toBe(staleText);
  });

  it('breaks an abandoned guard through its own guard, and respects a live one there', async () => {
    const path = join(root, 'lock');
    const staleText = jsonLockCodec.encode({ owner: 'dead', acquiredAtMs: T0 });
    writeFileSync(path, staleText);
    const guard = takeoverGuardPath(path, staleText);
    const guardText = jsonLockCodec.encode({ owner: 'crashed-taker', acquiredAtMs: T0 + HOUR });
    writeFileSync(guard, guardText);
    // Someone is breaking that abandoned guard right now: its guard-of-guard is fresh.
    const guardOfGuard = takeoverGuardPath(guard, guardText);
    writeFileSync(guardOfGuard, jsonLockCodec.encode({ owner: 'breaker', acquiredAtMs: T0 + 3 * HOUR }));
    const store = createFileLockStore({ path });
    expect((await store.acquire({ owner: 'me', nowMs: T0 + 3 * HOUR, staleAfterMs: HOUR }))._unsafeUnwrapErr().kind).toBe('held');
    expect(readFileSync(path, 'utf8')).toBe(staleText);
    // The breaker crashed too: once its guard is old as well, both levels are broken in order.
    const acquired = (await store.acquire({ owner: 'me', nowMs: T0 + 5 * HOUR, staleAfterMs: HOUR }))._unsafeUnwrap();
    expect(acquired.record.owner).toBe('me');
    expect(readdirSync(root)).toEqual(['lock']);
  });

  it('a live owner releasing during a take-over attempt is reported as superseded, not released', async () => {
    const path = join(root, 'lock');
    const text = jsonLockCodec.encode({ owner: 'me', acquiredAtMs: T0 });
    writeFileSync(path, text);
    writeFileSync(takeoverGuardPath(path, text), jsonLockCodec.encode({ owner: 'taker', acquiredAtMs: Date.now() }));
    expect((await createFileLockStore({ path }).release('me'))._unsafeUnwrap()).toBe('not-owner');
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('an owner string is data, never a path: odd owners round-trip', async () => {
    const path = join(root, 'lock');
    const store = createFileLockStore({ path });
    const owner = '../../etc/passwd\n"; rm -rf / #';
    (await store.acquire({ owner, nowMs: T0, staleAfterMs: HOUR }))._unsafeUnwrap();
    expect((await store.read())._unsafeUnwrap()?.owner).toBe(owner);
    expect((await store.release(owner))._unsafeUnwrap()).toBe('released');
    expect(readdirSync(root)).toEqual([]);
  });

  it('reports an unusable directory as an io error', async () => {
    const blocker = join(root, 'file');
    writeFileSync(blocker, '');
    const error = (
      await createFileLockStore({ path: join(blocker, 'lock') }).acquire({ owner: 'a', nowMs: T0, staleAfterMs: HOUR })
    )._unsafeUnwrapErr();
    expect(error.kind).toBe('io');
  });

  it('records pid, host and start mark, and reads them back', async () => {
    const path = join(root, 'lock');
    const acquired = (await createFileLockStore({ path }).acquire({ owner: 'me', nowMs: T0, staleAfterMs: HOUR }))._unsafeUnwrap();
    const me = await currentProcessIdentity();
    expect(acquired.record).toMatchObject({ owner: 'me', pid: process.pid, host: hostname() });
    expect(me.processStart).toBe(await processStartMark(process.pid));
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname(), processStart: me.processStart });
  });

  it('takes over a fresh lock at once when its holder on this host is dead, and says whom it replaced', async () => {
    const path = join(root, 'lock');
    const pid = deadPid();
    writeFileSync(path, jsonLockCodec.encode({ owner: 'killed-cycle', acquiredAtMs: T0, pid, host: hostname(), processStart: '1' }));
    const acquired = (await createFileLockStore({ path }).acquire({ owner: 'me', nowMs: T0 + 1000, staleAfterMs: HOUR }))._unsafeUnwrap();
    expect(acquired.record.owner).toBe('me');
    expect(acquired.tookOverFrom).toMatchObject({ owner: 'killed-cycle', pid });
    expect(readdirSync(root)).toEqual(['lock']);
  });

  it('sweeps the temps of the lock and of its take-over guards left by killed writers, and nothing else', async () => {
    const path = join(root, 'lock');
    const dead = deadPid();
    const guard = 'lock.takeover-0123456789abcdef';
    const orphans = [`.lock.new-${dead}-a`, `.${guard}.new-${dead}-b`, `.${guard}.takeover-fedcba9876543210.new-${dead}-c`];
    // A live writer's temps (mid-write right now), another file's temps, a name that only looks like a guard.
    const kept = [
      `.lock.new-${process.ppid}-d`,
      `.${guard}.new-${process.ppid}-e`,
      `.other.new-${dead}-f`,
      `.lock.takeover-zz.new-${dead}-g`,
    ];
    for (const name of [...orphans, ...kept]) writeFileSync(join(root, name), '{}');
    const acquired = (await createFileLockStore({ path }).acquire({ owner: 'me', nowMs: T0, staleAfterMs: HOUR }))._unsafeUnwrap();
    expect(acquired.record.owner).toBe('me');
    expect(readdirSync(root).sort()).toEqual(['lock', ...kept].sort());
  });

  it('a recycled pid (same pid, other start mark) is a dead holder', async () => {
    const path = join(root, 'lock');
    writeFileSync(
      path,
      jsonLockCodec.encode({ owner: 'old', acquiredAtMs: T0, pid: process.pid, host: hostname(), processStart: 'not-this-process' }),
    );
    const acquired = (
      await createFileLockStore({ path, identity: { pid: 999_999, host: hostname() } }).acquire({
        owner: 'me',
        nowMs: T0 + 1000,
        staleAfterMs: HOUR,
      })
    )._unsafeUnwrap();
    expect(acquired.tookOverFrom?.owner).toBe('old');
  });

  it('never takes over from a live holder on this host, however old its lock', async () => {
    const path = join(root, 'lock');
    const me = await currentProcessIdentity();
    writeFileSync(path, jsonLockCodec.encode({ owner: 'slow-cycle', acquiredAtMs: T0, ...me }));
    const error = (
      await createFileLockStore({ path }).acquire({ owner: 'me', nowMs: T0 + 5 * HOUR, staleAfterMs: HOUR })
    )._unsafeUnwrapErr();
    expect(error).toMatchObject({ kind: 'held', holder: { owner: 'slow-cycle', pid: process.pid }, liveness: 'alive' });
  });

  // Issue 25 item 6: a FIFO at the lock blocked its read forever; a link was read wherever it pointed.
  it('a FIFO or a link at the lock is refused as an io error naming it, never read', async () => {
    const path = join(root, 'lock');
    heldFifo(path);
    const error = (await createFileLockStore({ path }).acquire({ owner: 'me', nowMs: T0, staleAfterMs: HOUR }))._unsafeUnwrapErr();
    expect(error).toEqual({
      kind: 'io',
      message: `Lock file ${path} is a FIFO (named pipe), not a regular file; reading or writing one can block forever. Fix: move it away or replace it with a regular file.`,
    });
    rmSync(path);
    const secret = join(root, 'secret');
    writeFileSync(secret, 'root:x:0:0');
    symlinkSync(secret, path);
    const read = (await createFileLockStore({ path }).read())._unsafeUnwrapErr();
    expect(read).toMatchObject({ kind: 'io', message: expect.stringContaining(`Lock file ${path} is a symbolic link`) as unknown });
    expect(JSON.stringify(read)).not.toContain('root:');
  });

  it("judges another host's lock by its age only", async () => {
    const path = join(root, 'lock');
    writeFileSync(path, jsonLockCodec.encode({ owner: 'remote', acquiredAtMs: T0, pid: deadPid(), host: 'other-host.invalid' }));
    const store = createFileLockStore({ path });
    expect((await store.acquire({ owner: 'me', nowMs: T0 + HOUR - 1, staleAfterMs: HOUR }))._unsafeUnwrapErr()).toMatchObject({
      kind: 'held',
      liveness: 'unknown',
    });
    expect((await store.acquire({ owner: 'me', nowMs: T0 + HOUR, staleAfterMs: HOUR }))._unsafeUnwrap().tookOverFrom?.owner).toBe('remote');
  });
});
