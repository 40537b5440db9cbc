/** Every .ts/.mts/.tsx file under a folder, skipping build output and dependencies. */
export function sourceFiles(dir: string): string[];
/** The import graph: file → files it imports (static, dynamic, type-only and re-exports alike). */
export function importGraph(files: readonly string[]): Map<string, string[]>;
/** Strongly connected components of more than one file, each sorted, largest first. */
export function circles(graph: ReadonlyMap<string, readonly string[]>): string[][];
