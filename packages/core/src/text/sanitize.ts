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

const SECRET_PATTERNS: readonly RegExp[] = [
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g,
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bxox[abpr]-[A-Za-z0-9-]{10,}/g,
  /\bsk-(?:[A-Za-z0-9_-]{20,})/g,
  /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /\bBasic\s+[A-Za-z0-9+/=]{8,}/g,
  // Webhook URLs whose path is the secret (Slack, Discord, Teams/Office connectors).
  /\bhttps?:\/\/hooks\.slack\.com\/[^\s"'<>]+/gi,
  /\bhttps?:\/\/(?:[a-z0-9-]+\.)?discord(?:app)?\.com\/api\/webhooks\/[^\s"'<>]+/gi,
  /\bhttps?:\/\/[a-z0-9.-]*(?:webhook\.office\.com|logic\.azure\.com)\/[^\s"'<>]+/gi,
  /\bAKIA[0-9A-Z]{16}\b/g,
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
  let out = text;
  for (const pattern of SECRET_PATTERNS) out = out.replace(pattern, REDACTED);
  return out.replace(URL_CREDENTIALS, `$1${REDACTED}@`).replace(NAMED_SECRET, `$1${REDACTED}`);
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
