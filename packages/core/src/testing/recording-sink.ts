import { errAsync, okAsync } from 'neverthrow';
import type { OutboundMessage, Sink } from '../ports/sink.js';

/** A {@link Sink} that remembers what it delivered. */
export interface RecordingSink extends Sink {
  /** Messages delivered successfully, in order. */
  readonly delivered: readonly OutboundMessage[];
  /** Every delivery attempt, failed ones included. */
  readonly attempts: () => number;
}

/** Options of {@link createRecordingSink}. */
export interface RecordingSinkOptions {
  /** Fail the first N deliveries (to test that findings of a failed delivery stay unreported). */
  readonly failTimes?: number;
  /** Then hold the next N deliveries back (`{ state: 'held', why }`), as a busy tmux pane does. */
  readonly holdTimes?: number;
}

/**
 * A sink for tests: records delivered messages and can fail the first N deliveries.
 *
 * @example
 * ```ts
 * import { createRecordingSink } from '@heartbeat-kit/core/testing';
 *
 * const sink = createRecordingSink({ failTimes: 1 }); // the first delivery fails: findings stay unreported
 * await sink.deliver({ kind: 'online', content: 'HEARTBEAT_ONLINE', summary: 'online', at: '2026-02-19T10:00:00Z' });
 * await sink.deliver({ kind: 'online', content: 'HEARTBEAT_ONLINE', summary: 'online', at: '2026-02-19T10:00:01Z' });
 * console.log(sink.attempts(), sink.delivered.length); // 2 1
 * ```
 */
export function createRecordingSink(options: RecordingSinkOptions = {}): RecordingSink {
  const delivered: OutboundMessage[] = [];
  let attempts = 0;
  return {
    delivered,
    attempts: () => attempts,
    deliver: (message) => {
      attempts += 1;
      if (attempts <= (options.failTimes ?? 0)) {
        return errAsync({ kind: 'delivery-failed' as const, message: `recording sink: planned failure ${attempts}` });
      }
      const failTimes = options.failTimes ?? 0;
      if (attempts <= failTimes + (options.holdTimes ?? 0))
        return okAsync({ state: 'held' as const, why: `recording sink: planned hold ${attempts - failTimes}` });
      delivered.push(message);
      return okAsync(undefined);
    },
  };
}
