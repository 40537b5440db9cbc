import type { ResultAsync } from 'neverthrow';
import type { JsonValue } from '../domain/json.js';

/** What loading a state document gave. A corrupt document is set aside and reported, never thrown. */
export interface LoadedState {
  /** The stored document, or undefined when there is none (or it was corrupt). */
  readonly document: JsonValue | undefined;
  readonly warnings: readonly string[];
}

/** Why a state store could not do its job. */
export type StateStoreError =
  | { readonly kind: 'io'; readonly message: string }
  | { readonly kind: 'stale-fence'; readonly message: string; readonly fence: number; readonly current: number };

/** Options of a save. */
export interface SaveOptions {
  /** Fencing number of the writer's lock; stores that support fencing reject a stale one. */
  readonly fence?: number;
}

/**
 * Keeps one JSON document across cycles (cycle counter, reported fingerprints, pane hashes…).
 * Writes are atomic: a reader sees the previous or the new document, never a torn one.
 */
export interface StateStore {
  readonly load: () => ResultAsync<LoadedState, StateStoreError>;
  readonly save: (document: JsonValue, options?: SaveOptions) => ResultAsync<void, StateStoreError>;
  /**
   * Keeps a copy of the stored document as it is now, because it parsed but did not fit and the
   * next save will replace it with what could be salvaged. Resolves to where the copy is (for
   * the warning). Optional: a store without it loses the original on the next save.
   */
  readonly setAside?: (reason: string) => ResultAsync<string, StateStoreError>;
}
