/** Where a poll output's JSON goes wrong, and where the parts a message may point at begin. */
export interface PollJsonScan {
  /** Index (UTF-16) of the first character that makes the text invalid JSON; the text's length when it ends early. */
  readonly errorAt?: number;
  /** Index of each element of the top-level object's `"replies"` array, as far as the text is valid. */
  readonly replyStarts: readonly number[];
  /** Index of the value of each top-level key (the key as written, quotes included). */
  readonly keyStarts: ReadonlyMap<string, number>;
}

const isHex = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const PARTIAL_NUMBER = /-?(?:0|[1-9]\d*)?(?:\.\d*)?(?:[eE][+-]?\d*)?/y;
const LITERALS = ['true', 'false', 'null'] as const;

// Past the JSON whitespace (space, tab, line feed, carriage return) from `i`.
function spaceEnd(text: string, i: number): number {
  let at = i;
  while (at < text.length) {
    const c = text.charCodeAt(at);
    if (c === 32 || c === 9 || c === 10 || c === 13) at += 1;
    else break;
  }
  return at;
}

/** Where a step of the scan ends: past the token when `ok`, else at the offending character. */
interface Step {
  readonly ok: boolean;
  readonly at: number;
}

// At a '"' at `start`: past the string, or the offending character when it is not one.
function stringEnd(text: string, start: number): Step {
  const n = text.length;
  let i = start + 1;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34) return { ok: true, at: i + 1 };
    if (c < 32) return { ok: false, at: i };
    if (c !== 92) {
      i += 1;
      continue;
    }
    const e = text.charCodeAt(i + 1);
    if (e === 117) {
      for (let k = 2; k < 6; k++) {
        if (i + k >= n || !isHex(text.charCodeAt(i + k))) return { ok: false, at: i + k };
      }
      i += 6;
    } else if (e === 34 || e === 92 || e === 47 || e === 98 || e === 102 || e === 110 || e === 114 || e === 116) i += 2;
    else return { ok: false, at: i + 1 };
  }
  return { ok: false, at: i };
}

// At a number or literal at `i`: past it, or where the text goes wrong (its length when it ends early).
function scalarEnd(text: string, i: number): Step {
  const n = text.length;
  const c = text.charCodeAt(i);
  if (c === 45 || (c >= 48 && c <= 57)) {
    NUMBER.lastIndex = i;
    const end = NUMBER.test(text) ? NUMBER.lastIndex : -1;
    // A number cut off by the end of the text (`1.`, `2e`, `-`) ends early, it is not wrong.
    PARTIAL_NUMBER.lastIndex = i;
    if (end !== n && PARTIAL_NUMBER.test(text) && PARTIAL_NUMBER.lastIndex === n) return { ok: false, at: n };
    if (end < 0) return { ok: false, at: i + 1 };
    return { ok: true, at: end };
  }
  const literal = LITERALS.find((word) => text.startsWith(word, i));
  // A literal cut off by the end of the text ends early; anything else is wrong where it starts.
  if (literal === undefined) return { ok: false, at: LITERALS.some((word) => word.startsWith(text.slice(i))) ? n : i };
  return { ok: true, at: i + literal.length };
}

/**
 * Checks `text` against the JSON grammar (RFC 8259, as `JSON.parse` reads it) in one pass without
 * recursion, so a message can name where a poll output goes wrong — `JSON.parse`'s own message
 * quotes the text, and a spool can be anything (a link to a secret file, once). Also notes where
 * each reply and each top-level value begins, for messages about the output's shape.
 */
export function scanPollJson(text: string): PollJsonScan {
  const n = text.length;
  const replyStarts: number[] = [];
  const keyStarts = new Map<string, number>();
  // Open containers: 123 '{' or 91 '['.
  const open: number[] = [];
  let i = 0;
  let expect: 'value' | 'key' | 'colon' | 'next' = 'value';
  // Just inside '{' or '[': the container may close at once.
  let fresh = false;
  let topKey: string | undefined;
  // open.length inside the top-level "replies" array, or -1.
  let repliesLevel = -1;
  const fail = (at: number): PollJsonScan => ({ errorAt: Math.min(at, n), replyStarts, keyStarts });

  // At a '}' or ']' that closes the innermost container.
  const close = (): void => {
    i += 1;
    if (open.length === repliesLevel) repliesLevel = -1;
    open.pop();
    expect = 'next';
    fresh = false;
  };

  for (;;) {
    i = spaceEnd(text, i);
    const c = text.charCodeAt(i);
    if (expect === 'next' && open.length === 0) return i >= n ? { replyStarts, keyStarts } : fail(i);
    if (i >= n) return fail(n);
    switch (expect) {
      case 'value': {
        if (fresh && c === 93) {
          close();
          break;
        }
        fresh = false;
        if (open.length === repliesLevel) replyStarts.push(i);
        if (open.length === 1 && topKey !== undefined) keyStarts.set(topKey, i);
        if (c === 123 || c === 91) {
          if (c === 91 && open.length === 1 && topKey === '"replies"') repliesLevel = 2;
          open.push(c);
          i += 1;
          expect = c === 123 ? 'key' : 'value';
          fresh = true;
        } else {
          const step = c === 34 ? stringEnd(text, i) : scalarEnd(text, i);
          if (!step.ok) return fail(step.at);
          i = step.at;
          expect = 'next';
        }
        break;
      }
      case 'key': {
        if (fresh && c === 125) {
          close();
          break;
        }
        fresh = false;
        if (c !== 34) return fail(i);
        const step = stringEnd(text, i);
        if (!step.ok) return fail(step.at);
        if (open.length === 1) topKey = text.slice(i, step.at);
        i = step.at;
        expect = 'colon';
        break;
      }
      case 'colon':
        if (c !== 58) return fail(i);
        i += 1;
        expect = 'value';
        break;
      case 'next': {
        const inObject = open[open.length - 1] === 123;
        if (c === 44) {
          i += 1;
          expect = inObject ? 'key' : 'value';
        } else if (c === (inObject ? 125 : 93)) close();
        else return fail(i);
        break;
      }
    }
  }
}

/** How many bytes the first `end` UTF-16 units of `text` take in UTF-8 (a lone surrogate as U+FFFD, 3 bytes). */
export function utf8Length(text: string, end: number = text.length): number {
  let bytes = 0;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < end && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}
