import type { Receipt } from '@heartbeat-kit/core';
import type { ReceiptBounds } from '@heartbeat-kit/core/host';
import { appendReceiptsLua } from './redis-receipt-store.js';
import type { RedisClient } from './redis-connection.js';

// A slot skipped because an earlier slot's cycle holds the lock is recorded at once, but the state
// (lastSlot) cannot say so: only the holder may write it. BullMQ delivers a job at least once — a
// stalled job (its worker starved of CPU past the job lock) or one whose completion a failover lost
// is processed again — so without a mark the second processing records the overlap again, or, once
// the holder has committed, runs the slot: two records for one slot. The mark is a sorted set of the
// slots closed this way (score = member = slot), bounded like the receipts, in the heartbeat's tag.
// A config error (the job then fails for good) closes its slot the same way, for the same reason.
const RECORD_ONCE = `
if redis.call('HGET', KEYS[2], 'owner') ~= ARGV[1] then return 0 end
if redis.call('ZADD', KEYS[3], 'NX', ARGV[2], ARGV[2]) == 0 then return 2 end
redis.call('ZREMRANGEBYRANK', KEYS[3], 0, -tonumber(ARGV[3]) - 1)
redis.call('PEXPIRE', KEYS[3], ARGV[4])
${appendReceiptsLua(1, 3)}
return 1
`;

/** Where a heartbeat's overlap records go. */
export interface OverlapKeys {
  readonly receipts: string;
  readonly lock: string;
  /** The sorted set of slots closed by an overlap record (`FleetKeys.overlaps`). */
  readonly overlaps: string;
}

/**
 * Records `slot` as skipped (`receipt`: an overlap, or a config error that fails the job) only
 * while `owner` still holds the heartbeat lock, and only once per slot. 'recorded' or 'already' (an earlier processing of the same job recorded it): the
 * slot is closed either way. 'holder-changed': nothing written, the caller decides again.
 */
export async function recordSlotOnce(
  redis: RedisClient,
  keys: OverlapKeys,
  owner: string,
  slot: number,
  receipt: Receipt,
  bounds: ReceiptBounds,
): Promise<'recorded' | 'already' | 'holder-changed'> {
  const reply = await redis.eval(
    RECORD_ONCE,
    3,
    keys.receipts,
    keys.lock,
    keys.overlaps,
    owner,
    String(slot),
    String(bounds.maxCount),
    String(bounds.maxAgeMs),
    JSON.stringify(receipt),
  );
  return reply === 1 ? 'recorded' : reply === 2 ? 'already' : 'holder-changed';
}

/** True when a record of its own (an overlap, a config error) already closed `slot`: a second processing of its job must not run it. */
export async function closedByOverlap(redis: RedisClient, overlapsKey: string, slot: number): Promise<boolean> {
  return (await redis.zscore(overlapsKey, String(slot))) !== null;
}
