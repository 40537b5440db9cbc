/**
 * Text hygiene for untrusted strings (tool output, names, titles, pane contents): strip terminal
 * escapes and control characters, redact secrets, neutralise mentions and links before a model
 * or a human reads them. Every function is idempotent.
 */

/* eslint-disable no-control-regex -- matching control characters is this module's job */

// CSI (ESC [ … final), OSC (ESC ] … BEL | ESC \), other two-byte ESC sequences, and 8-bit CSI/OSC.
const ANSI_PATTERN =
  /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b]*(?:\x1b\\)?|\x1b[@-Z\\-_]|\x9b[0-?]*[ -/]*[@-~]|\x9d[^\x07\x9c]*(?:\x07|\x9c)?/g;
// C0 controls except tab and newline, DEL, C1 controls.
const CONTROL_PATTERN = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;
// Bidi overrides and isolates, zero-width characters that can hide text.
const BIDI_PATTERN = /[\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/g;

/** Removes ANSI/OSC escape sequences, C0/C1 control characters (tab and newline kept) and bidi overrides. */
export function stripTerminalEscapes(text: string): string {
  return text.replace(ANSI_PATTERN, '').replace(CONTROL_PATTERN, '').replace(BIDI_PATTERN, '');
}

/**
 * A secret pattern and a cheap test any text it can match passes (a literal it needs, checked in
 * `lower` for the case-insensitive ones). Most text holds none of them, so most patterns are never
 * run: a one-shot cycle compiles each regular expression on first use, and running all of them
 * on its first findings cost ≈ 15 ms of its CPU.
 */
interface SecretPattern {
  readonly pattern: RegExp;
  readonly mayMatch: (text: string, lower: string) => boolean;
}

const SECRET_PATTERNS: readonly SecretPattern[] = [
  {
    pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g,
    mayMatch: (t) => t.includes('-----BEGIN '),
  },
  { pattern: /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}/g, mayMatch: (t) => t.includes('gh') },
  { pattern: /\bgithub_pat_[A-Za-z0-9_]{20,}/g, mayMatch: (t) => t.includes('github_pat_') },
  { pattern: /\bxox[abpr]-[A-Za-z0-9-]{10,}/g, mayMatch: (t) => t.includes('xox') },
  { pattern: /\bsk-(?:[A-Za-z0-9_-]{20,})/g, mayMatch: (t) => t.includes('sk-') },
  { pattern: /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi, mayMatch: (_, l) => l.includes('bearer') },
  { pattern: /\bBasic\s+[A-Za-z0-9+/=]{8,}/g, mayMatch: (t) => t.includes('Basic') },
  // Webhook URLs whose path is the secret (Slack, Discord, Teams/Office connectors).
  { pattern: /\bhttps?:\/\/hooks\.slack\.com\/[^\s"'<>]+/gi, mayMatch: (_, l) => l.includes('hooks.slack.com/') },
  {
    pattern: /\bhttps?:\/\/(?:[a-z0-9-]+\.)?discord(?:app)?\.com\/api\/webhooks\/[^\s"'<>]+/gi,
    mayMatch: (_, l) => l.includes('/api/webhooks/'),
  },
  {
    pattern: /\bhttps?:\/\/[a-z0-9.-]*(?:webhook\.office\.com|logic\.azure\.com)\/[^\s"'<>]+/gi,
    mayMatch: (_, l) => l.includes('webhook.office.com/') || l.includes('logic.azure.com/'),
  },
  { pattern: /\bAKIA[0-9A-Z]{16}\b/g, mayMatch: (t) => t.includes('AKIA') },
];
// `token=…`, `api_key: …`, `password=…` in query strings, headers, env dumps and JSON-ish text.
const NAMED_SECRET =
  /\b((?:[A-Za-z0-9_-]*(?:token|secret|passw(?:or)?d|api[-_]?key|access[-_]?key|auth|authori[sz]ation|signature)|sig|key)["']?\s*[=:]\s*["']?)(?!\[REDACTED\])[^\s&"',;)}\]]+/gi;
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@:]+:[^\s/@]+@/gi;

/** The text secrets are replaced with. */
export const REDACTED = '[REDACTED]';

/**
 * Replaces tokens (GitHub, Slack `xox?-`, OpenAI, AWS), bearer/basic authorisations, secret
 * webhook URLs, `user:pass@` in URLs, `token=`/`password=`/`api_key=`-style values and private
 * keys with `[REDACTED]`. The one redaction every printing path goes through.
 */
export function redactSecrets(text: string): string {
  return redactSecretsWith(text, true);
}

/**
 * {@link redactSecrets} with its cheap pre-tests on or off: the tests prove both give the same text.
 * @internal
 */
export function redactSecretsWith(text: string, pretest: boolean): string {
  let out = text;
  let lower: string | undefined;
  for (const { pattern, mayMatch } of SECRET_PATTERNS) {
    lower ??= out.toLowerCase();
    if (pretest && !mayMatch(out, lower)) continue;
    const next = out.replace(pattern, REDACTED);
    if (next !== out) [out, lower] = [next, undefined];
  }
  if (!pretest || (out.includes('://') && out.includes('@'))) out = out.replace(URL_CREDENTIALS, `$1${REDACTED}@`);
  if (!pretest || out.includes('=') || out.includes(':')) out = out.replace(NAMED_SECRET, `$1${REDACTED}`);
  return out;
}

/** Options of {@link sanitizeForMessage}. */
export interface SanitizeOptions {
  /** Longest result in characters; longer text ends in `…`. Default 200. */
  readonly maxLength?: number;
  /** Keep newlines (default false: they become spaces). */
  readonly multiline?: boolean;
}

/**
 * Makes an untrusted value safe to put in a message a model reads: escapes and controls stripped,
 * secrets redacted, `@mentions` broken with a zero-width-free marker, markdown links and code fences
 * neutralised, whitespace collapsed, length capped.
 */
export function sanitizeForMessage(text: string, options: SanitizeOptions = {}): string {
  const maxLength = options.maxLength ?? 200;
  let out = redactSecrets(stripTerminalEscapes(text));
  if (!options.multiline) out = out.replace(/[\r\n\t]+/g, ' ');
  out = out
    .replace(/@(?=[A-Za-z0-9_-])/g, '@\u2024') // one-dot leader: reads as @ but pings nobody
    .replace(/<(?=[!#]|@)/g, '<\u2024') // Slack's <!channel>, <!here>, <!everyone>, <!subteam^…>, <#C…>
    .replace(/\[([^\]]*)\]\(([^)]*)\)/g, '$1 ($2)')
    .replace(/`{3,}/g, "'''")
    .replace(/ {2,}/g, ' ')
    .trim();
  if ([...out].length > maxLength) out = [...out].slice(0, Math.max(0, maxLength - 1)).join('') + '…';
  return out;
}
