import type { ResultAsync } from 'neverthrow';
import type { Pause } from './pause-model.js';

/** Why a pause store could not do its job. */
export interface PauseStoreError {
  readonly kind: 'io' | 'invalid';
  readonly message: string;
}

/**
 * Where the operator's pause lives (a file beside the state, a Redis key per heartbeat). A write
 * replaces the pause whole: a reader sees the old pause or the new one, never a mix, so a pause
 * written while a cycle runs is entirely in that cycle's decision or entirely in the next.
 */
export interface PauseStore {
  /** The pause, or undefined when none is stored. A damaged record is an `invalid` error. */
  readonly read: () => ResultAsync<Pause | undefined, PauseStoreError>;
  readonly write: (pause: Pause) => ResultAsync<void, PauseStoreError>;
  /** Removes the pause; the pause that was stored, or undefined when there was none. */
  readonly clear: () => ResultAsync<Pause | undefined, PauseStoreError>;
}
