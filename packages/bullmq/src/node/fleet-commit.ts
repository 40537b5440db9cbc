import type { JsonValue, Receipt } from '@heartbeat-kit/core';
import type { ReceiptBounds } from '@heartbeat-kit/core/host';
import { appendReceiptsLua } from './redis-receipt-store.js';
import type { RedisClient } from './redis-connection.js';

// The fenced save of redis-state-store.ts and the receipt append of redis-receipt-store.ts in one
// script: Redis runs it atomically (and logs it as one MULTI in the append-only file), so a slot's
// state and its receipt are written together or not at all, whoever dies when.
const COMMIT = `
local f = tonumber(ARGV[2])
local written = tonumber(redis.call('GET', KEYS[2]) or '0')
local issued = tonumber(redis.call('GET', KEYS[3]) or '0')
local current = math.max(written, issued)
if f < current then return {0, current} end
if f > written then redis.call('SET', KEYS[2], ARGV[2]) end
redis.call('SET', KEYS[1], ARGV[1])
${appendReceiptsLua(4, 3)}
return {1, 0}
`;

/** Where one heartbeat's commit writes. */
export interface CommitKeys {
  readonly state: string;
  /** The lock's fencing counter (`RedisLockStore.fenceKey`). */
  readonly lockFence: string;
  readonly receipts: string;
}

/**
 * Saves a heartbeat's state under `fence` and appends its receipts, atomically. Resolves
 * `{ ok: false, current }` when a newer lock holder exists (nothing was written).
 */
export async function commitCycle(
  redis: RedisClient,
  keys: CommitKeys,
  document: JsonValue,
  fence: number,
  receipts: readonly Receipt[],
  bounds: ReceiptBounds,
): Promise<{ readonly written: true } | { readonly written: false; readonly current: number }> {
  const reply = (await redis.eval(
    COMMIT,
    4,
    keys.state,
    `${keys.state}:fence`,
    keys.lockFence,
    keys.receipts,
    JSON.stringify(document),
    String(fence),
    String(bounds.maxCount),
    String(bounds.maxAgeMs),
    ...receipts.map((receipt) => JSON.stringify(receipt)),
  )) as number[];
  return reply[0] === 1 ? { written: true } : { written: false, current: Number(reply[1]) };
}
