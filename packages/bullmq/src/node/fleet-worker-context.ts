import { randomUUID } from 'node:crypto';
import type { Clock, Sleep } from '@heartbeat-kit/core';
import type { ReceiptBounds } from '@heartbeat-kit/core/host';
import { parseRegistryEntry, type FleetHeartbeat } from '../fleet/fleet-heartbeat.js';
import { decodeFleetState, type FleetStateDocument } from '../fleet/fleet-state.js';
import type { FleetKeys } from './fleet-keys.js';
import type { FleetEvent } from './fleet-worker-types.js';
import { createRedisLockStore } from './redis-lock-store.js';
import { createRedisReceiptStore } from './redis-receipt-store.js';
import { createRedisAckStore } from './redis-ack-store.js';
import { createRedisPauseStore } from './redis-pause-store.js';
import { createRedisStateStore } from './redis-state-store.js';
import type { RedisClient } from './redis-connection.js';

/** What every job of one fleet worker shares: its id, Redis, keys, ports and settings. */
export interface WorkerContext {
  readonly id: string;
  readonly redis: RedisClient;
  readonly keys: FleetKeys;
  readonly clock: Clock;
  readonly sleep: Sleep;
  readonly receiptBounds: ReceiptBounds;
  readonly lockTtlMs: number;
  /** Replicas that must confirm each new fence (`RedisLockStoreOptions.minReplicaAcks`). */
  readonly minReplicaAcks: number;
  /** Says an event to `onEvent` and, with `journal`, appends it to the journal list. */
  readonly emit: (event: FleetEvent) => Promise<void>;
}

/** A job gave up waiting for the heartbeat lock: BullMQ retries it. */
export class LockBusy extends Error {}

const HOLD_POLL_MS = 20;

// Lock owners say what holds them, so a slot can tell a running cycle from a short outbox write.
const CYCLE_OWNER_TAG = ':cycle-';

/** The slot a cycle lock owner runs (its purpose is `cycle-<slot>`); NaN for any other owner. */
export function slotOfOwner(owner: string): number {
  return Number(/:cycle-(\d+):/.exec(owner)?.[1] ?? Number.NaN);
}

/** A held heartbeat lock, or (with `skipIfCycle`) the cycle that holds it. */
export type HeldLock =
  | { readonly skippedFor: string }
  | {
      readonly skippedFor: undefined;
      readonly fence: number;
      /** Who holds it (this processing of the job). */
      readonly owner: string;
      /** True once a renewal found the lock taken over. */
      readonly lost: () => boolean;
      /** True while no newer holder has taken the lock. */
      readonly current: () => Promise<boolean>;
      readonly release: () => Promise<void>;
    };

/**
 * Takes the heartbeat lock, waiting while another job holds it; renews it until `release`.
 * With `skipIfCycle`, a lock held by another cycle returns its owner at once instead: that
 * cycle covers this slot, and waiting would pin a worker slot behind one slow heartbeat.
 */
export async function holdLock(ctx: WorkerContext, heartbeatId: string, purpose: string, skipIfCycle = false): Promise<HeldLock> {
  const { clock, lockTtlMs, redis } = ctx;
  const lock = createRedisLockStore({ redis, key: ctx.keys.lock(heartbeatId), ttlMs: lockTtlMs, minReplicaAcks: ctx.minReplicaAcks });
  const owner = `${ctx.id}:${purpose}:${randomUUID().slice(0, 8)}`;
  const deadline = clock.now().getTime() + lockTtlMs;
  for (;;) {
    const acquired = await lock.acquire({ owner, nowMs: clock.now().getTime(), staleAfterMs: lockTtlMs });
    if (acquired.isOk()) {
      const fence = acquired.value.record.fence ?? 0;
      let lost = false;
      const renew = () =>
        void lock.renew(owner, clock.now().getTime(), lockTtlMs).then((renewed) => {
          if (renewed.isOk() && renewed.value === 'lost') lost = true;
        });
      const timer = setInterval(renew, Math.max(10, Math.floor(lockTtlMs / 3)));
      return {
        skippedFor: undefined,
        fence,
        owner,
        lost: () => lost,
        current: async () => Number((await redis.get(lock.fenceKey)) ?? '0') === fence,
        release: async () => {
          clearInterval(timer);
          await lock.release(owner);
        },
      };
    }
    if (acquired.error.kind !== 'held') throw new Error(acquired.error.message);
    if (skipIfCycle && acquired.error.holder.owner.includes(CYCLE_OWNER_TAG)) return { skippedFor: acquired.error.holder.owner };
    // Waiting beats failing: the holder is usually the previous slot or the outbox, both short.
    if (clock.now().getTime() >= deadline) throw new LockBusy(`heartbeat ${heartbeatId} is locked by ${acquired.error.holder.owner}`);
    await ctx.sleep.sleep(HOLD_POLL_MS + Math.floor(Math.random() * HOLD_POLL_MS));
  }
}

/** The heartbeat's registration, or undefined when it was removed (or is unreadable). */
export async function registration(ctx: WorkerContext, heartbeatId: string): Promise<FleetHeartbeat | undefined> {
  const text = await ctx.redis.hget(ctx.keys.registry, heartbeatId);
  if (text === null) return undefined;
  // Unreadable (hand-edited, not JSON) counts as removed: its ticks and cycles are dropped, the rest go on.
  return parseRegistryEntry(text).unwrapOr(undefined);
}

/** The heartbeat's fenced state store. */
export function stateStoreFor(ctx: WorkerContext, heartbeatId: string) {
  return createRedisStateStore({ redis: ctx.redis, key: ctx.keys.state(heartbeatId), lockFenceKey: `${ctx.keys.lock(heartbeatId)}:fence` });
}

/** The heartbeat's operator acks. */
export function ackStoreFor(ctx: WorkerContext, heartbeatId: string) {
  return createRedisAckStore({ redis: ctx.redis, key: ctx.keys.acks(heartbeatId) });
}

/** The heartbeat's operator pause (`heartbeat-kit fleet pause`). */
export function pauseStoreFor(ctx: WorkerContext, heartbeatId: string) {
  return createRedisPauseStore({ redis: ctx.redis, key: ctx.keys.pause(heartbeatId) });
}

/** The heartbeat's receipt store. */
export function receiptStoreFor(ctx: WorkerContext, heartbeatId: string) {
  return createRedisReceiptStore({ redis: ctx.redis, key: ctx.keys.receipts(heartbeatId), bounds: ctx.receiptBounds, clock: ctx.clock });
}

/** Loads a state document; a Redis failure fails the job (BullMQ retries it). */
export async function loadState(store: ReturnType<typeof stateStoreFor>): Promise<FleetStateDocument> {
  const loaded = await store.load();
  if (loaded.isErr()) throw new Error(loaded.error.message);
  return decodeFleetState(loaded.value.document).state;
}
