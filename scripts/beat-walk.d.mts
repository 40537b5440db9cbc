/** One call site of the walk: the caller's file, the callee's file and the callee's name. */
export interface Hop {
  readonly from: string;
  readonly to: string;
  readonly callee: string;
}
/** Files a return lands in, besides the start's own file. */
export const HUB_FILES: readonly string[];
/** Hops, stays and returns, with the returns counted per target file. */
export function classifyHops(
  hops: readonly Hop[],
  startFile: string,
  hubNames?: readonly string[],
): { hops: number; stays: number; returns: number; returnsByFile: Record<string, number> };
/** The walk from `runBeat` in `startFile`, over a program of that file and what it imports. */
export function beatWalk(
  startFile: string,
  compilerOptions: object,
  packageSrc: string,
): { functions: number; hops: number; stays: number; returns: number; returnsByFile: Record<string, number> } | undefined;
