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

  // At a '"': moves past the string; false (with i at the offending character) when it is not one.
  const string = (): boolean => {
    i += 1;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        i += 1;
        return true;
      }
      if (c < 32) return false;
      if (c !== 92) {
        i += 1;
        continue;
      }
      const e = text.charCodeAt(i + 1);
      if (e === 117) {
        for (let k = 2; k < 6; k++) {
          if (i + k >= n || !isHex(text.charCodeAt(i + k))) {
            i += k;
            return false;
          }
        }
        i += 6;
      } else if (e === 34 || e === 92 || e === 47 || e === 98 || e === 102 || e === 110 || e === 114 || e === 116) i += 2;
      else {
        i += 1;
        return false;
      }
    }
    return false;
  };
  // At a '}' or ']' that closes the innermost container.
  const close = (): void => {
    i += 1;
    if (open.length === repliesLevel) repliesLevel = -1;
    open.pop();
    expect = 'next';
    fresh = false;
  };

  for (;;) {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i += 1;
      else break;
    }
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
        } else if (c === 34) {
          if (!string()) return fail(i);
          expect = 'next';
        } else if (c === 45 || (c >= 48 && c <= 57)) {
          NUMBER.lastIndex = i;
          const end = NUMBER.test(text) ? NUMBER.lastIndex : -1;
          // A number cut off by the end of the text (`1.`, `2e`, `-`) ends early, it is not wrong.
          PARTIAL_NUMBER.lastIndex = i;
          if (end !== n && PARTIAL_NUMBER.test(text) && PARTIAL_NUMBER.lastIndex === n) return fail(n);
          if (end < 0) return fail(i + 1);
          i = end;
          expect = 'next';
        } else {
          const literal = LITERALS.find((word) => text.startsWith(word, i));
          // A literal cut off by the end of the text ends early; anything else is wrong where it starts.
          if (literal === undefined) return fail(LITERALS.some((word) => word.startsWith(text.slice(i))) ? n : i);
          i += literal.length;
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
        const start = i;
        if (!string()) return fail(i);
        if (open.length === 1) topKey = text.slice(start, i);
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
