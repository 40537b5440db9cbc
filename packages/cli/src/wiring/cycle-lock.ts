import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { LockError } from '@heartbeat-kit/core';
import { createFileLockStore } from '@heartbeat-kit/core/node';

/** A cycle that ran slower than this is presumed dead and its lock may be taken over. */
export const CYCLE_LOCK_STALE_MS = 15 * 60_000;

/** The lock file beside a state file. */
export function cycleLockPath(statePath: string): string {
  return join(dirname(statePath), 'cycle.lock');
}

/** What running under the cycle lock gave. */
export type Guarded<T> = { readonly kind: 'ran'; readonly value: T } | { readonly kind: 'held' } | { readonly kind: 'error'; readonly error: LockError };

/**
 * Runs `fn` holding the state file's cycle lock, so two cycles (a cron `cycle`, a `loop`) never
 * evaluate the same state at once. A held lock means "skip", not "wait".
 */
export async function withCycleLock<T>(statePath: string, fn: () => Promise<T>): Promise<Guarded<T>> {
  const lock = createFileLockStore({ path: cycleLockPath(statePath) });
  const owner = `${process.pid}-${randomUUID()}`;
  const acquired = await lock.acquire({ owner, nowMs: Date.now(), staleAfterMs: CYCLE_LOCK_STALE_MS });
  if (acquired.isErr()) return acquired.error.kind === 'held' ? { kind: 'held' } : { kind: 'error', error: acquired.error };
  try {
    return { kind: 'ran', value: await fn() };
  } finally {
    await lock.release(owner);
  }
}
