import { createHash } from 'node:crypto';
import { link, readFile, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { ResultAsync } from 'neverthrow';
import { jsonLockCodec, type LockCodec } from '../lock/lock-codecs.js';
import { decideAcquire, decideRelease } from '../lock/lock-decisions.js';
import type { Clock } from '../ports/clock.js';
import type { Acquired, AcquireRequest, LockError, LockRecord, LockStore, ReleaseOutcome } from '../ports/lock-store.js';
import { describeError, ensureParentDirectory, errorCode, sweepOrphanedSiblings, syncDirectory, uniqueSibling, unlinkQuietly, writeNewFileSynced } from './durable-fs.js';
import { systemClock } from './system-clock.js';

/** Options of {@link createFileLockStore}. */
export interface FileLockStoreOptions {
  /** The lock file, e.g. `.woterclip/.heartbeat-lock`. */
  readonly path: string;
  /** The file format; defaults to {@link jsonLockCodec}. Use `woterclipLockCodec` for WoterClip's lockfile. */
  readonly codec?: LockCodec;
  /** Stamps take-over guards on release; defaults to the system clock. */
  readonly clock?: Clock;
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

class LockFailure extends Error {
  constructor(readonly failure: LockError) {
    super(failure.kind);
  }
}

type Snapshot = { readonly kind: 'absent' } | { readonly kind: 'present'; readonly text: string; readonly record: LockRecord };

function toLockError(path: string, error: unknown): LockError {
  if (error instanceof LockFailure) return error.failure;
  return { kind: 'io', message: `Lock file ${path}: ${describeError(error)}` };
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
 * - Release removes the file only when it still names the caller, under the same guard.
 *
 * Residual risk, documented rather than hidden: a process that dies between creating a guard and
 * removing it leaves that guard behind; after `max(staleAfterMs, 30 s)` the next taker breaks it,
 * and only a second crash-free racer arriving within that same instant could then race it.
 */
export function createFileLockStore(options: FileLockStoreOptions): LockStore {
  const { path } = options;
  const codec = options.codec ?? jsonLockCodec;
  const clock = options.clock ?? systemClock;
  const directory = dirname(path);

  const readText = async (): Promise<string | undefined> => {
    try {
      return await readFile(path, 'utf8');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return undefined;
      throw error;
    }
  };

  const snapshot = async (): Promise<Snapshot> => {
    for (let attempt = 0; ; attempt += 1) {
      const text = await readText();
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

  const guardIsAbandoned = async (guardPath: string, nowMs: number, staleAfterMs: number): Promise<boolean> => {
    const lifetime = Math.max(Number.isFinite(staleAfterMs) ? staleAfterMs : 0, MIN_GUARD_LIFETIME_MS);
    let text: string;
    try {
      text = await readFile(guardPath, 'utf8');
    } catch (error) {
      // Gone already: the holder finished; the caller simply retries.
      if (errorCode(error) === 'ENOENT') return true;
      throw error;
    }
    const decoded = jsonLockCodec.decode(text);
    if (decoded.isOk()) {
      const age = nowMs - decoded.value.acquiredAtMs;
      return age >= 0 && age >= lifetime;
    }
    const info = await stat(guardPath).catch(() => undefined);
    return info !== undefined && clock.now().getTime() - info.mtimeMs >= lifetime;
  };

  /**
   * Removes the lock only if it is still exactly `seen`, holding the guard of that generation.
   * `busy` = someone else holds the guard; `changed` = the lock is no longer `seen`.
   */
  const removeIfUnchanged = async (
    seen: Extract<Snapshot, { kind: 'present' }>,
    owner: string,
    nowMs: number,
    staleAfterMs: number,
  ): Promise<'removed' | 'changed' | 'busy'> => {
    const guardPath = `${path}.takeover-${generationOf(seen.text)}`;
    const guardText = jsonLockCodec.encode({ owner, acquiredAtMs: Math.max(0, Math.floor(nowMs)) });
    let haveGuard = await createExclusive(guardPath, guardText);
    if (!haveGuard && (await guardIsAbandoned(guardPath, nowMs, staleAfterMs))) {
      await unlinkQuietly(guardPath);
      haveGuard = await createExclusive(guardPath, guardText);
    }
    if (!haveGuard) return 'busy';
    try {
      const again = await readText();
      if (again !== seen.text) return 'changed';
      try {
        await unlink(path);
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

  const acquire = async (request: AcquireRequest): Promise<Acquired> => {
    const text = codec.encode({ owner: request.owner, acquiredAtMs: request.nowMs });
    // What a later read will see (a codec may round, e.g. WoterClip keeps whole seconds).
    const stored = codec.decode(text);
    if (stored.isErr()) throw new LockFailure({ kind: 'io', message: `Lock codec cannot encode owner ${JSON.stringify(request.owner)}: ${stored.error}` });
    await ensureParentDirectory(path);
    await sweepOrphanedSiblings(path, TEMP_TAG);
    let tookOverFrom: LockRecord | undefined;
    let busyHolder: LockRecord | undefined;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      if (await createExclusive(path, text)) {
        await syncDirectory(directory);
        return tookOverFrom === undefined ? { kind: 'acquired', record: stored.value } : { kind: 'acquired', record: stored.value, tookOverFrom };
      }
      const current = await snapshot();
      busyHolder = undefined;
      if (current.kind === 'absent') continue;
      if (decideAcquire(current.record, request) !== 'take-over') throw new LockFailure({ kind: 'held', holder: current.record });
      const outcome = await removeIfUnchanged(current, request.owner, request.nowMs, request.staleAfterMs);
      if (outcome === 'removed') tookOverFrom = current.record;
      if (outcome === 'busy') {
        // Another process is replacing this stale lock right now; look again once it is done.
        busyHolder = current.record;
        await delay(BUSY_DELAY_MS + Math.floor(Math.random() * BUSY_DELAY_MS));
      }
    }
    if (busyHolder !== undefined) throw new LockFailure({ kind: 'held', holder: busyHolder });
    throw new LockFailure({ kind: 'io', message: `Lock file ${path} kept changing during ${MAX_ATTEMPTS} attempts to acquire it; try again.` });
  };

  const release = async (owner: string): Promise<ReleaseOutcome> => {
    const current = await snapshot();
    const decision = decideRelease(current.kind === 'present' ? current.record : undefined, owner);
    if (decision === 'absent') return 'absent';
    if (decision === 'not-owner' || current.kind === 'absent') return 'not-owner';
    const outcome = await removeIfUnchanged(current, owner, clock.now().getTime(), 0);
    if (outcome === 'removed') return 'released';
    // A guard held by someone else means a take-over of our (stale) lock is under way.
    if (outcome === 'busy') return 'not-owner';
    const after = await snapshot();
    const next = decideRelease(after.kind === 'present' ? after.record : undefined, owner);
    return next === 'release' ? 'not-owner' : next;
  };

  return {
    acquire: (request) => ResultAsync.fromPromise(acquire(request), (error) => toLockError(path, error)),
    read: () =>
      ResultAsync.fromPromise(
        snapshot().then((current) => (current.kind === 'present' ? current.record : undefined)),
        (error) => toLockError(path, error),
      ),
    release: (owner) => ResultAsync.fromPromise(release(owner), (error) => toLockError(path, error)),
  };
}

/** Exposed for tests: the guard file a take-over of a lock holding `text` would create. */
export function takeoverGuardPath(path: string, text: string): string {
  return `${path}.takeover-${generationOf(text)}`;
}
