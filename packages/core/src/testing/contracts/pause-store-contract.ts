/**
 * The behaviour every {@link PauseStore} adapter must have. `makeStore()` returns a fresh, empty store.
 */
import type { Pause } from '../../operator/pause-model.js';
import type { PauseStore } from '../../operator/pause-store.js';

/** Makes a fresh, empty store for one test. */
export type PauseStoreFactory = () => PauseStore | Promise<PauseStore>;

const PAUSE: Pause = { v: 1, note: 'deploying the runner', since: '2026-02-19T10:00:00.000Z', until: '2026-02-19T12:00:00.000Z' };

/** Registers the PauseStore contract suite under `describe(name)`. */
export async function pauseStoreContract(name: string, makeStore: PauseStoreFactory): Promise<void> {
  const { describe, expect, it } = await import('vitest');
  describe(`PauseStore contract: ${name}`, () => {
    it('a fresh store holds no pause, and clearing it is not an error', async () => {
      const store = await makeStore();
      expect((await store.read())._unsafeUnwrap()).toBeUndefined();
      expect((await store.clear())._unsafeUnwrap()).toBeUndefined();
    });

    it('reads back what was written, whole; a second write replaces the first', async () => {
      const store = await makeStore();
      (await store.write(PAUSE))._unsafeUnwrap();
      expect((await store.read())._unsafeUnwrap()).toEqual(PAUSE);
      const scoped: Pause = { v: 1, note: 'git only', since: PAUSE.since, scanners: ['git'], exceptCritical: true };
      (await store.write(scoped))._unsafeUnwrap();
      expect((await store.read())._unsafeUnwrap()).toEqual(scoped);
    });

    it('clear returns the pause it removed and leaves none', async () => {
      const store = await makeStore();
      (await store.write(PAUSE))._unsafeUnwrap();
      expect((await store.clear())._unsafeUnwrap()).toEqual(PAUSE);
      expect((await store.read())._unsafeUnwrap()).toBeUndefined();
    });

    it('refuses to write something that is not a pause, keeping the stored one', async () => {
      const store = await makeStore();
      (await store.write(PAUSE))._unsafeUnwrap();
      const bad = { ...PAUSE, note: '' } as Pause;
      expect((await store.write(bad))._unsafeUnwrapErr().kind).toBe('invalid');
      expect((await store.read())._unsafeUnwrap()).toEqual(PAUSE);
    });

    it('what was read cannot change the stored pause', async () => {
      const store = await makeStore();
      (await store.write(PAUSE))._unsafeUnwrap();
      const read = (await store.read())._unsafeUnwrap() as { note: string };
      read.note = 'changed';
      expect((await store.read())._unsafeUnwrap()).toEqual(PAUSE);
    });
  });
}
