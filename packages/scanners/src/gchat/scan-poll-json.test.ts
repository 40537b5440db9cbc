import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanPollJson, utf8Length } from './scan-poll-json.js';

const parses = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

// Valid JSON, JSON with a character inserted, removed or replaced, and strings that are mostly not JSON.
const mutated = fc
  .tuple(fc.json(), fc.nat(), fc.constantFrom('', ',', '}', ']', '"', '\\', ':', 'x', '\u0001', ' ', '-', '.', 'e'), fc.boolean())
  .map(([text, at, insert, drop]) => {
    const i = at % (text.length + 1);
    return `${text.slice(0, i)}${insert}${text.slice(drop ? i + 1 : i)}`;
  });
const anyText = fc.oneof(fc.json(), mutated, fc.string(), fc.string({ unit: 'binary' }));

describe('scanPollJson', () => {
  it('agrees with JSON.parse on what is valid JSON', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(scanPollJson(text).errorAt === undefined).toBe(parses(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('a valid JSON text cut anywhere is valid or ends early: never wrong before the cut', () => {
    fc.assert(
      fc.property(fc.json(), fc.nat(), (text, at) => {
        const prefix = text.slice(0, at % (text.length + 1));
        const scan = scanPollJson(prefix);
        if (!parses(prefix)) expect(scan.errorAt).toBe(prefix.length);
      }),
      { numRuns: 2000 },
    );
  });

  it('points at the offending character', () => {
    expect(scanPollJson('{"a": 1,}').errorAt).toBe(8);
    expect(scanPollJson('[1 2]').errorAt).toBe(3);
    expect(scanPollJson('{"a": "x\u0001"}').errorAt).toBe(8);
    expect(scanPollJson('"\\q"').errorAt).toBe(2);
    expect(scanPollJson('"\\u12g4"').errorAt).toBe(5);
    expect(scanPollJson('{} x').errorAt).toBe(3);
    expect(scanPollJson('').errorAt).toBe(0);
    expect(scanPollJson('[tru').errorAt).toBe(4);
    expect(scanPollJson('[1.').errorAt).toBe(3);
  });

  it('notes where each reply and each top-level value begins', () => {
    const text = '{"checked_at": "t", "replies": [ {"a": [1]}, 2, "x" ], "pending_count": 0}';
    const scan = scanPollJson(text);
    expect(scan.errorAt).toBeUndefined();
    expect(scan.replyStarts.map((i) => text.charAt(i))).toEqual(['{', '2', '"']);
    expect(Object.fromEntries(scan.keyStarts)).toEqual({
      '"checked_at"': text.indexOf('"t"'),
      '"replies"': text.indexOf('['),
      '"pending_count"': text.lastIndexOf('0'),
    });
  });
});

describe('utf8Length', () => {
  it('is the UTF-8 byte length of any prefix, lone surrogates as U+FFFD', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.nat(), (text, at) => {
        const end = at % (text.length + 1);
        // A prefix may end between the two halves of a pair: that half is then lone, as in the prefix itself.
        expect(utf8Length(text, end)).toBe(Buffer.byteLength(text.slice(0, end)));
      }),
      { numRuns: 2000 },
    );
  });
});
