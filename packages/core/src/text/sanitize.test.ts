import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets, sanitizeForMessage } from './sanitize.js';
import { REDACTED } from './secret-shapes.js';

describe('redactSecrets', () => {
  it('never throws and never changes a secret-free text', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(typeof redactSecrets(text)).toBe('string');
      }),
    );
    expect(redactSecrets('bd-12 ready: fix the login page (author: alice)')).toBe('bd-12 ready: fix the login page (author: alice)');
  });

  it('the cases that leaked (issue 12): a command sink stderr and a credential URL', () => {
    const line =
      'curl: (22) 403 for https://hooks.slack.com/services/T1/B2/abcdefabcdef0123 with xoxb-1234567890-abcdef and Bearer eyJhbGciOi.abc.def';
    const out = redactSecrets(line);
    expect(out).not.toMatch(/abcdefabcdef0123|xoxb-1234|eyJhbGciOi/);
    expect(redactSecrets('fetch https://user:hunter2@h.example/p?token=t0k3n failed')).toBe(
      `fetch https://${REDACTED}@h.example/p?token=${REDACTED} failed`,
    );
  });
});

describe('sanitizeForMessage', () => {
  it("neutralises Slack's <!channel>, <!here>, <!everyone> like @channel", () => {
    for (const mention of ['<!channel>', '<!here>', '<!everyone>', '<!subteam^S123>', '<@U123>', '<#C123>']) {
      const out = sanitizeForMessage(`ping ${mention} now`);
      expect(out).not.toContain(mention);
      expect(out).not.toMatch(/<[!@#]/);
    }
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(sanitizeForMessage(text, { maxLength: 10_000 })).not.toMatch(/<[!@#]|@[A-Za-z0-9_-]/);
      }),
    );
  });
});
