import type { JsonValue } from '@heartbeat-kit/core';
import { type AckStore, type AckStoreError, decodeAckBook, encodeAckBook, type LoadedAcks } from '@heartbeat-kit/core/host';
import type { RedisClient } from './redis-connection.js';
import { ResultAsync } from 'neverthrow';
import { describeRedisError } from './redis-connection.js';

/** Options of {@link createRedisAckStore}. */
export interface RedisAckStoreOptions {
  readonly redis: RedisClient;
  /** The key of the heartbeat's acks (`FleetKeys.acks(id)`). */
  readonly key: string;
}

/**
 * An {@link AckStore} on one Redis string per heartbeat. `SET` is atomic: a worker's slot reads
 * the previous book or the new one, never half, so an ack is fully in a slot's decision or in the
 * next one's. A value that is not JSON holds nothing and says so; the next save replaces it.
 *
 * @example
 * ```ts
 * import { createRedisAckStore, createRedisClient, fleetKeys } from '@heartbeat-kit/bullmq/node';
 *
 * const redis = createRedisClient({ kind: 'tcp', host: '127.0.0.1', port: 6379 });
 * const acks = createRedisAckStore({ redis, key: fleetKeys().acks('api-repo') });
 * const loaded = await acks.load();
 * if (loaded.isOk()) console.log(loaded.value.book.acks.length);
 * await redis.quit();
 * ```
 */
export function createRedisAckStore(options: RedisAckStoreOptions): AckStore {
  const { redis, key } = options;
  const error =
    (action: string) =>
    (cause: unknown): AckStoreError => ({
      kind: 'io',
      message: `Could not ${action} acks ${key}: ${describeRedisError(cause)}`,
    });
  const load = async (): Promise<LoadedAcks> => {
    const text = await redis.get(key);
    if (text === null) return decodeAckBook(undefined);
    let document: JsonValue;
    try {
      document = JSON.parse(text) as JsonValue;
    } catch {
      return {
        book: decodeAckBook(undefined).book,
        warnings: [`acks ${key} are not valid JSON; no ack holds anything until the next ack rewrites them`],
      };
    }
    const decoded = decodeAckBook(document);
    return { book: decoded.book, warnings: decoded.warnings.map((w) => `${key}: ${w}`) };
  };
  return {
    load: () => ResultAsync.fromPromise(load(), error('read')),
    save: (book) =>
      ResultAsync.fromPromise(
        redis.set(key, JSON.stringify(encodeAckBook(book))).then(() => undefined),
        error('write'),
      ),
  };
}
