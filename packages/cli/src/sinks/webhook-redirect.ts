/** Which redirects a webhook sink follows: none (the default), or 307/308 within the URL's own origin. */
export type WebhookRedirectPolicy = 'none' | 'same-origin';

/** Redirects followed in one attempt at most (same origin only); more is a loop or a misconfiguration. */
export const MAX_WEBHOOK_REDIRECTS = 5;

/** The answer that may redirect: its status and its raw `Location` header. */
export interface RedirectAnswer {
  readonly status: number;
  readonly location: string | null;
}

/** What to do with a redirect: POST again to `url`, or fail with `reason` (one sentence, no secret). */
export type RedirectDecision = { readonly follow: true; readonly url: string } | { readonly follow: false; readonly reason: string };

/** Statuses that redirect (the rest of 3xx, e.g. 300 or 304, are plain failures). */
export function isRedirectStatus(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/**
 * A `Location` as an error may show it: origin and path, without credentials, query or fragment (a
 * query may carry a token), at most 200 characters. The URL parser has percent-encoded controls.
 */
export function describeLocation(url: URL): string {
  const shown = `${url.origin}${url.pathname}${url.search === '' ? '' : '?…'}`;
  return shown.length > 200 ? `${shown.slice(0, 199)}…` : shown;
}

/**
 * Decides a redirect answered to a webhook POST to `current` (the configured URL's `origin`).
 * Followed only with the `same-origin` policy, only a 307 or 308 (the statuses that keep the
 * method and body: a 301/302/303 would turn the POST into a body-less GET), only to the very same
 * origin (scheme, host and port: so never another host, never https → http, and the
 * `Authorization` header never leaves the origin it was meant for), and at most
 * {@link MAX_WEBHOOK_REDIRECTS} times. Anything else is a failed delivery naming the Location.
 */
export function decideWebhookRedirect(input: {
  readonly policy: WebhookRedirectPolicy;
  readonly origin: string;
  readonly current: string;
  readonly answer: RedirectAnswer;
  /** Redirects already followed in this attempt. */
  readonly followed: number;
}): RedirectDecision {
  const { policy, origin, current, answer, followed } = input;
  const http = `HTTP ${answer.status} redirect`;
  let target: URL | undefined;
  try {
    target = answer.location === null || answer.location.trim() === '' ? undefined : new URL(answer.location, current);
  } catch {
    target = undefined;
  }
  if (target === undefined) return { follow: false, reason: `${http} without a usable Location; not followed` };
  const where = describeLocation(target);
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    return { follow: false, reason: `${http} to ${where}; not followed (not http or https)` };
  const sameOrigin = target.origin === origin;
  if (policy === 'none') {
    const hint = sameOrigin && (answer.status === 307 || answer.status === 308) ? ', or pass --sink-same-origin-redirects' : '';
    return {
      follow: false,
      reason: `${http} to ${where}; not followed (redirects are not followed by default). Fix: point --sink webhook: at the new address${hint}`,
    };
  }
  if (!sameOrigin) {
    const downgrade = new URL(origin).protocol === 'https:' && target.protocol === 'http:' ? ', a downgrade from https to http' : '';
    return {
      follow: false,
      reason: `${http} to ${where}; not followed: another origin than ${origin}${downgrade} (only same-origin redirects are followed). Fix: point --sink webhook: at the new address if you trust it`,
    };
  }
  if (answer.status !== 307 && answer.status !== 308)
    return {
      follow: false,
      reason: `${http} to ${where}; not followed: a ${answer.status} would turn the POST into a GET without the message (only 307 and 308 are followed). Fix: point --sink webhook: at the new address`,
    };
  if (followed >= MAX_WEBHOOK_REDIRECTS)
    return { follow: false, reason: `${http} to ${where}; not followed: more than ${MAX_WEBHOOK_REDIRECTS} redirects in a row` };
  return { follow: true, url: target.toString() };
}
