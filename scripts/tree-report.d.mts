/** Lines of a text as `wc -l` counts them: a last line without a line break still counts. */
export function lineCount(text: string): number;
/** The `top` largest of `items` by `size`, and how many are over `limit`. */
export function largest<T>(
  items: readonly T[],
  size: (item: T) => number,
  top: number,
  limit: number,
): { top: T[]; over: number; count: number };
/** The first line and the row counts of `duplicates` output. */
export function parseDuplicates(out: string): {
  pairs: number | null;
  listed: number;
  boilerplate: number;
  summary: string;
  notes: string[];
};
