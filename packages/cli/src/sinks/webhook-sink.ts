import { ResultAsync } from 'neverthrow';
import type { Sink } from '@heartbeat-kit/core';

/** Options of {@link createWebhookSink}. */
export interface WebhookSinkOptions {
  readonly url: string;
  /** Attempts in total (default 3). */
  readonly attempts?: number;
  /** Per-attempt timeout (default 10 s). */
  readonly timeoutMs?: number;
  /** Pause before retry n (1-based), default 500 ms × 2^(n-1). */
  readonly backoffMs?: (retry: number) => number;
  readonly fetch?: typeof fetch;
}

/**
 * POSTs each message as JSON. A 2xx answer confirms delivery; network errors, timeouts and
 * 5xx/429 answers are retried; other 4xx answers fail at once (retrying will not help).
 */
export function createWebhookSink(options: WebhookSinkOptions): Sink {
  const attempts = Math.max(1, options.attempts ?? 3);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const backoff = options.backoffMs ?? ((n: number) => 500 * 2 ** (n - 1));
  const doFetch = options.fetch ?? fetch;
  const send = async (body: string): Promise<void> => {
    let last = 'no attempt made';
    let made = 0;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      made = attempt;
      try {
        const response = await doFetch(options.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (response.ok) return;
        last = `HTTP ${response.status}`;
        if (response.status < 500 && response.status !== 429) break;
      } catch (error) {
        last = error instanceof Error ? error.message : String(error);
      }
      if (attempt < attempts) await new Promise((r) => setTimeout(r, backoff(attempt)));
    }
    throw new Error(`webhook ${new URL(options.url).origin} failed after ${made} attempt(s): ${last}`);
  };
  return {
    deliver: (message) =>
      ResultAsync.fromPromise(send(JSON.stringify(message)), (error) => ({ kind: 'delivery-failed' as const, message: (error as Error).message })),
  };
}
