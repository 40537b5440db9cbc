import { ResultAsync } from 'neverthrow';
import { redactSecrets, type Sink } from '@heartbeat-kit/core';
import { decideWebhookRedirect, isRedirectStatus, type WebhookRedirectPolicy } from './webhook-redirect.js';

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
  /**
   * Redirects to follow: `none` (default: a redirect is a failed delivery naming its Location) or
   * `same-origin` (a 307/308 to the URL's own scheme, host and port; never another origin).
   */
  readonly followRedirects?: WebhookRedirectPolicy;
  readonly fetch?: typeof fetch;
}

/** Header carrying the message id, for receivers that deduplicate (the body carries `id` too). */
export const MESSAGE_ID_HEADER = 'Idempotency-Key';

/**
 * POSTs each message as JSON. A 2xx answer confirms delivery; network errors, timeouts and
 * 5xx/429 answers are retried; other 4xx answers fail at once (retrying will not help), and so
 * does a redirect, naming its Location, unless `followRedirects: 'same-origin'` allows it. The
 * message id goes in the body (`id`) and in `Idempotency-Key`, so a receiver can drop the
 * duplicates that retries make. Error messages never carry the URL's path or query, a Location's
 * query, or a secret.
 */
export function createWebhookSink(options: WebhookSinkOptions): Sink {
  const webhook: Webhook = {
    url: options.url,
    authorization: options.authorization,
    attempts: Math.max(1, options.attempts ?? 3),
    timeoutMs: options.timeoutMs ?? 10_000,
    totalTimeoutMs: options.totalTimeoutMs ?? 15_000,
    backoff: options.backoffMs ?? ((n: number) => 500 * 2 ** (n - 1)),
    doFetch: options.fetch ?? fetch,
    origin: new URL(options.url).origin,
    policy: options.followRedirects ?? 'none',
  };
  return {
    name: 'webhook',
    deliver: (message) =>
      ResultAsync.fromPromise(send(webhook, JSON.stringify(message), message.id), (error) => ({
        kind: 'delivery-failed' as const,
        message: redactSecrets((error as Error).message),
        code: redactSecrets(codeOf(error)).slice(0, 100),
      })),
  };
}

/** A webhook sink's options with their defaults filled in. */
interface Webhook {
  readonly url: string;
  readonly authorization: string | undefined;
  readonly attempts: number;
  readonly timeoutMs: number;
  readonly totalTimeoutMs: number;
  readonly backoff: (attempt: number) => number;
  readonly doFetch: typeof fetch;
  readonly origin: string;
  readonly policy: WebhookRedirectPolicy;
}

type Answer = { kind: 'delivered' } | { kind: 'retry' | 'refused'; code: string; reason: string };

// One attempt: the POST, and the same POST again for each redirect the policy follows. fetch
// itself follows none (`manual`): by default it would follow any origin, dropping only the
// Authorization header, and count the other host's 2xx as delivered.
async function post(webhook: Webhook, body: string, id: string | undefined, signal: AbortSignal): Promise<Answer> {
  let url = webhook.url;
  for (let followed = 0; ; followed++) {
    const response = await webhook.doFetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(id === undefined ? {} : { [MESSAGE_ID_HEADER]: id }),
        ...(webhook.authorization === undefined ? {} : { authorization: webhook.authorization }),
      },
      body,
      redirect: 'manual',
      signal,
    });
    if (response.ok) return { kind: 'delivered' };
    // A browser-style fetch hides a manual redirect's status and Location.
    if (response.type === 'opaqueredirect')
      return { kind: 'refused', code: 'HTTP redirect', reason: 'a redirect (its Location hidden by fetch); not followed' };
    const status = `HTTP ${response.status}`;
    // The answer's body is not read: release the connection.
    await response.body?.cancel().catch(() => undefined);
    if (!isRedirectStatus(response.status)) {
      const retry = response.status >= 500 || response.status === 429;
      return { kind: retry ? 'retry' : 'refused', code: status, reason: status };
    }
    const decision = decideWebhookRedirect({
      policy: webhook.policy,
      origin: webhook.origin,
      current: url,
      answer: { status: response.status, location: response.headers.get('location') },
      followed,
    });
    // Retrying will not make a redirect go away: the delivery fails at once.
    if (!decision.follow) return { kind: 'refused', code: status, reason: decision.reason };
    url = decision.url;
  }
}

async function send(webhook: Webhook, body: string, id: string | undefined): Promise<void> {
  const { attempts, totalTimeoutMs } = webhook;
  const deadline = AbortSignal.timeout(totalTimeoutMs);
  let last = 'no attempt made';
  // Short and stable across cycles (the attempt count is not): the breaker's "same way".
  let lastCode = last;
  let made = 0;
  for (let attempt = 1; attempt <= attempts && !deadline.aborted; attempt++) {
    made = attempt;
    try {
      const answered = await post(webhook, body, id, AbortSignal.any([AbortSignal.timeout(webhook.timeoutMs), deadline]));
      if (answered.kind === 'delivered') return;
      last = answered.reason;
      lastCode = answered.code;
      if (answered.kind === 'refused') break;
    } catch (error) {
      last = deadline.aborted ? `gave up after ${totalTimeoutMs} ms in total` : error instanceof Error ? error.message : String(error);
      lastCode = deadline.aborted ? 'timeout' : last;
    }
    if (attempt < attempts && !deadline.aborted) await backoffUntil(webhook.backoff(attempt), deadline);
  }
  throw Object.assign(new Error(`webhook ${webhook.origin} failed after ${made} attempt(s): ${last}`), { code: lastCode });
}

/** Waits `ms`, or less when the delivery's deadline passes first. */
function backoffUntil(ms: number, deadline: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
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
