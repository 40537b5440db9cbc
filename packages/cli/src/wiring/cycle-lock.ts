import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { AcquireRequest, LockError, LockRecord, LockStore } from '@heartbeat-kit/core';
import type { HolderLiveness } from '@heartbeat-kit/core/host';
import { createFileLockStore } from '@heartbeat-kit/core/node';

/**
 * A cycle lock whose holder's liveness cannot be checked (another host, or a record without a
 * pid) is presumed dead after this long and may be taken over. On the same host a dead holder's
 * lock is taken over at once and a live holder's never.
 */
export const CYCLE_LOCK_STALE_MS = 15 * 60_000;

/** The lock file beside a state file. */
export function cycleLockPath(statePath: string): string {
  return join(dirname(statePath), 'cycle.lock');
}

/** What running under the cycle lock gave. */
export type Guarded<T> =
  | { readonly kind: 'ran'; readonly value: T; readonly tookOverFrom?: LockRecord }
  | { readonly kind: 'held'; readonly holder: LockRecord; readonly liveness: HolderLiveness }
  | { readonly kind: 'error'; readonly error: LockError };

function ago(ms: number): string {
  if (!(ms >= 0)) return 'from a clock ahead of this one';
  const s = Math.round(ms / 1000);
  return s < 120 ? `${s} s` : s < 7200 ? `${Math.round(s / 60)} min` : `${Math.round(s / 3600)} h`;
}

/**
 * One line naming a lock holder for the operator: pid, host, whether it is alive and how long
 * it has held the lock, e.g. `pid 4242 on build-1 (alive), holding it for 12 s`.
 */
export function describeHolder(holder: LockRecord, liveness: HolderLiveness | undefined, nowMs: number): string {
  const who =
    holder.pid === undefined
      ? `owner ${JSON.stringify(holder.owner)}`
      : `pid ${holder.pid}${holder.host === undefined ? '' : ` on ${holder.host}`}`;
  const state = liveness === undefined ? '' : liveness === 'alive' ? ' (alive)' : liveness === 'dead' ? ' (dead)' : ' (liveness unknown)';
  return `${who}${state}, holding it for ${ago(nowMs - holder.acquiredAtMs)}`;
}

/** Why a cycle was skipped, for stderr and `--json`: who holds the lock and what to do about it. */
export function skipReason(statePath: string, guarded: Extract<Guarded<unknown>, { kind: 'held' }>, nowMs: number): string {
  const { holder, liveness } = guarded;
  const fix =
    liveness === 'alive'
      ? `it is still running; if it is hung, stop that process (kill ${holder.pid ?? '<pid>'})`
      : `it will be taken over once ${ago(CYCLE_LOCK_STALE_MS)} old; if no cycle runs on ${holder.host ?? 'its host'}, delete ${cycleLockPath(statePath)}`;
  return `another cycle holds ${cycleLockPath(statePath)}: ${describeHolder(holder, liveness, nowMs)}; ${fix}`;
}

/**
 * Runs `fn` holding the state file's cycle lock, so two cycles (a cron `cycle`, a `loop`) never
 * evaluate the same state at once. A held lock means "skip", not "wait"; the caller says why.
 */
export async function withCycleLock<T>(statePath: string, fn: () => Promise<T>): Promise<Guarded<T>> {
  const lock = createFileLockStore({ path: cycleLockPath(statePath) });
  const owner = `${process.pid}-${randomUUID()}`;
  const acquired = await lock.acquire({ owner, nowMs: Date.now(), staleAfterMs: CYCLE_LOCK_STALE_MS });
  if (acquired.isErr()) {
    const error = acquired.error;
    return error.kind === 'held' ? { kind: 'held', holder: error.holder, liveness: error.liveness ?? 'unknown' } : { kind: 'error', error };
  }
  try {
    const value = await fn();
    const { tookOverFrom } = acquired.value;
    return tookOverFrom === undefined ? { kind: 'ran', value } : { kind: 'ran', value, tookOverFrom };
  } finally {
    await lock.release(owner);
  }
}

/**
 * The cycle lock as a slot takes it (core's `runSlot`): the file lock beside the state, a fresh
 * owner, the wall clock's instant, the same staleness as {@link withCycleLock}.
 */
export function cycleSlotLock(statePath: string): { store: LockStore; request: AcquireRequest; detail: string } {
  const store = createFileLockStore({ path: cycleLockPath(statePath) });
  const request = { owner: `${process.pid}-${randomUUID()}`, nowMs: Date.now(), staleAfterMs: CYCLE_LOCK_STALE_MS };
  return { store, request, detail: cycleLockPath(statePath) };
}
