// Counts the public surface: for every package entry (each package.json "exports" subpath with a
// "source"), how many names it exports, how many exist at run time (values, not types), and who
// imports each name. A consumer is another package's src/ or test/, an embedder's view (README.md,
// a package README, docs/*.md, examples/, an `@example` block in a doc comment), or nobody. Core's
// main entry is for embedders; what only the CLI and the fleet need belongs in `./host` (issue 32).
//   node scripts/surface-report.mjs            per-entry counts and core's unused/host-only names
//   node scripts/surface-report.mjs --names    also every name of every entry with its consumers
//   node scripts/surface-report.mjs --json     the whole table as JSON
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { argv, stdout } from 'node:process';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Every package entry: import path and TypeScript source. */
function packageEntries() {
  const entries = [];
  for (const dir of readdirSync(join(root, 'packages')).sort()) {
    const manifestPath = join(root, 'packages', dir, 'package.json');
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      if (typeof target !== 'object' || target === null || typeof target.source !== 'string') continue;
      const importPath = subpath === '.' ? manifest.name : `${manifest.name}${subpath.slice(1)}`;
      entries.push({ importPath, dir, source: join(root, 'packages', dir, target.source) });
    }
  }
  return entries;
}

/** Files under `dir` (recursively) whose name ends with one of `exts`, without node_modules/dist. */
function walk(dir, exts, out = []) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, exts, out);
    else if (exts.some((e) => name.endsWith(e))) out.push(path);
  }
  return out;
}

const entries = packageEntries();
const config = ts.readConfigFile(join(root, 'tsconfig.base.json'), ts.sys.readFile);
const { options } = ts.convertCompilerOptionsFromJson(config.config.compilerOptions, root);
const program = ts.createProgram(
  entries.map((e) => e.source),
  { ...options, noEmit: true },
);
const checker = program.getTypeChecker();

/** Whether an alias was exported with `export type`. */
const typeOnlyExport = (symbol) =>
  (symbol.declarations ?? []).some((d) => ts.isExportSpecifier(d) && (d.isTypeOnly || d.parent.parent.isTypeOnly));

/** name → whether it exists at run time, for one entry. */
function exportsOf(entry) {
  const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(entry.source));
  const names = new Map();
  for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    names.set(symbol.name, (target.flags & ts.SymbolFlags.Value) !== 0 && !typeOnlyExport(symbol));
  }
  return names;
}

/** The consumer a file stands for: `pkg:<dir>`, or `embed` for READMEs, docs and examples. */
function consumerOf(file) {
  const rel = relative(root, file);
  const pkg = /^packages\/([^/]+)\/(src|test)\//.exec(rel);
  if (pkg) return `pkg:${pkg[1]}`;
  if (/^packages\/[^/]+\/README\.md$/.test(rel) || rel === 'README.md' || rel.startsWith('docs/') || rel.startsWith('examples/'))
    return 'embed';
  return `other:${rel.split('/')[0]}`;
}

const IMPORT = /(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"]((?:@heartbeat-kit\/[a-z-]+|heartbeat-kit)(?:\/[a-z-]+)*)['"]/g;
const files = [
  ...walk(join(root, 'packages'), ['.ts', '.mjs', '.md']),
  ...walk(join(root, 'examples'), ['.ts', '.mjs', '.md']),
  ...walk(join(root, 'docs'), ['.md']).filter((f) => !f.includes('/docs/api/')),
  ...walk(join(root, 'bench'), ['.ts', '.mjs']),
  ...walk(join(root, 'stress'), ['.ts', '.mjs']),
  join(root, 'README.md'),
];

/** `${importPath}\0${name}` → set of consumers. */
const uses = new Map();
const use = (spec, name, consumer) => {
  const key = `${spec}\0${name}`;
  if (!uses.has(key)) uses.set(key, new Set());
  uses.get(key).add(consumer);
};
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const base = consumerOf(file);
  for (const m of text.matchAll(IMPORT)) {
    // An import inside a doc comment (` * import …`) is an `@example`: what an embedder sees.
    const lineStart = text.lastIndexOf('\n', m.index) + 1;
    const inComment = /^\s*\*/.test(text.slice(lineStart, m.index + 1));
    const consumer = inComment ? 'embed' : base;
    for (const part of m[1].split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)[0]
        ?.trim();
      if (name) use(m[2], name, consumer);
    }
  }
}

const table = entries.map((entry) => {
  const exported = exportsOf(entry);
  const own = `pkg:${entry.dir}`;
  const names = [...exported]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, runtime]) => {
      const consumers = [...(uses.get(`${entry.importPath}\0${name}`) ?? [])].filter((c) => c !== own).sort();
      return { name, runtime, consumers };
    });
  return { entry: entry.importPath, total: names.length, runtime: names.filter((n) => n.runtime).length, names };
});

if (argv.includes('--json')) {
  stdout.write(`${JSON.stringify(table, null, 2)}\n`);
} else {
  const pad = (s, n) => String(s).padEnd(n);
  stdout.write(`${pad('entry', 40)}${pad('names', 7)}${pad('run-time', 10)}unused by other packages/docs/examples\n`);
  let all = 0;
  for (const t of table) {
    all += t.total;
    stdout.write(`${pad(t.entry, 40)}${pad(t.total, 7)}${pad(t.runtime, 10)}${t.names.filter((n) => n.consumers.length === 0).length}\n`);
  }
  stdout.write(`${pad('all entries', 40)}${all}\n`);
  const core = table.find((t) => t.entry === '@heartbeat-kit/core');
  const unused = core.names.filter((n) => n.consumers.length === 0);
  const embed = core.names.filter((n) => n.consumers.includes('embed'));
  stdout.write(`\ncore main entry: ${core.total} names, ${core.runtime} at run time; ${embed.length} used by docs/examples/READMEs; `);
  stdout.write(`${unused.length} used by no other package, example or doc (${unused.filter((n) => n.runtime).length} at run time)\n`);
  if (argv.includes('--names'))
    for (const t of table) {
      stdout.write(`\n## ${t.entry}\n`);
      for (const n of t.names) stdout.write(`  ${pad(n.name, 34)}${pad(n.runtime ? 'value' : 'type', 7)}${n.consumers.join(' ') || '-'}\n`);
    }
}
