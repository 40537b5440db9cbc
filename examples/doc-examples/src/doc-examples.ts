import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** One ```ts block of an `@example` tag. */
export interface DocExample {
  /** Source file, relative to the repository root. */
  readonly file: string;
  /** The function or constant the doc comment belongs to. */
  readonly symbol: string;
  readonly code: string;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

/** Every `@example` code block in `packages/<pkg>/src/**\/*.ts` (tests excluded), in file order. */
export function collectDocExamples(root: string): DocExample[] {
  const examples: DocExample[] = [];
  for (const pkg of readdirSync(join(root, 'packages')).sort()) {
    let files: string[];
    try {
      files = sourceFiles(join(root, 'packages', pkg, 'src')).sort();
    } catch {
      continue;
    }
    for (const file of files) {
      const lines = readFileSync(file, 'utf8').split('\n');
      for (let i = 0; i < lines.length; i++) {
        if (!/^\s*\* @example\s*$/.test(lines[i] ?? '')) continue;
        if (!/^\s*\* ```(ts|typescript)\s*$/.test(lines[i + 1] ?? '')) continue;
        const code: string[] = [];
        let j = i + 2;
        for (; j < lines.length && !/^\s*\* ```\s*$/.test(lines[j] ?? ''); j++) code.push((lines[j] ?? '').replace(/^\s*\* ?/, ''));
        let k = j;
        while (k < lines.length && !/^\s*(export\s|\w)/.test(lines[k] ?? '')) k++;
        const symbol = /^\s*export\s+(?:async\s+)?(?:function|const|class)\s+(\w+)/.exec(lines[k] ?? '')?.[1] ?? '?';
        examples.push({ file: relative(root, file), symbol, code: `${code.join('\n')}\n` });
        i = j;
      }
    }
  }
  return examples;
}
