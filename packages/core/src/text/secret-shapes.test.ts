import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './sanitize.js';
import { REDACTED, SECRET_SHAPES, redactShapes, type SecretShapeId } from './secret-shapes.js';

/** A secret in its context (`text`) and the part of it that must never be printed (`value`). */
interface Sample {
  readonly text: string;
  readonly value: string;
}

const alnum = (min: number, max: number) => fc.stringMatching(new RegExp(`^[A-Za-z0-9]{${min},${max}}$`));
/** Generated, as real secrets are: a digit followed by a letter inside, so never a word (`hunter2XY99`). */
const generated = (min: number, joiner: fc.Arbitrary<string> = fc.constant('')) =>
  fc
    .tuple(alnum(Math.max(6, min - 6), min + 8), fc.integer({ min: 0, max: 9 }), fc.constantFrom('x', 'Q', 'k'), joiner, alnum(4, 12))
    .map(([a, d, l, j, b]) => `${a}${d}${l}${j}${b}`);
/** base64url (JWT parts, Google and GitLab tokens): {@link generated}, with `-` or `_` in it. */
const base64url = (min: number) => generated(min, fc.constantFrom('', '-', '_'));
const pick = <T>(...values: T[]) => fc.constantFrom(...values);

/**
 * Every row of the table with the shapes it covers. A `Record` over the ids: a new row does not
 * compile until it has its samples here.
 */
const SAMPLES: Record<SecretShapeId, fc.Arbitrary<Sample>> = {
  'private-key-block': fc
    .tuple(pick('RSA ', 'EC ', 'OPENSSH ', ''), fc.array(generated(40), { minLength: 1, maxLength: 4 }))
    .map(([kind, lines]) => ({
      text: `-----BEGIN ${kind}PRIVATE KEY-----\n${lines.join('\n')}\n-----END ${kind}PRIVATE KEY-----`,
      value: lines[0]!,
    })),
  'github-token': fc.tuple(pick('ghp', 'gho', 'ghu', 'ghs', 'ghr'), generated(36)).map(([p, v]) => ({ text: `${p}_${v}`, value: v })),
  'github-fine-grained-token': generated(60).map((v) => ({ text: `github_pat_11AB${v}`, value: v })),
  'gitlab-token': fc.tuple(pick('glpat', 'gldt', 'glptt', 'glrt'), base64url(20)).map(([p, v]) => ({ text: `${p}-${v}`, value: v })),
  'google-api-key': base64url(35).map((v) => ({ text: `AIza${v}`, value: v })),
  'google-oauth-token': base64url(60).map((v) => ({ text: `ya29.${v}`, value: v })),
  'npm-token': generated(36).map((v) => ({ text: `npm_${v}`, value: v })),
  'sendgrid-key': fc.tuple(base64url(22), base64url(43)).map(([id, v]) => ({ text: `SG.${id}.${v}`, value: v })),
  'slack-token': fc
    .tuple(pick('xoxb', 'xoxp', 'xoxa', 'xoxr', 'xoxe'), generated(24))
    .map(([p, v]) => ({ text: `${p}-123456-${v}`, value: v })),
  'sk-dash-key': fc.tuple(pick('sk-', 'sk-proj-', 'sk-ant-api03-'), generated(40)).map(([p, v]) => ({ text: `${p}${v}`, value: v })),
  'stripe-secret-key': fc.tuple(pick('sk_live_', 'sk_test_', 'rk_live_'), generated(24)).map(([p, v]) => ({ text: `${p}${v}`, value: v })),
  'aws-access-key-id': fc
    .tuple(pick('AKIA', 'ASIA'), fc.stringMatching(/^[0-9A-Z]{16}$/))
    .map(([p, v]) => ({ text: `${p}${v}`, value: v })),
  jwt: fc.tuple(base64url(16), base64url(24), base64url(32)).map(([h, p, s]) => ({ text: `eyJ${h}.eyJ${p}.${s}`, value: p })),
  'slack-webhook-url': generated(24).map((v) => ({ text: `https://hooks.slack.com/services/T0001/B0002/${v}`, value: v })),
  'discord-webhook-url': generated(40).map((v) => ({ text: `https://discord.com/api/webhooks/1234567890/${v}`, value: v })),
  'teams-webhook-url': generated(24).map((v) => ({
    text: `https://contoso.webhook.office.com/webhookb2/${v}@tenant/IncomingWebhook/abc/def`,
    value: v,
  })),
  'url-userinfo': fc
    .tuple(pick('https', 'redis', 'postgres'), generated(10))
    .map(([s, v]) => ({ text: `${s}://alice:${v}@example.com/x`, value: v })),
  'url-query-secret': fc
    .tuple(pick('token', 'access_token', 'api_key', 'key', 'sig', 'client_secret'), fc.stringMatching(/^[A-Za-z0-9]{3,20}$/))
    .filter(([, v]) => /[0-9]/.test(v))
    .map(([k, v]) => ({ text: `https://example.com/hook?a=1&${k}=${v}&x=2`, value: `${k}=${v}` })),
  'authorization-header': fc
    .tuple(
      pick('Authorization', 'authorization', 'AUTHORIZATION', 'Proxy-Authorization'),
      pick(': ', ':', '='),
      pick('token ', 'Bearer ', 'Basic ', 'bearer ', 'Bot ', ''),
      base64url(20),
      pick('', '=', '=='),
    )
    .map(([h, sep, scheme, v, pad]) => ({ text: `${h}${sep}${scheme}${v}${pad}`, value: v })),
  'bearer-or-basic': fc
    .tuple(pick('Bearer ', 'bearer\t', 'BEARER ', 'Basic '), base64url(20))
    .map(([scheme, v]) => ({ text: `-H ${scheme}${v}`, value: v })),
  'cookie-header': fc
    .tuple(pick('Cookie: ', 'cookie:', 'Set-Cookie: '), generated(16))
    .map(([h, v]) => ({ text: `${h}session=${v}; theme=dark`, value: v })),
  'named-secret': fc
    .tuple(
      pick(
        'password',
        'PASSWORD',
        'db_password',
        'DB_PASSWORD',
        'passwd',
        'client_secret',
        'clientSecret',
        'GITHUB_TOKEN',
        'access_token',
        'accessToken',
        'api_key',
        'apiKey',
        'X-Api-Key',
        'x-api-key',
        'Private-Token',
        'X-Auth-Token',
        'aws_secret_access_key',
        'private_key',
        'secret',
        'token',
        'auth',
        'credentials',
      ),
      pick('{k}={v}', '{k}: {v}', '{k}:{v}', '{k} = {v}', '"{k}": "{v}"', '"{k}":"{v}"', "'{k}': '{v}'", '--{k}={v}', '{k}="{v}"'),
      generated(12),
    )
    .map(([k, form, v]) => ({ text: form.replace('{k}', k).replace('{v}', v), value: v })),
  'spaced-secret': fc
    .tuple(
      pick('password ', '--password ', 'passwd ', 'passphrase ', 'token ', '--token ', 'secret ', 'api_key ', 'API-KEY '),
      generated(10),
    )
    .map(([k, v]) => ({ text: `${k}${v}`, value: v })),
};

/** Text around a secret: letters, punctuation, quotes, tabs and newlines. */
const filler = fc.stringMatching(/^[a-zA-Z .,:;()\t\n"'-]{0,30}$/);
/** What separates a secret from the text around it (a character that ends a word; `-` joins names). */
const separator = pick(' ', '\t', '\n', '"', "'", '(', ')', '[', ']', '{', '}', ',', ';', '<', '>', '`', '|', '!', '=', ':', '/');

describe('SECRET_SHAPES: every shape is redacted wherever it sits in a line', () => {
  for (const [id, sample] of Object.entries(SAMPLES)) {
    it(`${id}: in any line, plain or JSON-escaped, the value is gone and the text says ${REDACTED}`, () => {
      fc.assert(
        fc.property(filler, separator, sample, separator, filler, fc.boolean(), (before, open, s, close, after, escaped) => {
          const line = `${before}${open}${s.text}${close}${after}`;
          const text = escaped ? JSON.stringify(line) : line;
          const out = redactSecrets(text);
          expect(out).not.toContain(s.value);
          expect(out).toContain(REDACTED);
          expect(redactSecrets(out)).toBe(out);
        }),
        { numRuns: 300 },
      );
    });
  }

  it('all of them in one line, as a failing command sink printed them to stderr', () => {
    fc.assert(
      fc.property(fc.tuple(...Object.values(SAMPLES)), fc.boolean(), (samples, escaped) => {
        const line = samples.map((s) => s.text).join(' ; ');
        const out = redactSecrets(escaped ? JSON.stringify(line) : line);
        for (const s of samples) expect(out).not.toContain(s.value);
      }),
      { numRuns: 200 },
    );
  });
});

/** Words and identifiers people give sessions, beads, worktrees and the like. */
const NAME_WORDS = [
  'orch',
  'auth',
  'oauth',
  'token',
  'tokens',
  'key',
  'api',
  'apikey',
  'secret',
  'secrets',
  'password',
  'passwd',
  'pwd',
  'credentials',
  'signature',
  'cookie',
  'bearer',
  'basic',
  'authorization',
  'service',
  'rotation',
  'worker',
  'login',
  'deploy',
  'impl',
  'validate',
  'gate',
  'main',
  'feature',
  'sk',
  'gh',
  'npm',
  'SG',
  'AKIA',
];
/** Ordinary words a sentence puts after a name: English, camelCase, hyphenated, with a small number. */
const ORDINARY_WORDS = [
  'it',
  'may',
  'be',
  'waiting',
  'for',
  'input',
  'finished',
  'idle',
  'crashed',
  'missing',
  'unblock',
  'Re-trigger',
  'validation',
  'stalled',
  'Implementation',
  'expected',
  'rotation',
  'waitingForInput',
  'HTTPServer',
  'release2024',
  'worker2',
  'gate-1',
  'v2',
  'internationalization',
  'undefined',
  'required',
  '2026-02-19T14:00:00Z',
  '12345678',
  'bd-a3f8',
  '[REDACTED]',
];
const caseOf = (word: string) => fc.constantFrom(word, word.toUpperCase(), word.charAt(0).toUpperCase() + word.slice(1));
const nameWord = fc.constantFrom(...NAME_WORDS).chain(caseOf);
/** `orch-auth`, `api-key-rotation`, `token_service.2`, `DB_PASSWORD`. */
const name = fc
  .tuple(fc.array(nameWord, { minLength: 1, maxLength: 4 }), fc.constantFrom('-', '_', '.'), fc.constantFrom('', '2', '-7', '_42'))
  .map(([words, join, tail]) => `${words.join(join)}${tail}`);

describe('redactSecrets never changes an ordinary word after a name', () => {
  it('`<name><sep><word>` for names that end in auth/token/key/secret/password and ordinary words', () => {
    fc.assert(
      fc.property(
        name,
        fc.constantFrom(': ', ':', '=', ' ', ' = ', '": "'),
        fc.array(fc.constantFrom(...ORDINARY_WORDS), { minLength: 1, maxLength: 4 }),
        (n, sep, words) => {
          const text = `Check ${n}${sep}${words.join(' ')}`;
          expect(redactSecrets(text)).toBe(text);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('the sentences of issue 25', () => {
    for (const text of [
      'Check orch-auth: it may be waiting for input or finished',
      'IDLE: orch-auth (no pane change for 45 min)',
      'Dispatch validation of the pending gates of api-key-rotation: gate-1, validate_login_v2',
      'Re-launch token-service for bd-a3f8',
      'Token cost this cycle: ~1,234 tokens',
      'Authorization: Bearer undefined',
      'bd-12 ready: fix the login page (author: alice)',
      'the password reset flow',
    ])
      expect(redactSecrets(text)).toBe(text);
  });
});

describe('redactSecrets: its cheap pre-tests give the same text as running every shape', () => {
  it('for text built of the fragments every pre-test and pattern looks for', () => {
    // Fragments that trip each pre-test, mixed case, so a pre-test that is too strict (a literal the
    // pattern does not need, a case the pattern ignores) shows up as a secret left in the text.
    const fragment = fc.constantFrom(
      '-----BEGIN RSA PRIVATE KEY-----',
      '-----END RSA PRIVATE KEY-----',
      '-----BEGIN PGP PRIVATE KEY BLOCK-----',
      'ghp_',
      'gho_',
      'GHP_',
      'github_pat_',
      'glpat-',
      'gldt-',
      'AIza',
      'aiza',
      'ya29.',
      'npm_',
      'NPM_',
      'SG.',
      'sg.',
      'xoxb-',
      'xoxp-',
      'sk-',
      'sk_live_',
      'rk_test_',
      'AKIA',
      'ASIA',
      'eyJ',
      '.eyJ',
      'Bearer ',
      'BEARER ',
      'bEaReR\t',
      'Basic ',
      'basic ',
      'Authorization: ',
      'AUTHORIZATION=',
      'Proxy-Authorization:',
      'token ',
      'Token: ',
      'Cookie: ',
      'SET-COOKIE:',
      'a=b',
      'https://',
      'HTTP://',
      'hooks.slack.com/',
      'HOOKS.Slack.COM/',
      'discord.com/api/webhooks/',
      'DiscordApp.com/API/Webhooks/',
      'x.webhook.office.com/',
      'LOGIC.AZURE.COM/',
      'alice:',
      'pw@',
      '@',
      '?',
      '&',
      ':',
      '=',
      '--',
      '\\n',
      '\\"',
      'A1b2C3d4E5f6G7h8I9j0K1l2',
      'ABCDEFGH12345678',
      'hunter2XY99',
      'password',
      'PassWord',
      'passwd',
      'pwd',
      'secret',
      'TOKEN',
      'Api-Key',
      'X-Api-Key',
      'auth',
      'credentials',
      'signature',
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
      fc.property(fc.array(piece, { maxLength: 14 }), (pieces) => {
        const text = pieces.join('');
        expect(redactShapes(text, true)).toBe(redactShapes(text, false));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('docs/redaction.md', () => {
  const doc = readFileSync(join(import.meta.dirname, '../../../../docs/redaction.md'), 'utf8');
  /** The table's rows: `| id | where it comes from | example | printed as |`. */
  const rows = [...doc.matchAll(/^\| `([a-z0-9-]+)` \| [^|]+ \| `([^`]+)` \| `([^`]+)` \|$/gm)].map(([, id, example, redacted]) => ({
    id: id!,
    example: example!,
    redacted: redacted!,
  }));

  it('has one row per shape, in the order they are applied', () => {
    expect(rows.map((r) => r.id)).toEqual(Object.keys(SECRET_SHAPES));
  });

  it.each(rows)('$id: the example is printed as the table says', ({ example, redacted }) => {
    expect(redactSecrets(example.replace(/\\n/g, '\n'))).toBe(redacted.replace(/\\n/g, '\n'));
  });
});
