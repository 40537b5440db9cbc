import { okAsync } from 'neverthrow';
import type { OperatorActivity } from '../ports/operator-activity.js';

/** {@link OperatorActivity} a test sets by hand. */
export interface FakeOperatorActivity extends OperatorActivity {
  /** Changes the operator's last activity (undefined = unknown, which counts as idle). */
  readonly set: (lastActiveAt: Date | undefined) => void;
}

/**
 * Operator activity fixed at `lastActiveAt` until `set` changes it.
 *
 * @example
 * ```ts
 * import { createFakeOperatorActivity } from '@heartbeat-kit/core/testing';
 *
 * const activity = createFakeOperatorActivity(new Date('2026-02-19T14:49:30Z')); // busy: Advisory findings are held
 * activity.set(undefined); // unknown counts as idle
 * ```
 */
export function createFakeOperatorActivity(lastActiveAt: Date | undefined): FakeOperatorActivity {
  let current = lastActiveAt;
  return {
    lastActiveAt: () => okAsync(current),
    set: (next) => {
      current = next;
    },
  };
}
