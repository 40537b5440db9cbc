import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decideWebhookRedirect,
  describeLocation,
  isRedirectStatus,
  MAX_WEBHOOK_REDIRECTS,
  type WebhookRedirectPolicy,
} from './webhook-redirect.js';

const hostArb = fc.constantFrom('hooks.example.com', 'example.com', '127.0.0.1', 'evil.test', '[::1]');
const schemeArb = fc.constantFrom('http', 'https');
const portArb = fc.constantFrom('', ':8443', ':80', ':443', ':9000');
const originArb = fc.tuple(schemeArb, hostArb, portArb).map(([s, h, p]) => new URL(`${s}://${h}${p}`).origin);
const locationArb = fc.oneof(
  fc.tuple(originArb, fc.webPath(), fc.webQueryParameters()).map(([o, p, q]) => `${o}${p}${q === '' ? '' : `?${q}`}`),
  fc.webPath(),
  fc.string({ maxLength: 40 }),
  fc.constant(null),
);
const statusArb = fc.oneof(fc.constantFrom(301, 302, 303, 307, 308), fc.integer({ min: 300, max: 399 }));

describe('decideWebhookRedirect (property)', () => {
  it('never follows another origin (so never another host, never https → http), never without the opt-in, only 307/308, at most 5 in a row', () => {
    let followedSome = 0;
    fc.assert(
      fc.property(
        fc.constantFrom<WebhookRedirectPolicy>('none', 'same-origin'),
        originArb,
        fc.webPath(),
        locationArb,
        statusArb,
        fc.integer({ min: 0, max: 8 }),
        (policy, origin, path, location, status, followed) => {
          const current = `${origin}${path}`;
          const decision = decideWebhookRedirect({ policy, origin, current, answer: { status, location }, followed });
          if (decision.follow) {
            followedSome++;
            expect(policy).toBe('same-origin');
            expect(new URL(decision.url).origin).toBe(origin);
            expect([307, 308]).toContain(status);
            expect(followed).toBeLessThan(MAX_WEBHOOK_REDIRECTS);
          } else {
            expect(decision.reason).toMatch(/^HTTP \d+ redirect /);
            // The URL parser percent-encodes controls: nothing a terminal would act on reaches the line.
            expect([...decision.reason].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)).toBe(false);
            // A query may carry a token: never shown.
            const search = location !== null && URL.canParse(location, current) ? new URL(location, current).search : '';
            if (search.length > 1) expect(decision.reason).not.toContain(search);
          }
        },
      ),
      { numRuns: 2_000 },
    );
    // The generators reach the branch that follows, not only the refusals.
    expect(followedSome).toBeGreaterThan(0);
  });

  it('names the downgrade and the Location; hides credentials and the query', () => {
    const d = decideWebhookRedirect({
      policy: 'same-origin',
      origin: 'https://hooks.example.com',
      current: 'https://hooks.example.com/hook',
      answer: { status: 307, location: 'http://user:pw@hooks.example.com/hook?sig=abc#frag' },
      followed: 0,
    });
    expect(d).toEqual({
      follow: false,
      reason:
        'HTTP 307 redirect to http://hooks.example.com/hook?…; not followed: another origin than https://hooks.example.com, a downgrade from https to http (only same-origin redirects are followed). Fix: point --sink webhook: at the new address if you trust it',
    });
    expect(describeLocation(new URL(`https://a.test/${'x'.repeat(300)}`))).toHaveLength(200);
    expect(
      decideWebhookRedirect({
        policy: 'same-origin',
        origin: 'https://a.test',
        current: 'https://a.test/',
        answer: { status: 308, location: '' },
        followed: 0,
      }),
    ).toEqual({
      follow: false,
      reason: 'HTTP 308 redirect without a usable Location; not followed',
    });
    expect(isRedirectStatus(304)).toBe(false);
    expect(isRedirectStatus(300)).toBe(false);
  });
});
