import { link, rename } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { ResultAsync } from 'neverthrow';
import { jsonLockCodec, type LockCodec } from '../lock/lock-codecs.js';
import { decideAcquire, decideRelease } from '../lock/lock-decisions.js';
import type { Clock } from '../ports/clock.js';
import type { Acquired, AcquireRequest, LockError, LockRecord, LockStore, ReleaseOutcome } from '../ports/lock-store.js';
import {
  describeError,
  ensureParentDirectory,
  errorCode,
  sweepOrphanedTemps,
  syncDirectory,
  uniqueSibling,
  unlinkQuietly,
} from './durable-fs.js';
import {
  createExclusive,
  generationOf,
  livenessOf,
  type LockFile,
  LockFailure,
  readTextAt,
  removeIfUnchanged,
  snapshot,
  TEMP_TAG,
  tombstonePath,
} from './file-lock-files.js';
import { currentProcessIdentity, type ProcessIdentity } from './process-liveness.js';
import { NotRegularFileError } from './regular-file.js';
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

const MAX_ATTEMPTS = 16;
const BUSY_DELAY_MS = 5;

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
  let identity: Promise<ProcessIdentity | undefined> | undefined;
  const lock: LockFile = {
    path,
    directory: dirname(path),
    lockName: basename(path),
    codec: options.codec ?? jsonLockCodec,
    clock: options.clock ?? systemClock,
    self: () => (identity ??= resolveIdentity(options.identity)),
  };
  return {
    acquire: (request) => ResultAsync.fromPromise(acquire(lock, request), (error) => toLockError(path, error)),
    read: () =>
      ResultAsync.fromPromise(
        snapshot(lock).then((current) => (current.kind === 'present' ? current.record : undefined)),
        (error) => toLockError(path, error),
      ),
    inspect: () =>
      ResultAsync.fromPromise(
        snapshot(lock).then(async (current) =>
          current.kind === 'present' ? { holder: current.record, liveness: await livenessOf(lock, current.record) } : undefined,
        ),
        (error) => toLockError(path, error),
      ),
    release: (owner) => ResultAsync.fromPromise(release(lock, owner), (error) => toLockError(path, error)),
  };
}

/** Takes the record a take-over left behind, if any: the lock this acquisition replaced. */
async function claimTombstone(lock: LockFile): Promise<LockRecord | undefined> {
  const tombstone = tombstonePath(lock.path);
  const text = await readTextAt(tombstone);
  if (text === undefined) return undefined;
  await unlinkQuietly(tombstone);
  const decoded = lock.codec.decode(text);
  return decoded.isOk() ? decoded.value : undefined;
}

/** The record `request` writes, as a later read will see it (a codec may round, e.g. WoterClip keeps whole seconds). */
async function encodeRequest(lock: LockFile, request: AcquireRequest): Promise<{ readonly text: string; readonly record: LockRecord }> {
  const me = await lock.self();
  const text = lock.codec.encode({ owner: request.owner, acquiredAtMs: request.nowMs, ...(me ?? {}) });
  const stored = lock.codec.decode(text);
  if (stored.isErr())
    throw new LockFailure({ kind: 'io', message: `Lock codec cannot encode owner ${JSON.stringify(request.owner)}: ${stored.error}` });
  return { text, record: stored.value };
}

async function acquire(lock: LockFile, request: AcquireRequest): Promise<Acquired> {
  const { path, directory, lockName } = lock;
  const { text, record } = await encodeRequest(lock, request);
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
      const replaced = await claimTombstone(lock);
      if (replaced !== undefined) tookOverFrom = replaced;
      return tookOverFrom === undefined ? { kind: 'acquired', record } : { kind: 'acquired', record, tookOverFrom };
    }
    const current = await snapshot(lock);
    busyHolder = undefined;
    if (current.kind === 'absent') continue;
    const liveness = await livenessOf(lock, current.record);
    if (decideAcquire(current.record, request, liveness) !== 'take-over')
      throw new LockFailure({ kind: 'held', holder: current.record, liveness });
    tookOverFrom = current.record;
    const removal = { owner: request.owner, nowMs: request.nowMs, staleAfterMs: request.staleAfterMs, depth: 0 };
    const outcome = await removeIfUnchanged(lock, path, current.text, removal);
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
}

/**
 * Release creates nothing (a full disk must not strand the lock): the lock is renamed aside,
 * which is atomic, and the moved file is removed only if it is still the caller's. If a taker
 * replaced it in between, its lock is linked back (exclusive; if a third process already made
 * a new lock, that one stands).
 */
async function release(lock: LockFile, owner: string): Promise<ReleaseOutcome> {
  const { path } = lock;
  const current = await snapshot(lock);
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
    await syncDirectory(lock.directory);
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
}

/** Exposed for tests: the guard file a take-over of a lock holding `text` would create. */
export function takeoverGuardPath(path: string, text: string): string {
  return `${path}.takeover-${generationOf(text)}`;
}
