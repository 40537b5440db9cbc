/**
 * A full disk must not strand the cycle lock: release creates no file. `open` for writing is
 * made to fail with ENOSPC once the lock is held, the way a full file system answers.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type * as FsPromises from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const disk = vi.hoisted(() => ({ full: false }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof FsPromises>();
  return {
    ...actual,
    open: (async (path: Parameters<typeof actual.open>[0], flags?: string | number, mode?: number) => {
      if (disk.full && typeof flags === 'string' && /[wa]/.test(flags))
        throw Object.assign(new Error(`ENOSPC: no space left on device, open '${String(path)}'`), { code: 'ENOSPC' });
      return actual.open(path, flags, mode);
    }) as typeof actual.open,
  };
});

const { createFileLockStore } = await import('./file-lock-store.js');

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hb-core-lock-full-'));
  disk.full = false;
});
afterEach(() => {
  disk.full = false;
  rmSync(root, { recursive: true, force: true });
});

describe('file lock on a full disk', () => {
  it('the holder releases its lock although no file can be created', async () => {
    const path = join(root, 'cycle.lock');
    const store = createFileLockStore({ path });
    (await store.acquire({ owner: 'me', nowMs: Date.now(), staleAfterMs: 60_000 }))._unsafeUnwrap();
    disk.full = true;
    expect((await store.release('me'))._unsafeUnwrap()).toBe('released');
    expect(readdirSync(root)).toEqual([]);
  });

  it('acquiring on a full disk is an io error naming the lock file, not a silent skip', async () => {
    disk.full = true;
    const path = join(root, 'cycle.lock');
    const error = (
      await createFileLockStore({ path }).acquire({ owner: 'me', nowMs: Date.now(), staleAfterMs: 60_000 })
    )._unsafeUnwrapErr();
    expect(error.kind).toBe('io');
    expect(error.kind === 'io' && error.message).toContain('ENOSPC');
  });
});
