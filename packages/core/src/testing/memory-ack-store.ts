import { okAsync } from 'neverthrow';
import { decodeAckBook, encodeAckBook, type AckBook } from '../operator/ack-book.js';
import type { AckStore } from '../operator/ack-store.js';

/** An in-memory {@link AckStore} that also counts saves. */
export interface MemoryAckStore extends AckStore {
  readonly saveCount: () => number;
}

/**
 * An in-memory ack store. Books are copied in and out as JSON, as the file store does, so a
 * caller mutating a book after saving it cannot change what is stored.
 *
 * @example
 * ```ts
 * import { createMemoryAckStore } from '@heartbeat-kit/core/testing';
 *
 * const store = createMemoryAckStore();
 * console.log((await store.load())._unsafeUnwrap().book.acks); // []
 * ```
 */
export function createMemoryAckStore(initial?: AckBook): MemoryAckStore {
  let stored = initial === undefined ? undefined : encodeAckBook(initial);
  let saves = 0;
  return {
    load: () => okAsync(decodeAckBook(stored === undefined ? undefined : (JSON.parse(JSON.stringify(stored)) as typeof stored))),
    save: (book) => {
      stored = encodeAckBook(book);
      saves += 1;
      return okAsync(undefined);
    },
    saveCount: () => saves,
  };
}
