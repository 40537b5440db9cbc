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
}

/** A sink for tests: records delivered messages and can fail the first N deliveries. */
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
      delivered.push(message);
      return okAsync(undefined);
    },
  };
}
