/**
 * The behaviour every {@link AckStore} adapter must have. Run it from a `*.test.ts` file with a
 * factory that returns a fresh, empty store on each call:
 * `ackStoreContract('file', () => createFileAckStore({ path: freshPath() }))`.
 */
import { ACK_BOOK_VERSION, emptyAckBook, type Ack, type AckBook } from '../../operator/ack-book.js';
import type { AckStore } from '../../operator/ack-store.js';

/** Makes a fresh, empty store for one test. */
export type AckStoreFactory = () => AckStore | Promise<AckStore>;

const ack = (id: string, extra: Partial<Ack> = {}): Ack => ({
  id,
  selector: 'GIT_STALE:/w/feature-x',
  match: { kind: 'fingerprint', fingerprint: 'GIT_STALE:/w/feature-x' },
  hashes: { 'GIT_STALE:/w/feature-x': 'abc123' },
  note: 'rebasing tonight',
  by: 'alice',
  at: '2026-02-19T14:52:00.000Z',
  until: '2026-02-19T18:52:00.000Z',
  snooze: false,
  ...extra,
});

/** Registers the AckStore contract suite under `describe(name)`. */
export async function ackStoreContract(name: string, makeStore: AckStoreFactory): Promise<void> {
  const { describe, expect, it } = await import('vitest');
  describe(`AckStore contract: ${name}`, () => {
    it('a fresh store holds no acks and says nothing', async () => {
      const store = await makeStore();
      expect((await store.load())._unsafeUnwrap()).toEqual({ book: emptyAckBook(), warnings: [] });
    });

    it('loads what was saved, and the last save wins', async () => {
      const store = await makeStore();
      const one: AckBook = { version: ACK_BOOK_VERSION, acks: [ack('ack-1')] };
      (await store.save(one))._unsafeUnwrap();
      expect((await store.load())._unsafeUnwrap()).toEqual({ book: one, warnings: [] });
      const two: AckBook = {
        version: ACK_BOOK_VERSION,
        acks: [ack('ack-2', { match: { kind: 'category', category: 'GIT_STALE' }, selector: 'GIT_STALE', snooze: true })],
      };
      (await store.save(two))._unsafeUnwrap();
      expect((await store.load())._unsafeUnwrap().book).toEqual(two);
    });

    it('a book changed after saving does not change what is stored', async () => {
      const store = await makeStore();
      const acks = [ack('ack-3')];
      (await store.save({ version: ACK_BOOK_VERSION, acks }))._unsafeUnwrap();
      acks.push(ack('ack-4'));
      expect((await store.load())._unsafeUnwrap().book.acks.map((a) => a.id)).toEqual(['ack-3']);
    });

    it('an empty book saved is an empty book loaded (every ack removed)', async () => {
      const store = await makeStore();
      (await store.save({ version: ACK_BOOK_VERSION, acks: [ack('ack-5')] }))._unsafeUnwrap();
      (await store.save(emptyAckBook()))._unsafeUnwrap();
      expect((await store.load())._unsafeUnwrap().book.acks).toEqual([]);
    });
  });
}
