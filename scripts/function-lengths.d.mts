/** One function of a text: its name, first line (1-based) and length without blank and comment-only lines. */
export interface FunctionLength {
  readonly name: string;
  readonly line: number;
  readonly lines: number;
}
/** 1-based numbers of the lines that hold nothing but comments (and white space). */
export function commentOnlyLines(text: string, fileName?: string): Set<number>;
/** Every function of a TypeScript text with its counted length, in source order. */
export function functionLengths(text: string, fileName?: string): FunctionLength[];
