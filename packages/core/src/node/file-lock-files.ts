import { createHash } from 'node:crypto';
import { link, rename, stat, unlink } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { jsonLockCodec, type LockCodec } from '../lock/lock-codecs.js';
import type { Clock } from '../ports/clock.js';
import type { HolderLiveness, LockError, LockRecord } from '../ports/lock-store.js';
import { errorCode, syncDirectory, uniqueSibling, unlinkQuietly, writeNewFileSynced } from './durable-fs.js';
import { holderLiveness, type ProcessIdentity } from './process-liveness.js';
import { readRegularFile } from './regular-file.js';

// A take-over guard younger than this is never broken, even when staleAfterMs is tiny: a
// take-over lasts milliseconds, so an older guard means its writer died mid-take-over.
const MIN_GUARD_LIFETIME_MS = 30_000;
// An empty lock file can be seen while a foreign (non-atomic) writer is still writing it.
const EMPTY_READ_RETRIES = 20;
const EMPTY_READ_DELAY_MS = 5;
/** The tag of the temp files the lock store writes beside the lock (swept when a writer died mid-write). */
export const TEMP_TAG = 'new';
// Guards of guards: breaking an abandoned guard is itself guarded, this many levels deep.
const MAX_GUARD_DEPTH = 2;

/** A lock error thrown inside the store's steps and turned back into a Result at its edge. */
export class LockFailure extends Error {
  constructor(readonly failure: LockError) {
    super(failure.kind);
  }
}

/** What every step on one lock file shares: where it is, how it is written, and who this process is. */
export interface LockFile {
  readonly path: string;
  readonly directory: string;
  readonly lockName: string;
  readonly codec: LockCodec;
  readonly clock: Clock;
  /** This process's identity, resolved once on first use. */
  readonly self: () => Promise<ProcessIdentity | undefined>;
}

/** The lock file as read: absent, or its text with the record decoded from it. */
export type Snapshot = { readonly kind: 'absent' } | { readonly kind: 'present'; readonly text: string; readonly record: LockRecord };

type GuardState = { readonly kind: 'gone' | 'live' } | { readonly kind: 'abandoned'; readonly text: string };

/** A short hash of a lock's text: the generation a take-over guard is named after. */
export function generationOf(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** Where a take-over leaves the lock it replaced until the next holder claims it. */
export function tombstonePath(path: string): string {
  return `${path}.replaced`;
}

/** Whether the holder of `record` is alive, as seen from this process (`unknown` without an identity). */
export async function livenessOf(lock: LockFile, record: LockRecord): Promise<HolderLiveness> {
  const me = await lock.self();
  return me === undefined ? 'unknown' : holderLiveness(record, me);
}

/** The text of a lock, guard or tombstone; undefined when there is none. */
export async function readTextAt(target: string): Promise<string | undefined> {
  try {
    // A lock, guard or tombstone is never a link, FIFO or device: refused, never a blocking read.
    return await readRegularFile(target);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/** Reads and decodes the lock file, waiting out the empty window of a foreign writer. */
export async function snapshot(lock: LockFile): Promise<Snapshot> {
  for (let attempt = 0; ; attempt += 1) {
    const text = await readTextAt(lock.path);
    if (text === undefined) return { kind: 'absent' };
    if (text.trim() === '' && attempt < EMPTY_READ_RETRIES) {
      await delay(EMPTY_READ_DELAY_MS);
      continue;
    }
    const decoded = lock.codec.decode(text);
    if (decoded.isErr()) {
      throw new LockFailure({
        kind: 'corrupt',
        message: `Lock file ${lock.path} is not a valid lock (${decoded.error}). If no heartbeat is running, delete it.`,
      });
    }
    return { kind: 'present', text, record: decoded.value };
  }
}

/** Exclusive create of `targetPath` holding `text`; false when it already exists. */
export async function createExclusive(targetPath: string, text: string): Promise<boolean> {
  const temp = uniqueSibling(targetPath, TEMP_TAG);
  try {
    await writeNewFileSynced(temp, text);
    try {
      await link(temp, targetPath);
      return true;
    } catch (error) {
      const code = errorCode(error);
      if (code === 'EEXIST') return false;
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
    }
    // No hard links on this file system: fall back to O_EXCL, whose brief empty window readers tolerate.
    try {
      await writeNewFileSynced(targetPath, text);
      return true;
    } catch (error) {
      if (errorCode(error) === 'EEXIST') return false;
      throw error;
    }
  } finally {
    await unlinkQuietly(temp);
  }
}

/**
 * Looks at a guard that exists: `gone` when it vanished meanwhile, its text when its writer
 * evidently died mid-take-over (older than the guard lifetime), `live` otherwise.
 */
async function inspectGuard(lock: LockFile, guardPath: string, nowMs: number, staleAfterMs: number): Promise<GuardState> {
  const lifetime = Math.max(Number.isFinite(staleAfterMs) ? staleAfterMs : 0, MIN_GUARD_LIFETIME_MS);
  const text = await readTextAt(guardPath);
  if (text === undefined) return { kind: 'gone' };
  const decoded = jsonLockCodec.decode(text);
  let abandoned: boolean;
  if (decoded.isOk()) {
    // A guard names its writer like a lock does: one whose writer died on this host is abandoned at
    // once. Judged by age alone, a cycle SIGKILLed mid-take-over stopped every later cycle for the
    // whole stale window (15 min), each reporting the lock held (found by the GChat kill stress).
    const age = nowMs - decoded.value.acquiredAtMs;
    abandoned = (age >= 0 && age >= lifetime) || (await livenessOf(lock, decoded.value)) === 'dead';
  } else {
    const info = await stat(guardPath).catch(() => undefined);
    abandoned = info !== undefined && lock.clock.now().getTime() - info.mtimeMs >= lifetime;
  }
  return abandoned ? { kind: 'abandoned', text } : { kind: 'live' };
}

/** One attempt to remove a file under its take-over guard: who takes it, when, and how deep in guards of guards. */
export interface Removal {
  readonly owner: string;
  readonly nowMs: number;
  readonly staleAfterMs: number;
  readonly depth: number;
}

/**
 * Takes the guard `guardPath` (writing `guardText`); an abandoned guard is broken first, through a
 * guard of the guard below the last level and by a plain unlink at it. False when someone else holds it.
 */
async function takeGuard(lock: LockFile, guardPath: string, guardText: string, removal: Removal): Promise<boolean> {
  if (await createExclusive(guardPath, guardText)) return true;
  const guard = await inspectGuard(lock, guardPath, removal.nowMs, removal.staleAfterMs);
  if (guard.kind === 'gone') return createExclusive(guardPath, guardText);
  if (guard.kind !== 'abandoned') return false;
  if (removal.depth < MAX_GUARD_DEPTH) {
    const broken = await removeIfUnchanged(lock, guardPath, guard.text, { ...removal, depth: removal.depth + 1 });
    return broken !== 'busy' && createExclusive(guardPath, guardText);
  }
  await unlinkQuietly(guardPath);
  return createExclusive(guardPath, guardText);
}

/**
 * Removes `target` only if it still holds exactly `seenText`, while holding the guard of that
 * generation (`<target>.takeover-<hash>`). An abandoned guard is itself removed by the same
 * procedure one level up, so breaking it is race-free too; only at the last level is it unlinked
 * directly. `busy` = someone else holds the guard; `changed` = `target` is no longer `seenText`.
 */
export async function removeIfUnchanged(
  lock: LockFile,
  target: string,
  seenText: string,
  removal: Removal,
): Promise<'removed' | 'changed' | 'busy'> {
  const guardPath = `${target}.takeover-${generationOf(seenText)}`;
  const guardText = jsonLockCodec.encode({
    owner: removal.owner,
    acquiredAtMs: Math.max(0, Math.floor(removal.nowMs)),
    ...((await lock.self()) ?? {}),
  });
  if (!(await takeGuard(lock, guardPath, guardText, removal))) return 'busy';
  try {
    const again = await readTextAt(target);
    if (again !== seenText) return 'changed';
    try {
      // The replaced lock itself is kept as a tombstone for whichever racer wins the create
      // that follows: it may not be this one, and the winner must know whom it replaced.
      if (target === lock.path) await rename(target, tombstonePath(lock.path));
      else await unlink(target);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return 'changed';
      throw error;
    }
    await syncDirectory(lock.directory);
    return 'removed';
  } finally {
    await unlinkQuietly(guardPath);
  }
}
