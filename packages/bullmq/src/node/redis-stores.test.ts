import { describe, expect, it } from 'vitest';
import { useRedis } from '../../test/support/redis-server.js';
import { createRedisLockStore } from './redis-lock-store.js';
import { createRedisStateStore } from './redis-state-store.js';

const redis = useRedis();
let counter = 0;
const key = (name: string): string => `unit:${name}:${(counter += 1)}`;

describe('createRedisLockStore', () => {
  it('hands out fencing numbers that grow with every acquisition, across releases', async () => {
    const store = createRedisLockStore({ redis: redis.client, key: key('lock') });
    const fences: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const acquired = (await store.acquire({ owner: `o${i}`, nowMs: 1000 + i, staleAfterMs: 60_000 }))._unsafeUnwrap();
      fences.push(acquired.record.fence!);
      expect((await store.read())._unsafeUnwrap()?.fence).toBe(acquired.record.fence);
      expect((await store.release(`o${i}`))._unsafeUnwrap()).toBe('released');
    }
    expect(fences).toEqual([1, 2, 3, 4, 5]);
  });

  it('renewal extends only the current owner and postpones staleness', async () => {
    const store = createRedisLockStore({ redis: redis.client, key: key('lock') });
    (await store.acquire({ owner: 'a', nowMs: 1000, staleAfterMs: 1000 }))._unsafeUnwrap();
    expect((await store.renew('b', 1500, 1000))._unsafeUnwrap()).toBe('lost');
    expect((await store.renew('a', 1800, 1000))._unsafeUnwrap()).toBe('renewed');
    // 1000 ms after acquisition but only 400 ms after the renewal: still live.
    expect((await store.acquire({ owner: 'b', nowMs: 2200, staleAfterMs: 1000 }))._unsafeUnwrapErr().kind).toBe('held');
    const taken = (await store.acquire({ owner: 'b', nowMs: 2800, staleAfterMs: 1000 }))._unsafeUnwrap();
    expect(taken.tookOverFrom?.owner).toBe('a');
    expect((await store.renew('a', 2900, 1000))._unsafeUnwrap()).toBe('lost');
  });

  it('a holder that stops renewing loses the lock when its Redis lease expires', async () => {
    const store = createRedisLockStore({ redis: redis.client, key: key('lock'), ttlMs: 150 });
    (await store.acquire({ owner: 'a', nowMs: Date.now(), staleAfterMs: 3_600_000 }))._unsafeUnwrap();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await store.read())._unsafeUnwrap()).toBeUndefined();
    const next = (await store.acquire({ owner: 'b', nowMs: Date.now(), staleAfterMs: 3_600_000 }))._unsafeUnwrap();
    expect(next.record.fence).toBe(2);
  });
});

describe('createRedisStateStore with fencing', () => {
  it('rejects a write whose fence is older than the newest holder, even before that holder writes', async () => {
    const lock = createRedisLockStore({ redis: redis.client, key: key('lock') });
    const state = createRedisStateStore({ redis: redis.client, key: key('state'), lockFenceKey: lock.fenceKey });
    const first = (await lock.acquire({ owner: 'a', nowMs: 1000, staleAfterMs: 100 }))._unsafeUnwrap().record.fence!;
    (await state.save({ by: 'a' }, { fence: first }))._unsafeUnwrap();
    const second = (await lock.acquire({ owner: 'b', nowMs: 5000, staleAfterMs: 100 }))._unsafeUnwrap().record.fence!;
    expect(second).toBeGreaterThan(first);
    const rejected = (await state.save({ by: 'a, late' }, { fence: first }))._unsafeUnwrapErr();
    expect(rejected).toMatchObject({ kind: 'stale-fence', fence: first, current: second });
    expect((await state.load())._unsafeUnwrap().document).toEqual({ by: 'a' });
    (await state.save({ by: 'b' }, { fence: second }))._unsafeUnwrap();
    expect((await state.load())._unsafeUnwrap().document).toEqual({ by: 'b' });
  });

  it('without a lock key, the highest fence that wrote wins', async () => {
    const state = createRedisStateStore({ redis: redis.client, key: key('state') });
    (await state.save({ n: 1 }, { fence: 5 }))._unsafeUnwrap();
    expect((await state.save({ n: 2 }, { fence: 4 }))._unsafeUnwrapErr().kind).toBe('stale-fence');
    (await state.save({ n: 3 }, { fence: 5 }))._unsafeUnwrap();
    expect((await state.load())._unsafeUnwrap().document).toEqual({ n: 3 });
  });

  it('sets a corrupt document aside with a warning', async () => {
    const k = key('state');
    await redis.client.set(k, '{"broken":');
    const loaded = (await createRedisStateStore({ redis: redis.client, key: k }).load())._unsafeUnwrap();
    expect(loaded.document).toBeUndefined();
    expect(loaded.warnings[0]).toContain(`${k}:corrupt:`);
    expect(await redis.client.exists(k)).toBe(0);
    expect((await redis.client.keys(`${k}:corrupt:*`)).length).toBe(1);
  });
});
