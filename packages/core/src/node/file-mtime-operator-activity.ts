import { stat } from 'node:fs/promises';
import { ResultAsync } from 'neverthrow';
import type { OperatorActivity } from '../ports/operator-activity.js';
import { describeError, errorCode } from './durable-fs.js';

/**
 * {@link OperatorActivity} read from a file's modification time: point it at a file the
 * operator's client touches on every message (an inbox, a chat log). A missing file means
 * "unknown", which counts as idle.
 *
 * @example
 * ```ts
 * import { createFileMtimeOperatorActivity } from '@heartbeat-kit/core/node';
 *
 * // Touch this file whenever the operator sends a message; Advisory findings wait until it is 5 min old.
 * const activity = createFileMtimeOperatorActivity('.git/heartbeat-kit/operator-active');
 * const last = await activity.lastActiveAt(); // undefined when the file does not exist (= idle)
 * if (last.isOk()) console.log(last.value);
 * ```
 */
export function createFileMtimeOperatorActivity(path: string): OperatorActivity {
  const read = async (): Promise<Date | undefined> => {
    try {
      return (await stat(path)).mtime;
    } catch (error) {
      if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return undefined;
      throw error;
    }
  };
  return {
    lastActiveAt: () =>
      ResultAsync.fromPromise(read(), (error) => ({
        kind: 'io' as const,
        message: `Could not read operator activity from ${path}: ${describeError(error)}`,
      })),
  };
}
