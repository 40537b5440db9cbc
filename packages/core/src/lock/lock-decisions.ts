import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import type { AcquireRequest, HolderLiveness, LockRecord } from '../ports/lock-store.js';

/**
 * What a lock store should do with an acquire request: take a free lock, replace a stale
 * holder, or refuse. Locks are not re-entrant: an owner asking again while it holds a live lock
 * gets `conflict`, because two beats never share an id and a repeat means a bug upstream.
 */
export type AcquireDecision = 'acquire' | 'take-over' | 'conflict';

/** What releasing should do: only the owner removes a lock; someone else's lock is left alone. */
export type ReleaseDecision = 'release' | 'not-owner' | 'absent';

/**
 * True when `record` is old enough to be taken over at `nowMs`. A record from the future
 * (clock skew, a wrong clock) is never stale: waiting is safer than stealing a live lock.
 * Non-finite numbers never make a lock stale either.
 */
export function isLockStale(record: LockRecord, nowMs: number, staleAfterMs: number): boolean {
  if (!Number.isFinite(nowMs) || !Number.isFinite(record.acquiredAtMs) || Number.isNaN(staleAfterMs)) return false;
  const age = nowMs - record.acquiredAtMs;
  return age >= 0 && age >= staleAfterMs;
}

/**
 * Decides an acquire request against the current holder (undefined = no lock). A holder known
 * dead is stale at once and a holder known alive is never stale (a crashed cycle must not stop
 * the heartbeat for the whole stale window; a slow one must not be robbed); only when liveness is
 * unknown (another host, no pid recorded) does the lock's age decide.
 */
export function decideAcquire(
  existing: LockRecord | undefined,
  request: AcquireRequest,
  liveness: HolderLiveness = 'unknown',
): AcquireDecision {
  if (existing === undefined) return 'acquire';
  if (liveness === 'dead') return 'take-over';
  if (liveness === 'alive') return 'conflict';
  return isLockStale(existing, request.nowMs, request.staleAfterMs) ? 'take-over' : 'conflict';
}

/** Decides a release by `owner` against the current holder (undefined = no lock). */
export function decideRelease(existing: LockRecord | undefined, owner: string): ReleaseDecision {
  if (existing === undefined) return 'absent';
  return existing.owner === owner ? 'release' : 'not-owner';
}

/** The ownership rule: true only when the lock exists and still names `owner`. */
export function ownsLock(existing: LockRecord | undefined, owner: string): boolean {
  return existing !== undefined && existing.owner === owner;
}

/** The generic lock record as stored by the default codec; unknown keys are rejected. */
export const lockRecordSchema = z
  .object({
    /** Unique id of the holder. */
    owner: z.string().min(1).max(512),
    /** Acquisition time, epoch milliseconds. */
    acquiredAtMs: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
    /** Fencing number, when the store hands them out. */
    fence: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
    /** Process id of the holder. */
    pid: z
      .number()
      .int()
      .positive()
      .max(2 ** 31)
      .optional(),
    /** Host name of the holder. */
    host: z.string().min(1).max(256).optional(),
    /** Start mark of the holder process, against pid reuse. */
    processStart: z.string().min(1).max(64).optional(),
  })
  .strict();

/**
 * Validates an unknown value as a {@link LockRecord}. Returns the record, or a message naming
 * the offending keys.
 */
export function parseLockRecord(value: unknown): Result<LockRecord, string> {
  const parsed = lockRecordSchema.safeParse(value);
  if (!parsed.success) {
    const message = parsed.error.issues
      .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`)
      .join('; ');
    return err(message);
  }
  const { owner, acquiredAtMs, fence, pid, host, processStart } = parsed.data;
  // Rebuilt by hand because exactOptionalPropertyTypes forbids `fence: undefined`.
  return ok({
    owner,
    acquiredAtMs,
    ...(fence === undefined ? {} : { fence }),
    ...(pid === undefined ? {} : { pid }),
    ...(host === undefined ? {} : { host }),
    ...(processStart === undefined ? {} : { processStart }),
  });
}
