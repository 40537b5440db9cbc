/**
 * The behaviour every {@link LockStore} adapter must have. Run it from a `*.test.ts` file with a
 * factory that returns a fresh store with no lock on each call. Times are whole seconds so a codec
 * that keeps seconds (WoterClip's) passes too.
 */
import type { LockStore } from '../../ports/lock-store.js';

/** Makes a fresh store with no lock for one test. */
export type LockStoreFactory = () => LockStore | Promise<LockStore>;

const T0 = 1_784_500_980_000;
const HOUR = 3_600_000;

/** Registers the LockStore contract suite under `describe(name)`. */
export async function lockStoreContract(name: string, makeStore: LockStoreFactory): Promise<void> {
  const { describe, expect, it } = await import('vitest');
  describe(`LockStore contract: ${name}`, () => {
    it('a fresh store has no lock; releasing it is absent', async () => {
      const store = await makeStore();
      expect((await store.read())._unsafeUnwrap()).toBeUndefined();
      expect((await store.release('nobody'))._unsafeUnwrap()).toBe('absent');
    });

    it('acquires a free lock and reads it back', async () => {
      const store = await makeStore();
      const acquired = (await store.acquire({ owner: 'beat-a', nowMs: T0, staleAfterMs: HOUR }))._unsafeUnwrap();
      expect(acquired.kind).toBe('acquired');
      expect(acquired.record).toMatchObject({ owner: 'beat-a', acquiredAtMs: T0 });
      expect(acquired.tookOverFrom).toBeUndefined();
      expect((await store.read())._unsafeUnwrap()).toMatchObject({ owner: 'beat-a', acquiredAtMs: T0 });
    });

    it('refuses a live lock with the holder, and leaves it in place', async () => {
      const store = await makeStore();
      (await store.acquire({ owner: 'beat-a', nowMs: T0, staleAfterMs: HOUR }))._unsafeUnwrap();
      const refused = (await store.acquire({ owner: 'beat-b', nowMs: T0 + HOUR - 1000, staleAfterMs: HOUR }))._unsafeUnwrapErr();
      expect(refused).toMatchObject({ kind: 'held', holder: { owner: 'beat-a', acquiredAtMs: T0 } });
      expect((await store.read())._unsafeUnwrap()?.owner).toBe('beat-a');
    });

    it('is not re-entrant: the holder asking again is refused', async () => {
      const store = await makeStore();
      (await store.acquire({ owner: 'beat-a', nowMs: T0, staleAfterMs: HOUR }))._unsafeUnwrap();
      expect((await store.acquire({ owner: 'beat-a', nowMs: T0 + 1000, staleAfterMs: HOUR }))._unsafeUnwrapErr().kind).toBe('held');
    });

    it('takes over a stale lock and reports whom it replaced', async () => {
      const store = await makeStore();
      (await store.acquire({ owner: 'beat-a', nowMs: T0, staleAfterMs: HOUR }))._unsafeUnwrap();
      const taken = (await store.acquire({ owner: 'beat-b', nowMs: T0 + HOUR, staleAfterMs: HOUR }))._unsafeUnwrap();
      expect(taken.record).toMatchObject({ owner: 'beat-b', acquiredAtMs: T0 + HOUR });
      expect(taken.tookOverFrom).toMatchObject({ owner: 'beat-a', acquiredAtMs: T0 });
      expect((await store.read())._unsafeUnwrap()?.owner).toBe('beat-b');
    });

    it('never takes over a lock from the future', async () => {
      const store = await makeStore();
      (await store.acquire({ owner: 'beat-a', nowMs: T0 + HOUR, staleAfterMs: HOUR }))._unsafeUnwrap();
      expect((await store.acquire({ owner: 'beat-b', nowMs: T0, staleAfterMs: 0 }))._unsafeUnwrapErr().kind).toBe('held');
    });

    it("a non-owner's release leaves the lock in place", async () => {
      const store = await makeStore();
      (await store.acquire({ owner: 'beat-a', nowMs: T0, staleAfterMs: HOUR }))._unsafeUnwrap();
      expect((await store.release('beat-b'))._unsafeUnwrap()).toBe('not-owner');
      expect((await store.read())._unsafeUnwrap()?.owner).toBe('beat-a');
    });

    it('the owner releases; then anyone can acquire', async () => {
      const store = await makeStore();
      (await store.acquire({ owner: 'beat-a', nowMs: T0, staleAfterMs: HOUR }))._unsafeUnwrap();
      expect((await store.release('beat-a'))._unsafeUnwrap()).toBe('released');
      expect((await store.read())._unsafeUnwrap()).toBeUndefined();
      expect((await store.release('beat-a'))._unsafeUnwrap()).toBe('absent');
      expect((await store.acquire({ owner: 'beat-b', nowMs: T0 + 1000, staleAfterMs: HOUR }))._unsafeUnwrap().record.owner).toBe('beat-b');
    });

    it('a superseded owner cannot release its successor (ownership rule)', async () => {
      const store = await makeStore();
      (await store.acquire({ owner: 'beat-a', nowMs: T0, staleAfterMs: HOUR }))._unsafeUnwrap();
      (await store.acquire({ owner: 'beat-b', nowMs: T0 + 2 * HOUR, staleAfterMs: HOUR }))._unsafeUnwrap();
      expect((await store.release('beat-a'))._unsafeUnwrap()).toBe('not-owner');
      expect((await store.read())._unsafeUnwrap()?.owner).toBe('beat-b');
    });

    it('of concurrent acquirers of a free lock exactly one wins', async () => {
      const store = await makeStore();
      const owners = Array.from({ length: 12 }, (_, index) => `racer-${index}`);
      const results = await Promise.all(owners.map((owner) => store.acquire({ owner, nowMs: T0, staleAfterMs: HOUR })));
      const winners = results.filter((result) => result.isOk());
      expect(winners).toHaveLength(1);
      for (const result of results) if (result.isErr()) expect(result.error.kind).toBe('held');
      expect((await store.read())._unsafeUnwrap()?.owner).toBe(winners[0]!._unsafeUnwrap().record.owner);
    });

    it('of concurrent takers of one stale lock exactly one wins', async () => {
      const store = await makeStore();
      (await store.acquire({ owner: 'stale', nowMs: T0, staleAfterMs: HOUR }))._unsafeUnwrap();
      const owners = Array.from({ length: 12 }, (_, index) => `taker-${index}`);
      const results = await Promise.all(owners.map((owner) => store.acquire({ owner, nowMs: T0 + 3 * HOUR, staleAfterMs: HOUR })));
      const winners = results.filter((result) => result.isOk());
      expect(winners).toHaveLength(1);
      // The racer that removed the stale lock may lose the create that follows; the winner still
      // names whom it replaced (WoterClip prints "Cleaned stale lockfile." from it).
      expect(winners[0]!._unsafeUnwrap().tookOverFrom?.owner).toBe('stale');
      expect((await store.read())._unsafeUnwrap()?.owner).toBe(winners[0]!._unsafeUnwrap().record.owner);
    });

    it('a stale owner releasing while others take over never leaves two holders', async () => {
      const store = await makeStore();
      (await store.acquire({ owner: 'stale', nowMs: T0, staleAfterMs: HOUR }))._unsafeUnwrap();
      const [released, ...taken] = await Promise.all([
        store.release('stale'),
        ...['x', 'y', 'z'].map((owner) => store.acquire({ owner, nowMs: T0 + 2 * HOUR, staleAfterMs: HOUR })),
      ]);
      // Depending on timing the stale owner removes its lock, finds a successor, or finds it gone.
      expect(['released', 'not-owner', 'absent']).toContain(released._unsafeUnwrap());
      const winners = taken.filter((result) => result.isOk());
      // Zero winners is allowed (the release may land after every taker looked), two never.
      expect(winners.length).toBeLessThanOrEqual(1);
      const holder = (await store.read())._unsafeUnwrap();
      if (winners.length === 1) expect(holder?.owner).toBe(winners[0]!._unsafeUnwrap().record.owner);
      else expect(holder === undefined || holder.owner === 'stale').toBe(true);
      for (const result of taken) if (result.isErr()) expect(result.error.kind).toBe('held');
    });
  });
}
