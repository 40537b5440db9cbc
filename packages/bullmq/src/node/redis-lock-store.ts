import type { Acquired, AcquireRequest, LockError, LockRecord, LockStore, ReleaseOutcome } from '@heartbeat-kit/core';
import { ResultAsync } from 'neverthrow';
import { describeRedisError, type RedisClient } from './redis-connection.js';

/** Options of {@link createRedisLockStore}. */
export interface RedisLockStoreOptions {
  readonly redis: RedisClient;
  /** The lock's hash key; the fencing counter is `<key>:fence`. */
  readonly key: string;
  /**
   * Redis-side expiry of a lock (milliseconds). Defaults to the request's `staleAfterMs`; a
   * holder that dies (or freezes) without renewing loses the lock this long after its last renewal.
   */
  readonly ttlMs?: number;
  /**
   * Replicas that must confirm a new fence (Redis `WAIT`, sent to the lock's master in the same
   * pipeline) before the acquisition counts (default 0). Redis replicates asynchronously: a master
   * that dies right after `INCR` can take the fence with it, and the promoted replica hands the
   * same number out again. With 1, an unconfirmed fence is released and reported as an `io` error.
   */
  readonly minReplicaAcks?: number;
  /** How long `WAIT` waits for those replicas (default 1000 ms). */
  readonly replicaAckTimeoutMs?: number;
}

/** A {@link LockStore} on Redis that can also renew a held lock and name its fencing key. */
export interface RedisLockStore extends LockStore {
  /** Extends the holder's lease; `lost` when the lock no longer names `owner`. */
  readonly renew: (owner: string, nowMs: number, ttlMs: number) => ResultAsync<'renewed' | 'lost', LockError>;
  /** The counter every acquisition `INCR`s: the highest fencing number ever handed out. */
  readonly fenceKey: string;
}

// Staleness is judged on the caller's clock (`nowMs`), like the file lock, and from the later of
// acquisition and last renewal; the PX expiry is the safety net for holders that vanish.
const ACQUIRE = `
local owner, now, stale, ttl = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local cur = redis.call('HMGET', KEYS[1], 'owner', 'at', 'renewed', 'fence')
local previous = false
if cur[1] then
  local since = math.max(tonumber(cur[2]), tonumber(cur[3] or cur[2]))
  local age = now - since
  if stale < 0 or age < 0 or age < stale then return {0, cur[1], cur[2], cur[4] or ''} end
  previous = cur
end
local fence = redis.call('INCR', KEYS[2])
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'owner', owner, 'at', ARGV[2], 'renewed', ARGV[2], 'fence', fence)
if ttl > 0 then redis.call('PEXPIRE', KEYS[1], ttl) end
if previous then return {1, fence, previous[1], previous[2], previous[4] or ''} end
return {1, fence}
`;

const RENEW = `
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'renewed', ARGV[2])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]))
return 1
`;

const RELEASE = `
local owner = redis.call('HGET', KEYS[1], 'owner')
if not owner then return 'absent' end
if owner ~= ARGV[1] then return 'not-owner' end
redis.call('DEL', KEYS[1])
return 'released'
`;

function recordOf(owner: string, at: string, fence: string): LockRecord {
  const base = { owner, acquiredAtMs: Number(at) };
  return fence === '' ? base : { ...base, fence: Number(fence) };
}

class Held extends Error {
  constructor(readonly holder: LockRecord) {
    super('held');
  }
}

function ioError(key: string, error: unknown): LockError {
  return { kind: 'io', message: `Redis lock ${key}: ${describeRedisError(error)}` };
}

/**
 * A {@link LockStore} on one Redis hash. Acquisition, renewal and release are Lua scripts, so
 * each is atomic: the holder is checked and replaced in one step (the `SET NX PX` idea, with a
 * take-over rule), renewal and release only act when the hash still names the caller, and every
 * acquisition `INCR`s a fencing counter that never goes down, even across Redis restarts with
 * append-only persistence. The counter survives the lock hash, so fences only ever grow.
 *
 * @example
 * ```ts
 * import { parseRedisUrl } from '@heartbeat-kit/bullmq';
 * import { createRedisClient, createRedisLockStore } from '@heartbeat-kit/bullmq/node';
 *
 * const target = parseRedisUrl('redis://127.0.0.1:6379');
 * if (target.isErr()) throw new Error(target.error);
 * const redis = createRedisClient(target.value);
 * const lock = createRedisLockStore({ redis, key: 'hb:api-repo:lock', ttlMs: 30_000 });
 * const taken = await lock.acquire({ owner: 'worker-1', nowMs: Date.now(), staleAfterMs: 30_000 });
 * if (taken.isOk()) console.log(taken.value.record.fence); // grows with every acquisition
 * await redis.quit();
 * ```
 */
export function createRedisLockStore(options: RedisLockStoreOptions): RedisLockStore {
  const { redis, key } = options;
  const fenceKey = `${key}:fence`;

  const acquire = async (request: AcquireRequest): Promise<Acquired> => {
    const stale = Number.isNaN(request.staleAfterMs) || !Number.isFinite(request.staleAfterMs) ? -1 : Math.max(0, request.staleAfterMs);
    const ttl = options.ttlMs ?? (stale > 0 ? stale : 0);
    const nowMs = Math.floor(request.nowMs);
    const args = [key, fenceKey, request.owner, String(nowMs), String(stale), String(Math.ceil(ttl))] as const;
    const acks = Math.max(0, options.minReplicaAcks ?? 0);
    let reply: (string | number)[];
    if (acks === 0) reply = (await redis.eval(ACQUIRE, 2, ...args)) as (string | number)[];
    else {
      // One pipeline: on a cluster it goes to the master of the lock's slot, so WAIT counts its replicas.
      const timeoutMs = Math.max(1, options.replicaAckTimeoutMs ?? 1000);
      const results =
        (await redis
          .pipeline()
          .eval(ACQUIRE, 2, ...args)
          .wait(acks, timeoutMs)
          .exec()) ?? [];
      const [evalError, evalReply] = results[0] ?? [new Error('no reply')];
      if (evalError) throw evalError;
      reply = evalReply as (string | number)[];
      const [waitError, confirmed] = results[1] ?? [new Error('no reply')];
      if (reply[0] === 1 && (waitError || Number(confirmed) < acks)) {
        await redis.eval(RELEASE, 1, key, request.owner).catch(() => undefined);
        throw new Error(
          `fence ${String(reply[1])} reached ${waitError ? 0 : Number(confirmed)} of ${acks} replica(s) within ${timeoutMs} ms; released it (a failover could have lost it)`,
        );
      }
    }
    if (reply[0] === 0) {
      throw new Held(recordOf(String(reply[1]), String(reply[2]), String(reply[3])));
    }
    const record: LockRecord = { owner: request.owner, acquiredAtMs: nowMs, fence: Number(reply[1]) };
    if (reply.length > 2) return { kind: 'acquired', record, tookOverFrom: recordOf(String(reply[2]), String(reply[3]), String(reply[4])) };
    return { kind: 'acquired', record };
  };

  const read = async (): Promise<LockRecord | undefined> => {
    const [owner, at, fence] = await redis.hmget(key, 'owner', 'at', 'fence');
    if (owner === null || owner === undefined || at === null || at === undefined) return undefined;
    return recordOf(owner, at, fence ?? '');
  };

  const mapError = (error: unknown): LockError => (error instanceof Held ? { kind: 'held', holder: error.holder } : ioError(key, error));

  return {
    fenceKey,
    acquire: (request) => ResultAsync.fromPromise(acquire(request), mapError),
    read: () => ResultAsync.fromPromise(read(), mapError),
    release: (owner) => ResultAsync.fromPromise(redis.eval(RELEASE, 1, key, owner) as Promise<ReleaseOutcome>, mapError),
    renew: (owner, nowMs, ttlMs) =>
      ResultAsync.fromPromise(
        (redis.eval(RENEW, 1, key, owner, String(Math.floor(nowMs)), String(Math.max(1, Math.ceil(ttlMs)))) as Promise<number>).then((n) =>
          n === 1 ? ('renewed' as const) : ('lost' as const),
        ),
        mapError,
      ),
  };
}
