/**
 * Text hygiene for untrusted strings (tool output, names, titles, pane contents): strip terminal
 * escapes and control characters (terminal-escapes.ts), redact secrets (secret-shapes.ts),
 * neutralise mentions and links before a model or a human reads them. Every function is idempotent.
 */

import { redactShapes } from './secret-shapes.js';
import { stripTerminalEscapes } from './terminal-escapes.js';

/**
 * Replaces secrets with `[REDACTED]`, by the shapes secrets have (the table in `secret-shapes.ts`
 * and docs/redaction.md): vendor tokens by their prefix (GitHub, GitLab, Google, npm, SendGrid,
 * Slack, OpenAI/Anthropic, Stripe, AWS), JWTs, PEM private keys, secret webhook URLs, `user:pass@`
 * and credential query parameters in URLs, and the value of an `Authorization`/`Cookie` header,
 * a `token=`/`X-Api-Key:`/`password …` form when that value looks like a secret, never an
 * ordinary word. The one redaction every printing path goes through.
 */
export function redactSecrets(text: string): string {
  return redactShapes(text, true);
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
