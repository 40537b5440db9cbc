import type { Clock, ListedReceipts, Receipt, ReceiptStore, ReceiptStoreError } from '@heartbeat-kit/core';
import { pruneReceipts, type ReceiptBounds, receiptSchema } from '@heartbeat-kit/core/host';
import { ResultAsync } from 'neverthrow';
import { describeRedisError, type RedisClient } from './redis-connection.js';

/**
 * Receipts a fleet heartbeat keeps: 200 records (a day and a half of 10-minute slots) and 7 days.
 * Smaller than a single project's default because one Redis holds thousands of heartbeats.
 */
export const DEFAULT_FLEET_RECEIPT_BOUNDS: ReceiptBounds = { maxCount: 200, maxAgeMs: 7 * 24 * 3_600_000 };

/**
 * Lua that appends receipts to a list and bounds it; `keyIndex`/`argIndex` say where its key and
 * arguments (max count, TTL ms, receipts…) start, so the fleet's commit script can include it.
 */
export function appendReceiptsLua(keyIndex: number, argIndex: number): string {
  return `
for i = ${argIndex + 2}, #ARGV do redis.call('RPUSH', KEYS[${keyIndex}], ARGV[i]) end
if #ARGV >= ${argIndex + 2} then
  redis.call('LTRIM', KEYS[${keyIndex}], -tonumber(ARGV[${argIndex}]), -1)
  redis.call('PEXPIRE', KEYS[${keyIndex}], ARGV[${argIndex + 1}])
end
`;
}

const APPEND = `${appendReceiptsLua(1, 1)}\nreturn 1`;

/** Options of {@link createRedisReceiptStore}. */
export interface RedisReceiptStoreOptions {
  readonly redis: RedisClient;
  /** The list holding this heartbeat's receipts (the fleet uses `{<prefix>:hb:<id>}:receipts`). */
  readonly key: string;
  /** Count and age bounds (default {@link DEFAULT_FLEET_RECEIPT_BOUNDS}). */
  readonly bounds?: ReceiptBounds;
  /** Judges the age bound when listing. */
  readonly clock: Clock;
}

/** Reads one heartbeat's receipt list: unreadable entries are warnings, the rest bounded and in time order. */
export function parseReceiptEntries(entries: readonly string[], nowMs: number, bounds: ReceiptBounds): ListedReceipts {
  const receipts: Receipt[] = [];
  let invalid = 0;
  for (const text of entries) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      invalid += 1;
      continue;
    }
    const parsed = receiptSchema.safeParse(value);
    if (parsed.success) receipts.push(parsed.data);
    else invalid += 1;
  }
  return {
    receipts: pruneReceipts(receipts, nowMs, bounds),
    warnings: invalid === 0 ? [] : [`${invalid} receipt entr${invalid === 1 ? 'y' : 'ies'} could not be read and were skipped`],
  };
}

/**
 * A {@link ReceiptStore} on one Redis list per heartbeat. Each append is one script (push, trim to
 * the newest `maxCount`, expire the key `maxAgeMs` after the last append), so concurrent appends
 * from several workers are all kept and the list never grows past its bound; with Redis'
 * append-only file fsynced per write, an acknowledged append survives a crash of either side.
 * The age bound is applied when listing (and by the key's expiry).
 *
 * @example
 * ```ts
 * import { skippedReceipt } from '@heartbeat-kit/core';
 * import { systemClock } from '@heartbeat-kit/core/node';
 * import { parseRedisUrl } from '@heartbeat-kit/bullmq';
 * import { createRedisClient, createRedisReceiptStore } from '@heartbeat-kit/bullmq/node';
 *
 * const redis = createRedisClient(parseRedisUrl('redis://127.0.0.1:6379')._unsafeUnwrap());
 * const receipts = createRedisReceiptStore({ redis, key: '{hbk:hb:api-repo}:receipts', clock: systemClock });
 * await receipts.append(skippedReceipt('overlapping', { slotMs: Date.now(), atMs: Date.now(), source: 'fleet' }));
 * console.log((await receipts.list())._unsafeUnwrap().receipts.length);
 * await redis.quit();
 * ```
 */
export function createRedisReceiptStore(options: RedisReceiptStoreOptions): ReceiptStore {
  const { redis, key, clock } = options;
  const bounds = options.bounds ?? DEFAULT_FLEET_RECEIPT_BOUNDS;
  const io =
    (action: string) =>
    (error: unknown): ReceiptStoreError => ({ kind: 'io', message: `Could not ${action} receipts ${key}: ${describeRedisError(error)}` });
  return {
    append: (receipt) =>
      ResultAsync.fromPromise(
        redis.eval(APPEND, 1, key, String(bounds.maxCount), String(bounds.maxAgeMs), JSON.stringify(receipt)).then(() => undefined),
        io('append to'),
      ),
    list: () =>
      ResultAsync.fromPromise(
        redis.lrange(key, 0, -1).then((entries) => parseReceiptEntries(entries, clock.now().getTime(), bounds)),
        io('read'),
      ),
  };
}
