import type { ResultAsync } from 'neverthrow';
import type { AckBook } from './ack-book.js';

/** Why an ack store could not do its job. */
export interface AckStoreError {
  readonly kind: 'io';
  readonly message: string;
}

/** What loading the acks gave: the book, and a warning per stored entry that did not fit. */
export interface LoadedAcks {
  readonly book: AckBook;
  readonly warnings: readonly string[];
}

/**
 * Keeps one heartbeat's acks. A save is atomic: a cycle reading while an operator writes sees the
 * previous book or the new one, never half of it, so an ack is fully in that cycle's decision or
 * fully in the next one.
 */
export interface AckStore {
  readonly load: () => ResultAsync<LoadedAcks, AckStoreError>;
  readonly save: (book: AckBook) => ResultAsync<void, AckStoreError>;
}
