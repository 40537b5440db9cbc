import { errAsync, okAsync } from 'neverthrow';
import { decideAcquire, decideRelease } from '../lock/lock-decisions.js';
import type { HolderLiveness, LockRecord, LockStore } from '../ports/lock-store.js';

/** An in-memory {@link LockStore} whose holder a test can inspect or plant. */
export interface MemoryLockStore extends LockStore {
  /** The current holder, or undefined. */
  readonly current: () => LockRecord | undefined;
  /** Replaces the holder without any checks (e.g. to plant a stale or foreign lock). */
  readonly plant: (record: LockRecord | undefined) => void;
}

/** Options of {@link createMemoryLockStore}. */
export interface MemoryLockStoreOptions {
  /** The lock held at the start. */
  readonly initial?: LockRecord;
  /** Hand out a fencing number that grows with every acquisition. */
  readonly fencing?: boolean;
  /** What the store knows of a holder's process (default `unknown`: the lock's age decides). */
  readonly liveness?: (holder: LockRecord) => HolderLiveness;
}

/**
 * An in-memory lock with the same decisions as the file lock; each call is atomic.
 *
 * @example
 * ```ts
 * import { createMemoryLockStore } from '@heartbeat-kit/core/testing';
 *
 * const lock = createMemoryLockStore();
 * const first = await lock.acquire({ owner: 'a', nowMs: 0, staleAfterMs: 60_000 });
 * const second = await lock.acquire({ owner: 'b', nowMs: 1_000, staleAfterMs: 60_000 });
 * console.log(first.isOk(), second.isErr() && second.error.kind); // true 'held'
 * ```
 */
export function createMemoryLockStore(options: MemoryLockStoreOptions = {}): MemoryLockStore {
  let holder = options.initial;
  let lastFence = options.initial?.fence ?? 0;
  return {
    acquire: (request) => {
      const liveness = holder === undefined ? 'unknown' : (options.liveness?.(holder) ?? 'unknown');
      const decision = decideAcquire(holder, request, liveness);
      if (decision === 'conflict' && holder !== undefined) return errAsync({ kind: 'held' as const, holder, liveness });
      const previous = holder;
      const base = { owner: request.owner, acquiredAtMs: request.nowMs };
      if (options.fencing === true) lastFence += 1;
      const record: LockRecord = options.fencing === true ? { ...base, fence: lastFence } : base;
      holder = record;
      return okAsync(
        decision === 'take-over' && previous !== undefined
          ? { kind: 'acquired' as const, record, tookOverFrom: previous }
          : { kind: 'acquired' as const, record },
      );
    },
    read: () => okAsync(holder),
    inspect: () => okAsync(holder === undefined ? undefined : { holder, liveness: options.liveness?.(holder) ?? 'unknown' }),
    release: (owner) => {
      const decision = decideRelease(holder, owner);
      if (decision === 'release') {
        holder = undefined;
        return okAsync('released' as const);
      }
      return okAsync(decision);
    },
    current: () => holder,
    plant: (record) => {
      holder = record;
    },
  };
}
