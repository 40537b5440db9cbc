import { randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, openSync } from 'node:fs';
import { mkdir, open, readdir, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** The `code` of a Node system error, when there is one. */
export function errorCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') return error.code;
  return undefined;
}

/** A one-line description of a thrown value. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A fresh, unique sibling of `path`: same directory, so a rename or link never crosses devices. */
export function uniqueSibling(path: string, tag: string): string {
  return join(dirname(path), `.${basename(path)}.${tag}-${process.pid}-${randomUUID()}`);
}

/** Writes `text` to a new file (exclusive create), flushes it to disk and closes it. */
export async function writeNewFileSynced(path: string, text: string): Promise<void> {
  const handle = await open(path, 'wx', 0o644);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Flushes a directory entry change (create, rename, unlink) to disk. Some file systems refuse
 * to fsync a directory; durability is then best effort rather than a failure.
 */
export async function syncDirectory(directory: string): Promise<void> {
  let handle;
  try {
    handle = await open(directory, 'r');
    await handle.sync();
  } catch (error) {
    const code = errorCode(error);
    if (code !== 'EISDIR' && code !== 'EINVAL' && code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EBADF') throw error;
  } finally {
    await handle?.close();
  }
}

/**
 * {@link syncDirectory} without leaving the calling tick: for a step that must be durable before a
 * child starts, where waiting for the event loop would queue it behind every other scanner's work.
 */
export function syncDirectorySync(directory: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(directory, 'r');
    fsyncSync(fd);
  } catch (error) {
    const code = errorCode(error);
    if (code !== 'EISDIR' && code !== 'EINVAL' && code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EBADF') throw error;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Creates the parent directories of `path`. */
export async function ensureParentDirectory(path: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
}

/** Removes a file, ignoring "already gone". */
export async function unlinkQuietly(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  }
}

function processIsGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return errorCode(error) === 'ESRCH';
  }
}

/**
 * Removes temp siblings made by {@link uniqueSibling} whose writer process no longer exists on
 * this host (killed mid-write). Best effort: a sweep failure never fails the caller.
 */
export async function sweepOrphanedSiblings(path: string, tag: string): Promise<number> {
  const target = basename(path);
  return sweepOrphanedTemps(dirname(path), tag, (name) => name === target);
}

/**
 * Like {@link sweepOrphanedSiblings}, for the temps of every file in `directory` whose name
 * `isTarget` accepts: a lock's take-over guards are named after the generation they guard, so
 * their temps cannot be found by one fixed prefix.
 */
export async function sweepOrphanedTemps(directory: string, tag: string, isTarget: (name: string) => boolean): Promise<number> {
  const marker = `.${tag}-`;
  let removed = 0;
  try {
    for (const name of await readdir(directory)) {
      const at = name.lastIndexOf(marker);
      if (!name.startsWith('.') || at <= 1 || !isTarget(name.slice(1, at))) continue;
      const pid = Number.parseInt(name.slice(at + marker.length), 10);
      if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || !processIsGone(pid)) continue;
      await unlinkQuietly(join(directory, name));
      removed += 1;
    }
  } catch {
    // Sweeping is housekeeping; the store works without it.
  }
  return removed;
}

/**
 * Replaces `path` with `text` so that a reader sees the old file or the new one, never half: a synced
 * sibling (tagged `tag`, swept by `sweepOrphanedSiblings` after a crash) renamed over it, then
 * the directory synced. `beforeRename` lets a crash test stop between the write and the rename.
 */
export async function replaceFileDurably(
  path: string,
  text: string,
  tag: string,
  beforeRename?: (temp: string) => Promise<void> | void,
): Promise<void> {
  await ensureParentDirectory(path);
  const temp = uniqueSibling(path, tag);
  try {
    await writeNewFileSynced(temp, text);
    await beforeRename?.(temp);
    await rename(temp, path);
  } catch (error) {
    await unlinkQuietly(temp).catch(() => undefined);
    throw error;
  }
  await syncDirectory(dirname(path));
}
