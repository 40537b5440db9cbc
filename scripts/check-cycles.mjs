#!/usr/bin/env node
// Fails when the relative imports inside packages/*/{src,test} form a circle. A circle is found as a strongly
// connected component of more than one file (Tarjan). Type-only imports count: a circle through types still
// means two files cannot be read, moved or split one without the other.
// Usage: node scripts/check-cycles.mjs [--json]
// Uses the TypeScript scanner the repo already depends on (no madge/dpdm: one less dependency to pin and audit).
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Every .ts/.mts/.tsx file under a folder, skipping build output and dependencies. */
export function sourceFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name === 'dist' || name === 'fixtures') return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(m?ts|tsx)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The file a relative specifier names: './x.js' is written for './x.ts', a folder means its index. */
function resolveSpecifier(from, spec) {
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(dirname(from), spec);
  const stem = base.replace(/\.(m?js|jsx)$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.mts`, `${stem}.tsx`, join(base, 'index.ts')];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile());
}

/** The import graph: file → files it imports (static, dynamic, type-only and re-exports alike). */
export function importGraph(files) {
  const graph = new Map();
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = info.importedFiles.map((f) => resolveSpecifier(file, f.fileName)).filter(Boolean);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Strongly connected components of more than one file, each sorted, largest first. */
export function circles(graph) {
  let index = 0;
  const stack = [];
  const meta = new Map();
  const found = [];
  const visit = (v) => {
    meta.set(v, { index, low: index, onStack: true });
    index += 1;
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!meta.has(w)) {
        visit(w);
        meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).low);
      } else if (meta.get(w).onStack) {
        meta.get(v).low = Math.min(meta.get(v).low, meta.get(w).index);
      }
    }
    if (meta.get(v).low === meta.get(v).index) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        meta.get(w).onStack = false;
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!meta.has(v)) visit(v);
  return found.sort((a, b) => b.length - a.length);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const packages = join(root, 'packages');
  const files = readdirSync(packages).flatMap((p) => [...sourceFiles(join(packages, p, 'src')), ...sourceFiles(join(packages, p, 'test'))]);
  const found = circles(importGraph(files));
  const named = found.map((c) => c.map((f) => relative(root, f)));
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify({ files: files.length, circles: named }, null, 2));
  } else if (named.length === 0) {
    console.log(`check-cycles: ${files.length} files, 0 import circles`);
  } else {
    for (const c of named) console.error(`import circle (${c.length} files):\n  ${c.join('\n  ')}`);
    console.error(`check-cycles: ${named.length} import circle(s); move the shared types to their own module.`);
  }
  process.exitCode = named.length === 0 ? 0 : 1;
}
