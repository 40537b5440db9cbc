import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REDACTED, redactSecrets, redactSecretsWith, sanitizeForMessage } from './sanitize.js';

const alnum = fc.stringMatching(/^[A-Za-z0-9]{24,40}$/);
/** Secrets in the shapes that reached stderr in the field (issue 12): each with its marker value. */
const secret: fc.Arbitrary<{ readonly text: string; readonly value: string }> = fc.oneof(
  alnum.map((v) => ({ text: `xoxb-${v}`, value: v })),
  alnum.map((v) => ({ text: `Authorization: Bearer ${v}`, value: v })),
  alnum.map((v) => ({ text: `https://hooks.slack.com/services/T000/B000/${v}`, value: v })),
  alnum.map((v) => ({ text: `https://discord.com/api/webhooks/123/${v}`, value: v })),
  alnum.map((v) => ({ text: `https://alice:${v}@example.com/hook`, value: v })),
  alnum.map((v) => ({ text: `https://example.com/hook?token=${v}&x=1`, value: v })),
  alnum.map((v) => ({ text: `password=${v}`, value: v })),
  alnum.map((v) => ({ text: `"api_key": "${v}"`, value: v })),
  alnum.map((v) => ({ text: `ghp_${v}`, value: v })),
  alnum.map((v) => ({ text: `sk-${v}`, value: v })),
);
const filler = fc.stringMatching(/^[a-z .,:()\n-]{0,30}$/);

describe('redactSecrets', () => {
  it('removes every secret shape wherever it sits in the text, and is idempotent', () => {
    fc.assert(
      fc.property(filler, secret, filler, (before, s, after) => {
        const out = redactSecrets(`${before} ${s.text} ${after}`);
        expect(out).not.toContain(s.value);
        expect(out).toContain(REDACTED);
        expect(redactSecrets(out)).toBe(out);
      }),
    );
  });

  it('gives the same text with its cheap pre-tests as running every pattern', () => {
    // Fragments that trip each pre-test, mixed case, so a pre-test that is too strict (a literal the
    // pattern does not need, a case the pattern ignores) shows up as a secret left in the text.
    const fragment = fc.constantFrom(
      '-----BEGIN RSA PRIVATE KEY-----',
      '-----END RSA PRIVATE KEY-----',
      'ghp_',
      'gho_',
      'GHP_',
      'github_pat_',
      'xoxb-',
      'xoxp-',
      'sk-',
      'Bearer ',
      'BEARER ',
      'bEaReR\t',
      'Basic ',
      'basic ',
      'https://',
      'HTTP://',
      'hooks.slack.com/',
      'HOOKS.Slack.COM/',
      'discord.com/api/webhooks/',
      'DiscordApp.com/API/Webhooks/',
      'x.webhook.office.com/',
      'LOGIC.AZURE.COM/',
      'AKIA',
      'alice:',
      'pw@',
      '@',
      ':',
      '=',
      'A1b2C3d4E5f6G7h8I9j0K1l2',
      'ABCDEFGH12345678',
      ' AKIAABCDEFGH12345678 ',
      'token',
      'TOKEN',
      'Api-Key',
      'sig',
      'key',
      '"',
      "'",
      ' ',
      '\n',
      'İ',
      'ſ',
      'K',
    );
    const piece = fc.oneof(fragment, fc.stringMatching(/^[A-Za-z0-9+/=._~-]{0,24}$/), fc.string({ maxLength: 6 }));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join('');
        expect(redactSecretsWith(text, true)).toBe(redactSecretsWith(text, false));
      }),
      { numRuns: 2000 },
    );
  });

  it('never throws and never grows a secret-free text', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(typeof redactSecrets(text)).toBe('string');
      }),
    );
    expect(redactSecrets('bd-12 ready: fix the login page (author: alice)')).toBe('bd-12 ready: fix the login page (author: alice)');
  });

  it('the cases that leaked: a command sink stderr and a credential URL', () => {
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
