import { ResultAsync } from 'neverthrow';
import { redactSecrets, type Sink } from '@heartbeat-kit/core';

/** The short failure code an error carries (set where it was thrown), else `failed`. */
function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code !== '' ? code : 'failed';
}

/** Options of {@link createWebhookSink}. */
export interface WebhookSinkOptions {
  readonly url: string;
  /** Attempts in total (default 3). */
  readonly attempts?: number;
  /** Per-attempt timeout (default 10 s). */
  readonly timeoutMs?: number;
  /**
   * Bound on one delivery, all attempts and pauses included (default 15 s): a hanging receiver
   * must not hold the cycle for attempts × timeout.
   */
  readonly totalTimeoutMs?: number;
  /** Pause before retry n (1-based), default 500 ms × 2^(n-1). */
  readonly backoffMs?: (retry: number) => number;
  /** Value of the `Authorization` header (from an environment variable, never from the URL). */
  readonly authorization?: string;
  readonly fetch?: typeof fetch;
}

/** Header carrying the message id, for receivers that deduplicate (the body carries `id` too). */
export const MESSAGE_ID_HEADER = 'Idempotency-Key';

/**
 * POSTs each message as JSON. A 2xx answer confirms delivery; network errors, timeouts and
 * 5xx/429 answers are retried; other 4xx answers fail at once (retrying will not help). The
 * message id goes in the body (`id`) and in `Idempotency-Key`, so a receiver can drop the
 * duplicates that retries make. Error messages never carry the URL's path, query or a secret.
 */
export function createWebhookSink(options: WebhookSinkOptions): Sink {
  const attempts = Math.max(1, options.attempts ?? 3);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const totalTimeoutMs = options.totalTimeoutMs ?? 15_000;
  const backoff = options.backoffMs ?? ((n: number) => 500 * 2 ** (n - 1));
  const doFetch = options.fetch ?? fetch;
  const origin = new URL(options.url).origin;
  const send = async (body: string, id: string | undefined): Promise<void> => {
    const deadline = AbortSignal.timeout(totalTimeoutMs);
    let last = 'no attempt made';
    // Short and stable across cycles (the attempt count is not): the breaker's "same way".
    let lastCode = last;
    let made = 0;
    for (let attempt = 1; attempt <= attempts && !deadline.aborted; attempt++) {
      made = attempt;
      try {
        const response = await doFetch(options.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(id === undefined ? {} : { [MESSAGE_ID_HEADER]: id }),
            ...(options.authorization === undefined ? {} : { authorization: options.authorization }),
          },
          body,
          signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), deadline]),
        });
        if (response.ok) return;
        last = `HTTP ${response.status}`;
        lastCode = last;
        if (response.status < 500 && response.status !== 429) break;
      } catch (error) {
        last = deadline.aborted ? `gave up after ${totalTimeoutMs} ms in total` : error instanceof Error ? error.message : String(error);
        lastCode = deadline.aborted ? 'timeout' : last;
      }
      if (attempt < attempts && !deadline.aborted) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, backoff(attempt));
          deadline.addEventListener(
            'abort',
            () => {
              clearTimeout(timer);
              resolve();
            },
            { once: true },
          );
        });
      }
    }
    throw Object.assign(new Error(`webhook ${origin} failed after ${made} attempt(s): ${last}`), { code: lastCode });
  };
  return {
    name: 'webhook',
    deliver: (message) =>
      ResultAsync.fromPromise(send(JSON.stringify(message), message.id), (error) => ({
        kind: 'delivery-failed' as const,
        message: redactSecrets((error as Error).message),
        code: redactSecrets(codeOf(error)).slice(0, 100),
      })),
  };
}
