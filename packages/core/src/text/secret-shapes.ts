/**
 * The closed table of the shapes secrets have: the one list {@link redactSecrets} redacts by.
 *
 * Two kinds of row. A `token` row matches the secret by its own shape (a vendor's prefix, a PEM
 * block, a webhook URL whose path is the secret) and redacts every match. A `keyed` row matches
 * what introduces a value (a header, `name=value`, `name: value`, `password <value>`) and redacts
 * the value only when it {@link looksLikeSecret}: a name that merely ends in auth/token/key is
 * followed by ordinary words in our own sentences (`Check orch-auth: it may be waiting for input`).
 *
 * Every pattern has two groups: the text kept (a header's name, a URL's scheme) and the secret.
 * The table and its examples are in docs/redaction.md; a test keeps the two in step.
 *
 * @internal
 */
import { looksLikeSecret } from './secret-value.js';

/** One shape of {@link SECRET_SHAPES}. */
export interface SecretShape {
  /** `token`: every match is a secret. `keyed`: the value is redacted only when it looks like one. */
  readonly kind: 'token' | 'keyed';
  /** Global; group 1 is kept, group 2 is the secret (a lookahead keeps what follows it). */
  readonly pattern: RegExp;
  /**
   * A cheap test that every text the pattern can match passes: a literal it needs, checked in
   * `lower` for the case-insensitive patterns. Most text holds none, so most patterns never run
   * (a one-shot cycle compiles each expression on first use).
   */
  readonly mayMatch: (text: string, lower: string) => boolean;
}

/**
 * Where a token may start: after a character that is not part of a word, or after a JSON escape
 * (`\n`, `\t`, `\r`) so that a secret on the second line of a JSON-escaped text is still found.
 * A word that merely contains a prefix (`task-…` holds `sk-`) is not a token.
 */
const START = String.raw`(?:(?<![A-Za-z0-9_])|(?<=\\[nrt]))`;
/** Where a header or a secret word may start: as {@link START}, and not inside a kebab-case name (`orch-token`). */
const KEY_START = String.raw`(?:(?<![A-Za-z0-9_-])|(?<=\\[nrt]))`;

/** A token row: the whole match is the secret. */
function token(source: string, mayMatch: SecretShape['mayMatch'], flags = 'g'): SecretShape {
  return { kind: 'token', pattern: new RegExp(`()(${START}${source})`, flags), mayMatch };
}

/** Characters of an opaque credential (RFC 6750 b64token, base64, base64url, JWT). */
const CREDENTIAL = '[A-Za-z0-9._~+/=-]+';
/** A value after `name=` / `name: `: up to whitespace, a quote, a JSON escape or a delimiter of the text around it. */
const VALUE = String.raw`[^\s"'\\&,;)}\]<>]+`;
/** An optional quote around a name or a value, JSON-escaped or not (`"key": "v"`, `\"key\": \"v\"`). */
const QUOTE = String.raw`(?:\\?["'])?`;
/** One `name=value` of a cookie header. */
const COOKIE_PAIR = String.raw`[^\s=;"'\\]+=[^\s;"'\\]*`;
/** Spaces or tabs between a scheme or a flag and its value, a tab JSON-escaped too. */
const GAP = String.raw`(?:[ \t]|\\t)+`;
/** Words that name a secret at the end of a key (`GITHUB_TOKEN`, `client_secret`, `X-Api-Key`, `db.password`). */
const SECRET_NAME = String.raw`(?:passw(?:or)?d|passphrase|pwd|secret|token|api[-_]?key|key|auth|authori[sz]ation|credentials?|signature)`;

/** A secret's name and `=`/`:` as {@link SECRET_SHAPES} `named-secret` needs them: its cheap pre-test. */
const NAME_THEN_SEPARATOR = new RegExp(String.raw`${SECRET_NAME}${QUOTE}\s*[=:]`, 'i');
/** A bare secret word, a gap and 8 characters, as `spaced-secret` needs them: its cheap pre-test. */
const SPACED_WORD_THEN_VALUE = new RegExp(String.raw`(?:passw(?:or)?d|passphrase|secret|token|api[-_]?key)${GAP}[^\s]{8}`, 'i');

/**
 * The shapes, in the order they are applied: tokens first, so that a header's value that is
 * itself a known token is already `[REDACTED]` when the header rows see it.
 */
export const SECRET_SHAPES = {
  /** PEM private keys (RFC 7468; OpenSSH, PKCS#1/#8, PGP `… PRIVATE KEY BLOCK`), to the END line or the end of the text. */
  'private-key-block': {
    kind: 'token',
    pattern: /()(-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$))/g,
    mayMatch: (t) => t.includes('-----BEGIN '),
  },
  /** GitHub tokens: `ghp_` personal, `gho_` OAuth, `ghu_` user-to-server, `ghs_` server-to-server, `ghr_` refresh. */
  'github-token': token('gh[pousr]_[A-Za-z0-9]{20,}', (t) => t.includes('gh')),
  /** GitHub fine-grained personal access tokens. */
  'github-fine-grained-token': token('github_pat_[A-Za-z0-9_]{20,}', (t) => t.includes('github_pat_')),
  /** GitLab tokens: `glpat-` personal/project/group access, `gldt-` deploy, `glptt-` pipeline trigger, `glrt-` runner. */
  'gitlab-token': token('gl(?:pat|dt|ptt|rt)-[A-Za-z0-9_-]{20,}', (t) => t.includes('gl')),
  /** Google API keys (Maps, Gemini, Firebase…): `AIza` and 35 more characters. */
  'google-api-key': token('AIza[A-Za-z0-9_-]{30,}', (t) => t.includes('AIza')),
  /** Google OAuth 2.0 access tokens (`ya29.`), what the GChat poller's token file holds. */
  'google-oauth-token': token(String.raw`ya29\.[A-Za-z0-9_-]{20,}`, (t) => t.includes('ya29.')),
  /** npm access tokens (`npm_` and 36 characters), as `.npmrc` and CI logs carry them. */
  'npm-token': token('npm_[A-Za-z0-9]{30,}', (t) => t.includes('npm_')),
  /** SendGrid API keys: `SG.<id>.<secret>`. */
  'sendgrid-key': token(String.raw`SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}`, (t) => t.includes('SG.')),
  /** Slack tokens: `xoxb-` bot, `xoxp-` user, `xoxa-`/`xoxe-` app and rotating, `xoxr-` refresh, `xoxs-`/`xoxo-` legacy. */
  'slack-token': token('xox[abeoprs]-[A-Za-z0-9-]{10,}', (t) => t.includes('xox')),
  /**
   * OpenAI keys (`sk-` and 48 letters and digits; `sk-proj-`, `sk-svcacct-`, `sk-admin-`) and
   * Anthropic keys (`sk-ant-`). A kebab-case name after `sk-` (`sk-orch-signature-2`) is not one.
   */
  'sk-dash-key': token('sk-(?:[A-Za-z0-9]{20,}|(?:proj|ant|svcacct|admin)-[A-Za-z0-9_-]{20,})', (t) => t.includes('sk-')),
  /** Stripe secret and restricted keys (`sk_live_`, `sk_test_`, `rk_live_`, `rk_test_`). */
  'stripe-secret-key': token('[rs]k_(?:live|test)_[A-Za-z0-9]{16,}', (t) => t.includes('k_live_') || t.includes('k_test_')),
  /** AWS access key ids: `AKIA` long-term, `ASIA` temporary (STS). */
  'aws-access-key-id': token('A(?:KI|SI)A[0-9A-Z]{16}(?![A-Za-z0-9])', (t) => t.includes('AKIA') || t.includes('ASIA')),
  /** A JSON Web Token: base64url `{"…` header and payload (`eyJ`), then the signature. */
  jwt: token(String.raw`eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*`, (t) => t.includes('eyJ')),
  /** Slack incoming webhooks: the path is the secret. */
  'slack-webhook-url': token(String.raw`https?:\/\/hooks\.slack\.com\/[^\s"'<>\\]+`, (_, l) => l.includes('hooks.slack.com/'), 'gi'),
  /** Discord webhooks: the path is the secret. */
  'discord-webhook-url': token(
    String.raw`https?:\/\/(?:[a-z0-9-]+\.)?discord(?:app)?\.com\/api\/webhooks\/[^\s"'<>\\]+`,
    (_, l) => l.includes('/api/webhooks/'),
    'gi',
  ),
  /** Microsoft Teams / Office 365 connectors and Power Automate (Logic Apps) triggers: the URL carries the signature. */
  'teams-webhook-url': token(
    String.raw`https?:\/\/[a-z0-9.-]*(?:webhook\.office\.com|logic\.azure\.com)\/[^\s"'<>\\]+`,
    (_, l) => l.includes('webhook.office.com/') || l.includes('logic.azure.com/'),
    'gi',
  ),
  /** `scheme://user:password@host` (RFC 3986 userinfo): the user and the password. */
  'url-userinfo': {
    kind: 'token',
    pattern: /(\b[a-z][a-z0-9+.-]*:\/\/)([^\s/@:"'\\]+:[^\s/@"'\\]+)(?=@)/gi,
    mayMatch: (t) => t.includes('://') && t.includes('@'),
  },
  /** A credential in a URL's query (`?access_token=`, `&sig=`, `?key=`): any value, since a query string is never prose. */
  'url-query-secret': {
    kind: 'token',
    pattern: new RegExp(String.raw`([?&](?:[A-Za-z0-9_.-]*${SECRET_NAME}|sig)=)([^\s&#"'\\<>]+)`, 'gi'),
    mayMatch: (t) => t.includes('=') && (t.includes('?') || t.includes('&')),
  },
  /** `Authorization:` / `Proxy-Authorization:` with or without a scheme (`Bearer`, `Basic`, `token`, `Bot`…). */
  'authorization-header': {
    kind: 'keyed',
    pattern: new RegExp(
      String.raw`(${KEY_START}(?:Proxy-)?Authori[sz]ation${QUOTE}\s*[:=]\s*${QUOTE}(?:[A-Za-z][A-Za-z0-9_-]*${GAP})?)(${CREDENTIAL})`,
      'gi',
    ),
    mayMatch: (_, l) => l.includes('authori'),
  },
  /** A bearer or basic credential outside a header (`curl -H`, logs): RFC 6750 / RFC 7617 schemes. */
  'bearer-or-basic': {
    kind: 'keyed',
    pattern: new RegExp(String.raw`(${START}(?:Bearer|Basic)${GAP})(${CREDENTIAL})`, 'gi'),
    mayMatch: (_, l) => l.includes('bearer') || l.includes('basic'),
  },
  /** `Cookie:` / `Set-Cookie:` headers: their `name=value; name=value` pairs are a session. */
  'cookie-header': {
    kind: 'token',
    pattern: new RegExp(String.raw`(${KEY_START}(?:Set-)?Cookie\s*:\s*)(${COOKIE_PAIR}(?:;[ \t]*${COOKIE_PAIR})*)`, 'gi'),
    mayMatch: (_, l) => l.includes('cookie'),
  },
  /**
   * `name=value`, `name: value`, `"name": "value"` (JSON, also JSON-escaped) where the name ends in
   * a word that names a secret: env dumps (`GITHUB_TOKEN=…`), headers (`X-Api-Key: …`,
   * `Private-Token: …`), config and JSON (`client_secret`, `api_key`).
   */
  'named-secret': {
    kind: 'keyed',
    pattern: new RegExp(String.raw`((?<![A-Za-z0-9_.-])${QUOTE}[A-Za-z0-9_.-]*?${SECRET_NAME}${QUOTE}\s*[=:]\s*${QUOTE})(${VALUE})`, 'gi'),
    // The name and its `=`/`:` without the pattern's look-behind, which is tried at every position:
    // a title that mentions a token (`fix the login token refresh`) costs one quick scan.
    mayMatch: (t) => NAME_THEN_SEPARATOR.test(t),
  },
  /** `password <value>`, `--token <value>`: a bare secret word or flag, then the value after a space (command lines, logs). */
  'spaced-secret': {
    kind: 'keyed',
    pattern: new RegExp(
      String.raw`((?:${KEY_START}|(?<=${KEY_START}--))(?:passw(?:or)?d|passphrase|secret|token|api[-_]?key)${GAP})(${VALUE})`,
      'gi',
    ),
    mayMatch: (t) => SPACED_WORD_THEN_VALUE.test(t),
  },
} as const satisfies Record<string, SecretShape>;

/** The name of a row of {@link SECRET_SHAPES}. */
export type SecretShapeId = keyof typeof SECRET_SHAPES;

/** The text secrets are replaced with. */
export const REDACTED = '[REDACTED]';

/**
 * A keyed row over `text`: a value that looks like a secret is replaced; after one that does not,
 * the search goes on from that value, since it may itself name the next secret (`key:password = …`)
 * — `String.replace` would skip past it.
 */
function replaceKeyed(text: string, pattern: RegExp): string {
  let out = '';
  let copied = 0;
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    const kept = m[1]!;
    if (looksLikeSecret(m[2]!)) {
      out += `${text.slice(copied, m.index)}${kept}${REDACTED}`;
      copied = m.index + m[0].length;
    } else {
      pattern.lastIndex = m.index + kept.length; // never empty: a keyed row always keeps its key
    }
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** The rows with the function that applies each, built once. */
const ROWS = Object.values(SECRET_SHAPES).map((shape: SecretShape) => ({
  mayMatch: shape.mayMatch,
  apply:
    shape.kind === 'token'
      ? (text: string) => text.replace(shape.pattern, (_match, kept: string) => `${kept}${REDACTED}`)
      : (text: string) => replaceKeyed(text, shape.pattern),
}));

/**
 * Applies every row of {@link SECRET_SHAPES} in order; with `pretest`, a row runs only when its
 * {@link SecretShape.mayMatch} passes. The tests prove both give the same text.
 */
export function redactShapes(text: string, pretest: boolean): string {
  let out = text;
  let lower: string | undefined;
  for (const { mayMatch, apply } of ROWS) {
    if (pretest) {
      lower ??= out.toLowerCase();
      if (!mayMatch(out, lower)) continue;
    }
    const next = apply(out);
    if (next !== out) [out, lower] = [next, undefined];
  }
  return out;
}
