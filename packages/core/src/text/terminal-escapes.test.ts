import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sanitizeForTerminal, stripTerminalEscapes } from './terminal-escapes.js';

/** What a terminal interprets (C0 but tab and newline, DEL, C1) or what hides text (bidi, zero-width). */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const INTERPRETED = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/;

/** Escape sequences and their parts, whole and cut short, 7-bit and 8-bit. */
const escapePiece = fc.constantFrom(
  '\u001b]0;pwned\u0007',
  '\u001b]8;;https://evil.example\u001b\\link\u001b]8;;\u001b\\',
  '\u001b]0;unterminated',
  '\u001b[31m',
  '\u001b[0m',
  '\u001b[2J\u001b[H',
  '\u001b[?1049h',
  '\u001bP+q544e\u001b\\',
  '\u001b_apc\u001b\\',
  '\u001bc',
  '\u009b31m',
  '\u009b',
  '\u009d0;title\u009c',
  '\u009d0;title',
  '\u0090dcs',
  '\u007f',
  '\u0007',
  '\u0008',
  '\r',
  '\u000b',
  '\u202e',
  '\u2066',
  '\u200b',
  '\ufeff',
  '\u001b',
);
const text = fc
  .array(fc.oneof(escapePiece, fc.string({ unit: 'binary', maxLength: 12 }), fc.constantFrom('\n', '\t', 'ok')), {
    maxLength: 16,
  })
  .map((pieces) => pieces.join(''));

describe('sanitizeForTerminal', () => {
  it('text: the output never holds a character a terminal interprets; tab and newline stay; idempotent', () => {
    fc.assert(
      fc.property(text, (input) => {
        const out = sanitizeForTerminal(input, 'text');
        expect(out).not.toMatch(INTERPRETED);
        expect(out.split('\n').length).toBe(input.split('\n').length);
        expect(out.split('\t').length).toBeLessThanOrEqual(input.split('\t').length);
        expect(sanitizeForTerminal(out, 'text')).toBe(out);
      }),
      { numRuns: 5000 },
    );
  });

  it('json: the output never holds one either, and parses to the same value', () => {
    fc.assert(
      fc.property(text, fc.string({ unit: 'binary', maxLength: 8 }), (input, key) => {
        const line = JSON.stringify({ [key]: input, detail: [input, 1] });
        const out = sanitizeForTerminal(line, 'json');
        expect(out).not.toMatch(INTERPRETED);
        expect(JSON.parse(out)).toEqual(JSON.parse(line));
      }),
      { numRuns: 5000 },
    );
  });

  it('text without any of them is returned as it is (the fast path of every printed line)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (input) => {
        if (!INTERPRETED.test(input)) expect(sanitizeForTerminal(input, 'text')).toBe(input);
      }),
    );
  });

  it('the receipt detail of issue 25: OSC title, CSI colour, 8-bit CSI', () => {
    const detail = 'bad \u001b]0;pwned\u0007 \u001b[31mred\u001b[0m \u009b31m c1 \u007f del';
    expect(sanitizeForTerminal(detail, 'text')).toBe('bad  red  c1  del');
    expect(sanitizeForTerminal(JSON.stringify({ detail }), 'json')).toBe(
      '{"detail":"bad \\u001b]0;pwned\\u0007 \\u001b[31mred\\u001b[0m \\u009b31m c1 \\u007f del"}',
    );
  });

  it('an unterminated OSC ends at the line: the lines after it are kept', () => {
    expect(stripTerminalEscapes('a \u001b]0;title\nnext line\n')).toBe('a \nnext line\n');
  });
});
