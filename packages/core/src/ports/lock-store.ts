import type { ResultAsync } from 'neverthrow';

/** Who holds a lock and since when. */
export interface LockRecord {
  /** Unique id of the holder (a WoterClip beat id is `<epoch seconds>-<pid>`). */
  readonly owner: string;
  /** Acquisition time, epoch milliseconds. */
  readonly acquiredAtMs: number;
  /** Fencing number, when the store hands them out: grows with every acquisition. */
  readonly fence?: number;
  /** Process id of the holder, when the store records it (liveness is judged on `host` only). */
  readonly pid?: number;
  /** Host name of the holder: a pid means something only on its own host. */
  readonly host?: string;
  /** Opaque start mark of the holder process (Linux: `/proc/<pid>/stat` start time), against pid reuse. */
  readonly processStart?: string;
}

/**
 * What a store knows about a holder's process: `dead` (same host, no such process, or the pid
 * now belongs to a younger process), `alive` (same host, the very process), `unknown` (another
 * host, no pid recorded, or no way to tell). Only `unknown` falls back to the lock's age.
 */
export type HolderLiveness = 'alive' | 'dead' | 'unknown';

/** A lock's holder with what the store knows of its process ({@link LockStore.inspect}). */
export interface InspectedLock {
  readonly holder: LockRecord;
  readonly liveness: HolderLiveness;
}

/** A request to take a lock. */
export interface AcquireRequest {
  readonly owner: string;
  readonly nowMs: number;
  /** A lock older than this is stale and may be taken over. */
  readonly staleAfterMs: number;
}

/** The lock was taken; `tookOverFrom` is set when a stale holder was replaced. */
export interface Acquired {
  readonly kind: 'acquired';
  readonly record: LockRecord;
  readonly tookOverFrom?: LockRecord;
}

/** What releasing did: only the owner removes a lock. */
export type ReleaseOutcome = 'released' | 'not-owner' | 'absent';

/** Why a lock operation failed. `held` is the ordinary "someone else has it" answer. */
export type LockError =
  | { readonly kind: 'held'; readonly holder: LockRecord; readonly liveness?: HolderLiveness }
  | { readonly kind: 'io'; readonly message: string }
  | { readonly kind: 'corrupt'; readonly message: string };

/**
 * A mutual-exclusion lock with stale take-over. Acquisition is an exclusive create, never
 * check-then-write; release removes the lock only when it still names the caller.
 */
export interface LockStore {
  readonly acquire: (request: AcquireRequest) => ResultAsync<Acquired, LockError>;
  readonly read: () => ResultAsync<LockRecord | undefined, LockError>;
  /**
   * The holder (undefined = no lock) and its liveness, judged as `acquire` would judge it, so a
   * dry run or a status view can say "a beat would take this over at once". Optional: a store
   * that cannot tell leaves it out, and callers treat every holder as `unknown` (its age decides).
   */
  readonly inspect?: () => ResultAsync<InspectedLock | undefined, LockError>;
  readonly release: (owner: string) => ResultAsync<ReleaseOutcome, LockError>;
}
