import { type Pause, pauseSchema, type PauseStore, type PauseStoreError } from '@heartbeat-kit/core/host';
import { ResultAsync } from 'neverthrow';
import type { RedisClient } from './redis-connection.js';
import { describeRedisError } from './redis-connection.js';

/** Options of {@link createRedisPauseStore}. */
export interface RedisPauseStoreOptions {
  readonly redis: RedisClient;
  /** The key of the heartbeat's pause (`FleetKeys.pause(id)`). */
  readonly key: string;
}

class InvalidPause extends Error {}

function parsePause(text: string): Pause {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InvalidPause('not valid JSON');
  }
  const parsed = pauseSchema.safeParse(value);
  if (!parsed.success) throw new InvalidPause(parsed.error.issues.map((i) => `${i.path.join('.') || 'pause'}: ${i.message}`).join('; '));
  return parsed.data;
}

/**
 * A {@link PauseStore} on one Redis string per heartbeat. `SET` and `GETDEL` are atomic: a worker's
 * slot reads the old pause or the new one, never half, so a pause is entirely in a slot's decision
 * or in the next one's. A damaged value is an `invalid` error; `clear` removes it all the same.
 *
 * @example
 * ```ts
 * import { createRedisClient, createRedisPauseStore, fleetKeys } from '@heartbeat-kit/bullmq/node';
 *
 * const redis = createRedisClient({ kind: 'tcp', host: '127.0.0.1', port: 6379 });
 * const pause = createRedisPauseStore({ redis, key: fleetKeys().pause('api-repo') });
 * await pause.write({ v: 1, note: 'deploying', since: new Date().toISOString() });
 * await redis.quit();
 * ```
 */
export function createRedisPauseStore(options: RedisPauseStoreOptions): PauseStore {
  const { redis, key } = options;
  const fail =
    (action: string) =>
    (cause: unknown): PauseStoreError =>
      cause instanceof InvalidPause
        ? {
            kind: 'invalid',
            message: `pause ${key} is not a pause (${cause.message}); fix: run 'heartbeat-kit fleet resume' to remove it`,
          }
        : { kind: 'io', message: `Could not ${action} pause ${key}: ${describeRedisError(cause)}` };
  const read = async (): Promise<Pause | undefined> => {
    const text = await redis.get(key);
    return text === null ? undefined : parsePause(text);
  };
  const write = async (pause: Pause): Promise<void> => {
    const checked = pauseSchema.safeParse(pause);
    if (!checked.success)
      throw new InvalidPause(checked.error.issues.map((i) => `${i.path.join('.') || 'pause'}: ${i.message}`).join('; '));
    await redis.set(key, JSON.stringify(checked.data));
  };
  const clear = async (): Promise<Pause | undefined> => {
    // One GETDEL: the pause removed is the one returned, even with a pause written meanwhile.
    const text = await redis.getdel(key);
    if (text === null) return undefined;
    try {
      return parsePause(text);
    } catch {
      return undefined; // a damaged pause is still removed: resume must always end a pause
    }
  };
  return {
    read: () => ResultAsync.fromPromise(read(), fail('read')),
    write: (pause) => ResultAsync.fromPromise(write(pause), fail('write')),
    clear: () => ResultAsync.fromPromise(clear(), fail('remove')),
  };
}
