/**
 * What a terminal would interpret, taken out of text before it is printed or put in a message:
 * escape sequences, control characters, and the bidi and zero-width characters that hide text.
 */

/* eslint-disable no-control-regex -- matching control characters is this module's job */

// CSI (ESC [ … final), OSC (ESC ] … BEL | ESC \), DCS/SOS/PM/APC strings, other two-byte ESC
// sequences, and 8-bit CSI/OSC. An unterminated string ends at the line's end, so the text of the
// lines after it is kept (its introducer is gone, so nothing of it is interpreted).
const ANSI_PATTERN =
  /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b\n]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b\n]*(?:\x1b\\)?|\x1b[@-Z\\-_]|\x9b[0-?]*[ -/]*[@-~]|\x9d[^\x07\x9c\n]*(?:\x07|\x9c)?/g;
// C0 controls except tab and newline, DEL, C1 controls.
const CONTROL_PATTERN = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;
// Bidi overrides and isolates, zero-width characters that can hide text.
const BIDI_PATTERN = /[\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/g;
// Every character the two patterns above remove: what a terminal interprets or what hides text.
const UNSAFE_CHARACTER = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/;
const UNSAFE_CHARACTERS = new RegExp(UNSAFE_CHARACTER.source, 'g');

/** Removes ANSI/OSC escape sequences, C0/C1 control characters (tab and newline kept) and bidi overrides. */
export function stripTerminalEscapes(text: string): string {
  return text.replace(ANSI_PATTERN, '').replace(CONTROL_PATTERN, '').replace(BIDI_PATTERN, '');
}

/** How {@link sanitizeForTerminal} treats what a terminal would interpret. */
export type TerminalTextMode = 'text' | 'json';

/**
 * The one filter of everything the CLI prints (every command's stdout and stderr go through it):
 * nothing a terminal interprets reaches it (C0 controls but tab and newline, ESC sequences, DEL,
 * C1 controls such as the 8-bit CSI 0x9b) and no bidi override or zero-width character hides text.
 * `text`: they are removed ({@link stripTerminalEscapes}). `json`: each is written as its JSON
 * escape (`\u009b`), which inside a JSON string — the only place JSON output can hold one — is the
 * same value, so the output still parses to the same data. Text with none of them (nearly every
 * line) is returned as is after one scan.
 */
export function sanitizeForTerminal(text: string, mode: TerminalTextMode): string {
  if (!UNSAFE_CHARACTER.test(text)) return text;
  if (mode === 'text') return stripTerminalEscapes(text);
  return text.replace(UNSAFE_CHARACTERS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
