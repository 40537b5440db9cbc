import { errAsync, okAsync } from 'neverthrow';
import { pauseSchema, type Pause } from '../operator/pause-model.js';
import type { PauseStore } from '../operator/pause-store.js';

/** An in-memory {@link PauseStore}; `stored` shows what it holds. */
export interface MemoryPauseStore extends PauseStore {
  readonly stored: () => Pause | undefined;
}

/** Creates an empty in-memory pause store (values are copied, as a file would). */
export function createMemoryPauseStore(initial?: Pause): MemoryPauseStore {
  let current: Pause | undefined = initial === undefined ? undefined : pauseSchema.parse(initial);
  return {
    read: () => okAsync(current === undefined ? undefined : pauseSchema.parse(current)),
    write: (pause) => {
      const checked = pauseSchema.safeParse(JSON.parse(JSON.stringify(pause)));
      if (!checked.success) return errAsync({ kind: 'invalid' as const, message: `not a pause: ${checked.error.message}` });
      current = checked.data;
      return okAsync(undefined);
    },
    clear: () => {
      const previous = current;
      current = undefined;
      return okAsync(previous);
    },
    stored: () => current,
  };
}
