import { createHash } from 'node:crypto';
import { link, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { ResultAsync } from 'neverthrow';
import { jsonLockCodec, type LockCodec } from '../lock/lock-codecs.js';
import { decideAcquire, decideRelease } from '../lock/lock-decisions.js';
import type { Clock } from '../ports/clock.js';
import type { Acquired, AcquireRequest, HolderLiveness, LockError, LockRecord, LockStore, ReleaseOutcome } from '../ports/lock-store.js';
import {
  describeError,
  ensureParentDirectory,
  errorCode,
  sweepOrphanedTemps,
  syncDirectory,
  uniqueSibling,
  unlinkQuietly,
  writeNewFileSynced,
} from './durable-fs.js';
import { currentProcessIdentity, holderLiveness, type ProcessIdentity } from './process-liveness.js';
import { NotRegularFileError, readRegularFile } from './regular-file.js';
import { systemClock } from './system-clock.js';

/** Options of {@link createFileLockStore}. */
export interface FileLockStoreOptions {
  /** The lock file, e.g. `.woterclip/.heartbeat-lock`. */
  readonly path: string;
  /** The file format; defaults to {@link jsonLockCodec}. `@heartbeat-kit/woterclip` has `woterclipLockCodec` for WoterClip's lockfile. */
  readonly codec?: LockCodec;
  /** Judges abandoned take-over guards; defaults to the system clock. */
  readonly clock?: Clock;
  /**
   * Who this process is, recorded in the lock (pid, host, start mark) so that another process on
   * the same host can tell at once that the holder died. Defaults to the current process; `false`
   * records nothing, and the lock's age alone decides staleness.
   */
  readonly identity?: ProcessIdentity | false;
}

// A take-over guard younger than this is never broken, even when staleAfterMs is tiny: a
// take-over lasts milliseconds, so an older guard means its writer died mid-take-over.
const MIN_GUARD_LIFETIME_MS = 30_000;
const MAX_ATTEMPTS = 16;
// An empty lock file can be seen while a foreign (non-atomic) writer is still writing it.
const EMPTY_READ_RETRIES = 20;
const EMPTY_READ_DELAY_MS = 5;
const BUSY_DELAY_MS = 5;
const TEMP_TAG = 'new';
// Guards of guards: breaking an abandoned guard is itself guarded, this many levels deep.
const MAX_GUARD_DEPTH = 2;

class LockFailure extends Error {
  constructor(readonly failure: LockError) {
    super(failure.kind);
  }
}

type Snapshot = { readonly kind: 'absent' } | { readonly kind: 'present'; readonly text: string; readonly record: LockRecord };

async function resolveIdentity(option: ProcessIdentity | false | undefined): Promise<ProcessIdentity | undefined> {
  if (option === false) return undefined;
  return option ?? (await currentProcessIdentity());
}

function toLockError(path: string, error: unknown): LockError {
  if (error instanceof LockFailure) return error.failure;
  // It names the file (the lock, a guard or the tombstone) and the fix itself.
  if (error instanceof NotRegularFileError) return { kind: 'io', message: `Lock file ${error.message}` };
  return { kind: 'io', message: `Lock file ${path}: ${describeError(error)}` };
}

/** `<lock>.takeover-<hash>`, at any guard level: the files {@link takeoverGuardPath} names. */
function isGuardOf(lockName: string, name: string): boolean {
  return name.startsWith(`${lockName}.`) && /^(?:\.takeover-[0-9a-f]{16})+$/.test(name.slice(lockName.length));
}

function generationOf(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/**
 * A {@link LockStore} on one file, safe between processes on one host.
 *
 * - Acquire writes the record to a unique temp file and hard-links it to the lock path: `link`
 *   is an exclusive create that also never exposes a half-written lock.
 * - A stale lock is taken over without check-then-write: the taker first exclusively creates a
 *   guard named after the stale file's content (`<path>.takeover-<hash>`), re-reads the lock and
 *   removes it only if it is still byte-for-byte that stale file, then competes with a fresh
 *   exclusive create like everyone else. Every removal (take-over or release) holds the guard of
 *   the generation it removes, so of N racers on one stale lock exactly one ends up holding it.
 * - The record carries the holder's pid, host and process start mark: on the same host a holder
 *   that no longer exists is stale at once, a live one never; the age (`staleAfterMs`) decides
 *   only for other hosts or records without a pid.
 * - Release renames the lock aside and removes it if it was the caller's (putting back anything
 *   else): no new file is created, so a full disk never strands a lock.
 * - The winner of a contested take-over reports `tookOverFrom` whether or not it was the racer
 *   that removed the stale file.
 *
 * A process that dies holding a guard leaves it behind; the next taker breaks it through a guard of
 * the guard (same procedure, one level up) at once when the guard's writer (pid, host and start
 * mark, as in a lock) is dead on this host, else after `max(staleAfterMs, 30 s)`. Residual risk,
 * documented rather than hidden: only crashes at every guard level, followed by racers in the
 * same instant, could let two takers through.
 *
 * @example
 * ```ts
 * import { createFileLockStore } from '@heartbeat-kit/core/node';
 *
 * const lock = createFileLockStore({ path: '.git/heartbeat-kit/cycle.lock' });
 * const taken = await lock.acquire({ owner: `${process.pid}`, nowMs: Date.now(), staleAfterMs: 15 * 60_000 });
 * if (taken.isErr()) console.log(taken.error.kind === 'held' ? 'another cycle is running' : taken.error.message);
 * else await lock.release(`${process.pid}`);
 * ```
 */
export function createFileLockStore(options: FileLockStoreOptions): LockStore {
  const { path } = options;
  const codec = options.codec ?? jsonLockCodec;
  const clock = options.clock ?? systemClock;
  const directory = dirname(path);
  const lockName = basename(path);
  let identity: Promise<ProcessIdentity | undefined> | undefined;
  const self = (): Promise<ProcessIdentity | undefined> => (identity ??= resolveIdentity(options.identity));
  const livenessOf = async (record: LockRecord): Promise<HolderLiveness> => {
    const me = await self();
    return me === undefined ? 'unknown' : holderLiveness(record, me);
  };

  const snapshot = async (): Promise<Snapshot> => {
    for (let attempt = 0; ; attempt += 1) {
      const text = await readTextAt(path);
      if (text === undefined) return { kind: 'absent' };
      if (text.trim() === '' && attempt < EMPTY_READ_RETRIES) {
        await delay(EMPTY_READ_DELAY_MS);
        continue;
      }
      const decoded = codec.decode(text);
      if (decoded.isErr()) {
        throw new LockFailure({
          kind: 'corrupt',
          message: `Lock file ${path} is not a valid lock (${decoded.error}). If no heartbeat is running, delete it.`,
        });
      }
      return { kind: 'present', text, record: decoded.value };
    }
  };

  /** Exclusive create of `targetPath` holding `text`; false when it already exists. */
  const createExclusive = async (targetPath: string, text: string): Promise<boolean> => {
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
  };

  const readTextAt = async (target: string): Promise<string | undefined> => {
    try {
      // A lock, guard or tombstone is never a link, FIFO or device: refused, never a blocking read.
      return await readRegularFile(target);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return undefined;
      throw error;
    }
  };

  /**
   * Looks at a guard that exists: `gone` when it vanished meanwhile, its text when its writer
   * evidently died mid-take-over (older than the guard lifetime), `live` otherwise.
   */
  const inspectGuard = async (
    guardPath: string,
    nowMs: number,
    staleAfterMs: number,
  ): Promise<{ readonly kind: 'gone' | 'live' } | { readonly kind: 'abandoned'; readonly text: string }> => {
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
      abandoned = (age >= 0 && age >= lifetime) || (await livenessOf(decoded.value)) === 'dead';
    } else {
      const info = await stat(guardPath).catch(() => undefined);
      abandoned = info !== undefined && clock.now().getTime() - info.mtimeMs >= lifetime;
    }
    return abandoned ? { kind: 'abandoned', text } : { kind: 'live' };
  };

  /**
   * Removes `target` only if it still holds exactly `seenText`, while holding the guard of that
   * generation (`<target>.takeover-<hash>`). An abandoned guard is itself removed by the same
   * procedure one level up, so breaking it is race-free too; only at the last level is it unlinked
   * directly. `busy` = someone else holds the guard; `changed` = `target` is no longer `seenText`.
   */
  const removeIfUnchanged = async (
    target: string,
    seenText: string,
    owner: string,
    nowMs: number,
    staleAfterMs: number,
    depth = 0,
  ): Promise<'removed' | 'changed' | 'busy'> => {
    const guardPath = `${target}.takeover-${generationOf(seenText)}`;
    const guardText = jsonLockCodec.encode({ owner, acquiredAtMs: Math.max(0, Math.floor(nowMs)), ...((await self()) ?? {}) });
    let haveGuard = await createExclusive(guardPath, guardText);
    if (!haveGuard) {
      const guard = await inspectGuard(guardPath, nowMs, staleAfterMs);
      if (guard.kind === 'abandoned') {
        if (depth < MAX_GUARD_DEPTH) {
          const broken = await removeIfUnchanged(guardPath, guard.text, owner, nowMs, staleAfterMs, depth + 1);
          if (broken !== 'busy') haveGuard = await createExclusive(guardPath, guardText);
        } else {
          await unlinkQuietly(guardPath);
          haveGuard = await createExclusive(guardPath, guardText);
        }
      } else if (guard.kind === 'gone') {
        haveGuard = await createExclusive(guardPath, guardText);
      }
    }
    if (!haveGuard) return 'busy';
    try {
      const again = await readTextAt(target);
      if (again !== seenText) return 'changed';
      try {
        // The replaced lock itself is kept as a tombstone for whichever racer wins the create
        // that follows: it may not be this one, and the winner must know whom it replaced.
        if (target === path) await rename(target, tombstonePath(path));
        else await unlink(target);
      } catch (error) {
        if (errorCode(error) === 'ENOENT') return 'changed';
        throw error;
      }
      await syncDirectory(directory);
      return 'removed';
    } finally {
      await unlinkQuietly(guardPath);
    }
  };

  /** Takes the record a take-over left behind, if any: the lock this acquisition replaced. */
  const claimTombstone = async (): Promise<LockRecord | undefined> => {
    const tombstone = tombstonePath(path);
    const text = await readTextAt(tombstone);
    if (text === undefined) return undefined;
    await unlinkQuietly(tombstone);
    const decoded = codec.decode(text);
    return decoded.isOk() ? decoded.value : undefined;
  };

  const acquire = async (request: AcquireRequest): Promise<Acquired> => {
    const me = await self();
    const text = codec.encode({ owner: request.owner, acquiredAtMs: request.nowMs, ...(me ?? {}) });
    // What a later read will see (a codec may round, e.g. WoterClip keeps whole seconds).
    const stored = codec.decode(text);
    if (stored.isErr())
      throw new LockFailure({ kind: 'io', message: `Lock codec cannot encode owner ${JSON.stringify(request.owner)}: ${stored.error}` });
    await ensureParentDirectory(path);
    // Temps of the lock and of its take-over guards (any level) left by a writer killed mid-write.
    await sweepOrphanedTemps(directory, TEMP_TAG, (name) => name === lockName || isGuardOf(lockName, name));
    // The stale holder this acquisition replaces. Remembered as soon as it is judged stale, not only
    // when this process removed it: of N racers one removes the file and another may win the
    // create, and the winner is the one that must report whom it replaced.
    let tookOverFrom: LockRecord | undefined;
    let busyHolder: LockRecord | undefined;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      if (await createExclusive(path, text)) {
        await syncDirectory(directory);
        const replaced = await claimTombstone();
        if (replaced !== undefined) tookOverFrom = replaced;
        return tookOverFrom === undefined
          ? { kind: 'acquired', record: stored.value }
          : { kind: 'acquired', record: stored.value, tookOverFrom };
      }
      const current = await snapshot();
      busyHolder = undefined;
      if (current.kind === 'absent') continue;
      const liveness = await livenessOf(current.record);
      if (decideAcquire(current.record, request, liveness) !== 'take-over')
        throw new LockFailure({ kind: 'held', holder: current.record, liveness });
      tookOverFrom = current.record;
      const outcome = await removeIfUnchanged(path, current.text, request.owner, request.nowMs, request.staleAfterMs);
      if (outcome === 'busy') {
        // Another process is replacing this stale lock right now; look again once it is done.
        busyHolder = current.record;
        await delay(BUSY_DELAY_MS + Math.floor(Math.random() * BUSY_DELAY_MS));
      }
    }
    if (busyHolder !== undefined) throw new LockFailure({ kind: 'held', holder: busyHolder });
    throw new LockFailure({
      kind: 'io',
      message: `Lock file ${path} kept changing during ${MAX_ATTEMPTS} attempts to acquire it; try again.`,
    });
  };

  /**
   * Release creates nothing (a full disk must not strand the lock): the lock is renamed aside,
   * which is atomic, and the moved file is removed only if it is still the caller's. If a taker
   * replaced it in between, its lock is linked back (exclusive; if a third process already made
   * a new lock, that one stands).
   */
  const release = async (owner: string): Promise<ReleaseOutcome> => {
    const current = await snapshot();
    const decision = decideRelease(current.kind === 'present' ? current.record : undefined, owner);
    if (decision === 'absent') return 'absent';
    if (decision === 'not-owner' || current.kind === 'absent') return 'not-owner';
    // A take-over of our (stale) lock under way: leave it to the taker.
    if ((await readTextAt(takeoverGuardPath(path, current.text))) !== undefined) return 'not-owner';
    const aside = uniqueSibling(path, TEMP_TAG);
    try {
      await rename(path, aside);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return 'absent';
      throw error;
    }
    const moved = await readTextAt(aside);
    if (moved === current.text) {
      await unlinkQuietly(aside);
      await syncDirectory(directory);
      return 'released';
    }
    if (moved !== undefined) {
      try {
        await link(aside, path);
      } catch (error) {
        if (errorCode(error) !== 'EEXIST') throw error;
      }
    }
    await unlinkQuietly(aside);
    return 'not-owner';
  };

  return {
    acquire: (request) => ResultAsync.fromPromise(acquire(request), (error) => toLockError(path, error)),
    read: () =>
      ResultAsync.fromPromise(
        snapshot().then((current) => (current.kind === 'present' ? current.record : undefined)),
        (error) => toLockError(path, error),
      ),
    inspect: () =>
      ResultAsync.fromPromise(
        snapshot().then(async (current) =>
          current.kind === 'present' ? { holder: current.record, liveness: await livenessOf(current.record) } : undefined,
        ),
        (error) => toLockError(path, error),
      ),
    release: (owner) => ResultAsync.fromPromise(release(owner), (error) => toLockError(path, error)),
  };
}

/** Where a take-over leaves the lock it replaced until the next holder claims it. */
function tombstonePath(path: string): string {
  return `${path}.replaced`;
}

/** Exposed for tests: the guard file a take-over of a lock holding `text` would create. */
export function takeoverGuardPath(path: string, text: string): string {
  return `${path}.takeover-${generationOf(text)}`;
}
