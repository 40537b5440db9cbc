// Writes the public API report of every package entry (each "exports" subpath with a "source"):
// api-reports/<package>[-<subpath>].api.md lists the declarations the entry exports, as the
// declaration emit (.d.ts) gives them, sorted by name, without doc comments. A change to the public
// surface (a new export, a removed one, a changed signature) changes a report, so it shows in review.
//   node scripts/api-report.mjs           write the reports (`pnpm api:update`)
//   node scripts/api-report.mjs --check   exit 1 when a committed report differs (`pnpm api:check`, in `pnpm test`)
// The declarations are emitted in memory from the TypeScript sources: no build is needed first.
// Usage: node scripts/api-report.mjs [--check] [--root DIR]
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { argv, exit, stderr, stdout } from 'node:process';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const rootFlag = argv.indexOf('--root');
// --root points the script at another workspace (its test builds a tiny one in a temp dir).
const root = rootFlag > 0 ? argv[rootFlag + 1] : fileURLToPath(new URL('..', import.meta.url));
const check = argv.includes('--check');
const reportsDir = join(root, 'api-reports');

/** Every package entry: the package name, the subpath and its TypeScript source. */
function packageEntries() {
  const entries = [];
  for (const dir of readdirSync(join(root, 'packages')).sort()) {
    const manifestPath = join(root, 'packages', dir, 'package.json');
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      if (typeof target !== 'object' || target === null || typeof target.source !== 'string') continue;
      const importPath = subpath === '.' ? manifest.name : `${manifest.name}${subpath.slice(1)}`;
      const file = `${manifest.name.replace(/^@/, '').replace('/', '__')}${subpath === '.' ? '' : `-${subpath.slice(2).replaceAll('/', '-')}`}.api.md`;
      entries.push({ importPath, source: join(root, 'packages', dir, target.source), report: file });
    }
  }
  return entries;
}

const entries = packageEntries();
const config = ts.readConfigFile(join(root, 'tsconfig.base.json'), ts.sys.readFile);
const { options } = ts.convertCompilerOptionsFromJson(config.config.compilerOptions, root);
const program = ts.createProgram(
  entries.map((e) => e.source),
  {
    ...options,
    noEmit: false,
    declaration: true,
    emitDeclarationOnly: true,
    declarationMap: false,
    sourceMap: false,
    outDir: join(root, '.api-report-out'),
  },
);
const checker = program.getTypeChecker();

// Declaration emit into memory, keyed by the source file it came from.
const declarations = new Map();
const emitted = program.emit(
  undefined,
  (fileName, text, _bom, _onError, sources) => {
    for (const source of sources ?? [])
      declarations.set(source.fileName, ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true));
  },
  undefined,
  true,
);
const emitErrors = emitted.diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error);
if (emitErrors.length > 0) {
  stderr.write(
    ts.formatDiagnostics(emitErrors, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' }),
  );
  exit(2);
}

const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

/** The name a declaration statement of a .d.ts declares (or the names, for `declare const a, b`). */
function declaredNames(statement) {
  if (ts.isVariableStatement(statement)) return statement.declarationList.declarations.map((d) => d.name.getText());
  return statement.name === undefined ? [] : [statement.name.getText()];
}

/** The declaration statements of `name` in the emitted .d.ts of `sourceFileName`. */
function declarationStatements(sourceFileName, name) {
  const dts = declarations.get(sourceFileName);
  if (dts === undefined) return [];
  return dts.statements.filter((s) => !ts.isImportDeclaration(s) && !ts.isExportDeclaration(s) && declaredNames(s).includes(name));
}

/**
 * Names a declaration refers to that a consumer of the entry cannot import: declared in the same
 * .d.ts or imported there from a relative module, and not exported by the entry (API Extractor's
 * "forgotten export"). Globals, type parameters and other packages' types are not listed.
 */
function forgottenNames(statement, exportedNames) {
  const dts = statement.getSourceFile();
  const local = new Set(dts.statements.flatMap(declaredNames));
  const relativeImports = new Set();
  for (const s of dts.statements) {
    if (!ts.isImportDeclaration(s) || !s.moduleSpecifier.text.startsWith('.')) continue;
    const clause = s.importClause;
    if (clause?.name) relativeImports.add(clause.name.text);
    const bindings = clause?.namedBindings;
    if (bindings && ts.isNamedImports(bindings)) for (const e of bindings.elements) relativeImports.add(e.name.text);
  }
  const found = new Set();
  const visit = (node) => {
    let id;
    if (ts.isTypeReferenceNode(node)) id = node.typeName;
    else if (ts.isExpressionWithTypeArguments(node)) id = node.expression;
    else if (ts.isTypeQueryNode(node)) id = node.exprName;
    while (id !== undefined && (ts.isQualifiedName(id) || ts.isPropertyAccessExpression(id)))
      id = ts.isQualifiedName(id) ? id.left : id.expression;
    if (id !== undefined && ts.isIdentifier(id) && !exportedNames.has(id.text) && (local.has(id.text) || relativeImports.has(id.text)))
      found.add(id.text);
    ts.forEachChild(node, visit);
  };
  visit(statement);
  return [...found];
}

/** The exports of an entry, sorted by name. */
function exportsOf(entry) {
  const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(entry.source));
  return checker
    .getExportsOfModule(moduleSymbol)
    .slice()
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

// A type another entry exports (core's `Clock` in a `core/node` signature) can be named by a consumer.
const exportedAnywhere = new Set(entries.flatMap((e) => exportsOf(e).map((s) => s.name)));

/** The report of one entry: every exported name with its declarations, sorted by name. */
function report(entry) {
  const exported = exportsOf(entry);
  const exportedNames = exportedAnywhere;
  const forgotten = new Set();
  const blocks = [];
  for (const symbol of exported) {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const files = [...new Set((target.declarations ?? []).map((d) => d.getSourceFile().fileName))];
    const statements = files.flatMap((f) => declarationStatements(f, target.name));
    for (const statement of statements) for (const name of forgottenNames(statement, exportedNames)) forgotten.add(name);
    const printed = statements.map((st) => printer.printNode(ts.EmitHint.Unspecified, st, st.getSourceFile()));
    const typeOnly = (target.flags & ts.SymbolFlags.Value) !== 0 && isTypeOnlyExport(symbol);
    const header = target.name === symbol.name ? '' : `// exported as ${symbol.name}\n`;
    const note = typeOnly ? '// type-only export\n' : '';
    const body =
      printed.length > 0
        ? printed.join('\n')
        : `// ${symbol.name}: declared in ${files.map((f) => relative(root, f)).join(', ') || 'an external module'}`;
    blocks.push(`${header}${note}${body}`);
  }
  return [
    `## API report of \`${entry.importPath}\``,
    '',
    `> Generated by \`node scripts/api-report.mjs\` from \`${relative(root, entry.source)}\`; do not edit.`,
    '> After a deliberate change to the public surface run `npx -y pnpm@10.34.9 api:update` and commit this file.',
    '',
    `${exported.length} exports.`,
    '',
    '```ts',
    blocks.join('\n\n'),
    '```',
    '',
    ...(forgotten.size === 0
      ? []
      : [
          'Referenced by the declarations above but exported by no entry (a consumer cannot name them):',
          '',
          ...[...forgotten].sort().map((n) => `- \`${n}\``),
          '',
        ]),
  ].join('\n');
}

/** Whether an alias was exported with `export type` (a value exported that way cannot be used as a value). */
function isTypeOnlyExport(symbol) {
  return (symbol.declarations ?? []).some((d) => ts.isExportSpecifier(d) && (d.isTypeOnly || d.parent.parent.isTypeOnly));
}

const wanted = new Map(entries.map((e) => [e.report, report(e)]));
const stale = [];
let changed = 0;
if (!check) mkdirSync(reportsDir, { recursive: true });
for (const [file, text] of wanted) {
  const path = join(reportsDir, file);
  const current = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  if (current === text) continue;
  if (check) stale.push(`api-reports/${file}${current === undefined ? ' (missing)' : ''}`);
  else {
    writeFileSync(path, text);
    changed += 1;
    stdout.write(`wrote api-reports/${file}\n`);
  }
}
const extra = existsSync(reportsDir) ? readdirSync(reportsDir).filter((f) => f.endsWith('.api.md') && !wanted.has(f)) : [];
for (const file of extra) {
  if (check) stale.push(`api-reports/${file} (no such entry any more)`);
  else {
    rmSync(join(reportsDir, file));
    changed += 1;
    stdout.write(`removed api-reports/${file}\n`);
  }
}
if (check && stale.length > 0) {
  stderr.write(
    `api:check: the public API changed; these reports differ:\n${stale.map((p) => `  ${p}`).join('\n')}\nReview the change, then run: npx -y pnpm@10.34.9 api:update\n`,
  );
  exit(1);
}
stdout.write(
  check ? `api:check: ${wanted.size} entry reports are up to date\n` : `api:update: ${wanted.size} entry reports, ${changed} changed\n`,
);
