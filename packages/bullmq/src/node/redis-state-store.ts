import type { JsonValue, LoadedState, StateStore, StateStoreError } from '@heartbeat-kit/core';
import { ResultAsync } from 'neverthrow';
import { describeRedisError, type RedisClient } from './redis-connection.js';

/** Options of {@link createRedisStateStore}. */
export interface RedisStateStoreOptions {
  readonly redis: RedisClient;
  /** The document's key; the highest fence that wrote it is kept at `<key>:fence`. */
  readonly key: string;
  /**
   * The fencing counter of the lock that guards this document (`RedisLockStore.fenceKey`).
   * When set, a fenced write is rejected as soon as a newer holder has *acquired* the lock,
   * not only once it has written.
   */
  readonly lockFenceKey?: string;
}

// One script so the fence check and the write cannot be separated by another writer.
const SAVE = `
local fence = ARGV[2]
if fence ~= '' then
  local f = tonumber(fence)
  local written = tonumber(redis.call('GET', KEYS[2]) or '0')
  local issued = 0
  if KEYS[3] ~= KEYS[2] then issued = tonumber(redis.call('GET', KEYS[3]) or '0') end
  local current = math.max(written, issued)
  if f < current then return {0, current} end
  if f > written then redis.call('SET', KEYS[2], fence) end
end
redis.call('SET', KEYS[1], ARGV[1])
return {1, 0}
`;

class StaleFence extends Error {
  constructor(
    readonly fence: number,
    readonly current: number,
  ) {
    super('stale fence');
  }
}

/**
 * A {@link StateStore} on one Redis string. Redis `SET` is atomic, so a reader never sees a torn
 * document. A save with `fence` is rejected (`stale-fence`) when a newer lock holder exists:
 * a writer frozen past its lease (GC pause, SIGSTOP) cannot overwrite its successor's state.
 * A document that is not JSON is renamed to `<key>:corrupt:<ms>` and reported, like the file store.
 *
 * @example
 * ```ts
 * import { parseRedisUrl } from '@heartbeat-kit/bullmq';
 * import { createRedisClient, createRedisStateStore } from '@heartbeat-kit/bullmq/node';
 *
 * const target = parseRedisUrl('redis://127.0.0.1:6379');
 * if (target.isErr()) throw new Error(target.error);
 * const redis = createRedisClient(target.value);
 * // A write carrying an older fence than the lock's newest holder is rejected (`stale-fence`).
 * const state = createRedisStateStore({ redis, key: 'hb:api-repo:state', lockFenceKey: 'hb:api-repo:lock:fence' });
 * const saved = await state.save({ version: 1 }, { fence: 7 });
 * if (saved.isErr()) console.log(saved.error.kind);
 * await redis.quit();
 * ```
 */
export function createRedisStateStore(options: RedisStateStoreOptions): StateStore {
  const { redis, key } = options;
  const writtenFenceKey = `${key}:fence`;

  const load = async (): Promise<LoadedState> => {
    const text = await redis.get(key);
    if (text === null) return { document: undefined, warnings: [] };
    try {
      return { document: JSON.parse(text) as JsonValue, warnings: [] };
    } catch (error) {
      const aside = `${key}:corrupt:${String(await redis.time().then(([s, us]) => Number(s) * 1000 + Math.floor(Number(us) / 1000)))}`;
      await redis.rename(key, aside).catch(() => undefined);
      return {
        document: undefined,
        warnings: [`State ${key} was not valid JSON (${describeRedisError(error)}); moved it to ${aside} and started from empty state.`],
      };
    }
  };

  const save = async (document: JsonValue, fence: number | undefined): Promise<void> => {
    const reply = (await redis.eval(
      SAVE,
      3,
      key,
      writtenFenceKey,
      options.lockFenceKey ?? writtenFenceKey,
      JSON.stringify(document),
      fence === undefined ? '' : String(fence),
    )) as number[];
    if (reply[0] === 0) throw new StaleFence(fence ?? 0, Number(reply[1]));
  };

  const mapError =
    (action: string) =>
    (error: unknown): StateStoreError =>
      error instanceof StaleFence
        ? {
            kind: 'stale-fence',
            message: `State ${key}: write with fence ${error.fence} rejected, fence ${error.current} is newer (the lock changed hands)`,
            fence: error.fence,
            current: error.current,
          }
        : { kind: 'io', message: `Could not ${action} state ${key}: ${describeRedisError(error)}` };

  return {
    load: () => ResultAsync.fromPromise(load(), mapError('read')),
    save: (document, saveOptions) => ResultAsync.fromPromise(save(document, saveOptions?.fence), mapError('write')),
  };
}
