// Text helpers of the HEARTBEAT.md reader: names compared loosely, values shown short, markdown marks and comments dropped.

const MAX_VALUE_SHOWN = 80;

/** A heading or key as compared: lower case, runs of spaces, `_` and `-` as one space. */
export function normalizeName(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ')
    .trim();
}

/** A value cut to what a warning or error shows. */
export function shorten(text: string): string {
  return text.length > MAX_VALUE_SHOWN ? `${text.slice(0, MAX_VALUE_SHOWN - 1)}…` : text;
}

/** Lines with comments blanked, and the line (1-based) of a `<!--` never closed, if any. */
export interface StrippedLines {
  readonly lines: string[];
  readonly unclosedAt?: number;
}

/**
 * Blanks out `<!-- … -->` (also across lines) while keeping line numbers. A `<!--` never closed
 * hides the rest of the file, as in CommonMark; `unclosedAt` names it so the reader can say so
 * (silently losing every setting below a typo is what a user cannot debug).
 */
export function stripHtmlComments(input: readonly string[]): StrippedLines {
  let inComment = false;
  let openedAt = 0;
  const lines = input.map((line, index) => {
    let out = '';
    let rest = line;
    for (;;) {
      if (inComment) {
        const close = rest.indexOf('-->');
        if (close === -1) return out;
        rest = rest.slice(close + 3);
        inComment = false;
      }
      const open = rest.indexOf('<!--');
      if (open === -1) return out + rest;
      out += rest.slice(0, open);
      rest = rest.slice(open + 4);
      inComment = true;
      openedAt = index + 1;
    }
  });
  return inComment ? { lines, unclosedAt: openedAt } : { lines };
}

/** Drops `*`, backticks and blanks around a key or value. */
// Loops instead of an anchored regex: `[*\s]+$` backtracks quadratically on long blank runs.
export function trimMarks(text: string): string {
  const isMark = (ch: string | undefined): boolean => ch === '*' || ch === '`' || (ch !== undefined && ch.trim() === '');
  let from = 0;
  let to = text.length;
  while (from < to && isMark(text[from])) from++;
  while (to > from && isMark(text[to - 1])) to--;
  return text.slice(from, to);
}

/** The table's own entry for a key read from the file (never one inherited from Object.prototype). */
export function hasOwn<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
