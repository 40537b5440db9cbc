import { okAsync } from 'neverthrow';
import type { JsonValue } from '../domain/json.js';
import type { StateStore } from '../ports/state-store.js';

/** An in-memory {@link StateStore} that also lets a test look at and count what was saved. */
export interface MemoryStateStore extends StateStore {
  /** The stored document (a copy), or undefined. */
  readonly current: () => JsonValue | undefined;
  /** How many saves succeeded. */
  readonly saveCount: () => number;
  /** Copies kept by `setAside`, oldest first, with the reason given. */
  readonly asides: () => readonly { readonly document: JsonValue | undefined; readonly reason: string }[];
}

/** Options of {@link createMemoryStateStore}. */
export interface MemoryStateStoreOptions {
  /** The document the store starts with. */
  readonly initial?: JsonValue;
  /** Warnings the first `load` reports, e.g. to simulate a corrupt file set aside. */
  readonly loadWarnings?: readonly string[];
}

/**
 * An in-memory state store. Documents are copied in and out (as JSON), so a caller mutating an
 * object after saving it cannot change what is stored — the file store behaves the same way.
 *
 * @example
 * ```ts
 * import { createMemoryStateStore } from '@heartbeat-kit/core/testing';
 *
 * const store = createMemoryStateStore();
 * await store.save({ cycle: 3 });
 * console.log(store.current(), store.saveCount()); // { cycle: 3 } 1
 * ```
 */
export function createMemoryStateStore(options: MemoryStateStoreOptions = {}): MemoryStateStore {
  const copy = (value: JsonValue | undefined): JsonValue | undefined =>
    value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as JsonValue);
  let stored = copy(options.initial);
  let pendingWarnings = [...(options.loadWarnings ?? [])];
  let saves = 0;
  const asides: { document: JsonValue | undefined; reason: string }[] = [];
  return {
    load: () => {
      const warnings = pendingWarnings;
      pendingWarnings = [];
      return okAsync({ document: copy(stored), warnings });
    },
    save: (document) => {
      stored = copy(document);
      saves += 1;
      return okAsync(undefined);
    },
    setAside: (reason) => {
      asides.push({ document: copy(stored), reason });
      return okAsync(`memory:aside-${asides.length}`);
    },
    current: () => copy(stored),
    asides: () => asides.map((a) => ({ document: copy(a.document), reason: a.reason })),
    saveCount: () => saves,
  };
}
