#!/usr/bin/env node
// The figures issue 32's "Must show" asks for, for the tree this script stands in (run a copy of scripts/ in
// another checkout to measure that one; docs/internals/issue-32-before-after.md does so for the tree before issue 32):
//   (a) surface   names per package entry, total and at run time (scripts/surface-report.mjs --json)
//   (b) files     the 10 largest source files of packages/*/src (tests, *.test.ts, left out), and how many
//                 are over 400 lines (lines as `wc -l` and eslint's max-lines count them)
//   (c) functions the 10 longest functions of packages/*/src, tests and the port contract suites left out as
//                 eslint.config.js leaves them out, counted as max-lines-per-function counts with blank and
//                 comment lines skipped (scripts/function-lengths.mjs), and how many are over 80
//   (d) circles   import circles: strongly connected components of more than one file in the relative
//                 imports of packages/*/{src,test} (scripts/check-cycles.mjs)
//   (e) beat walk from WoterClip's runBeat, every call into the package's own functions is a hop; a stay is
//                 a hop between two files of packages/woterclip/src/beat/, a return is a stay into run-beat.ts
//                 or beat-session.ts (the module that held the shared beat state); see scripts/beat-walk.mjs
//   (f) duplicates pairs of places in packages/*/src (tests left out) sharing 6 or more identical or
//                 same-shape lines, by the library command `duplicates` over a copy of just those files
//                 ("(not run)" where the command is not on PATH)
// Usage: node scripts/tree-report.mjs [--json]   (pnpm tree:report)
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { argv, execPath, stdout } from 'node:process';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beatWalk } from './beat-walk.mjs';
import { circles, importGraph, sourceFiles } from './check-cycles.mjs';
import { functionLengths } from './function-lengths.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const packagesDir = join(root, 'packages');
const packageNames = () => readdirSync(packagesDir).filter((p) => existsSync(join(packagesDir, p, 'package.json')));

/** The source files of packages/*\/src, tests left out. */
function productFiles() {
  return packageNames()
    .flatMap((p) => sourceFiles(join(packagesDir, p, 'src')))
    .filter((f) => !/\.test\.m?tsx?$/.test(f))
    .sort();
}

/** Lines of a text as `wc -l` counts them: a last line without a line break still counts. */
export const lineCount = (text) => (text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0));

/** The `top` largest of `items` by `size`, and how many are over `limit`. */
export function largest(items, size, top, limit) {
  const sorted = [...items].sort((a, b) => size(b) - size(a));
  return { top: sorted.slice(0, top), over: sorted.filter((i) => size(i) > limit).length, count: items.length };
}

/** (a): every entry's name counts, from surface-report.mjs run as a process (it measures at load). */
function surface() {
  const out = execFileSync(execPath, [join(root, 'scripts', 'surface-report.mjs'), '--json'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return JSON.parse(out).map((t) => ({ entry: t.entry, total: t.total, runtime: t.runtime }));
}

/** (b) and (c). */
function sizes(files) {
  const texts = files.map((f) => ({ file: relative(root, f), text: readFileSync(f, 'utf8') }));
  const fileLines = texts.map((t) => ({ file: t.file, lines: lineCount(t.text) }));
  const linted = texts.filter((t) => !/^packages\/[^/]+\/src\/testing\/contracts\//.test(t.file));
  const fns = linted.flatMap((t) => functionLengths(t.text, t.file).map((fn) => ({ file: t.file, ...fn })));
  return { files: largest(fileLines, (f) => f.lines, 10, 400), functions: largest(fns, (f) => f.lines, 10, 80) };
}

/** (d), over the same files check-cycles.mjs reads. */
function importCircles() {
  const files = packageNames().flatMap((p) => [...sourceFiles(join(packagesDir, p, 'src')), ...sourceFiles(join(packagesDir, p, 'test'))]);
  const found = circles(importGraph(files));
  return { files: files.length, count: found.length, circles: found.map((c) => c.map((f) => relative(root, f))) };
}

/** (e). */
function walk() {
  const config = ts.readConfigFile(join(root, 'tsconfig.base.json'), ts.sys.readFile);
  const { options } = ts.convertCompilerOptionsFromJson(config.config.compilerOptions, root);
  const src = join(packagesDir, 'woterclip', 'src');
  return beatWalk(join(src, 'beat', 'run-beat.ts'), options, src) ?? null;
}

/** The first line and the row counts of `duplicates` output. */
export function parseDuplicates(out) {
  const lines = out.split('\n');
  const rows = lines.filter((l) => /^D\d+ /.test(l));
  const first = /^(\d+) pairs? /.exec(lines[0] ?? '');
  const none = /^no duplicates/.test(lines[0] ?? '');
  return {
    pairs: first ? Number(first[1]) : none ? 0 : null,
    listed: rows.length,
    boilerplate: rows.filter((l) => / boilerplate\b/.test(l)).length,
    summary: lines[0] ?? '',
    notes: lines.filter((l) => /^(left out|incomplete):/.test(l)),
  };
}

/** (f): `duplicates` over a temporary copy of the product files, so nothing else is paired. */
function duplicates(files) {
  const copy = mkdtempSync(join(tmpdir(), 'tree-report-dup-'));
  try {
    for (const f of files) {
      const target = join(copy, relative(packagesDir, f));
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync(f, target);
    }
    const args = ['--repo', copy, '--most', '200', '--seconds', '300'];
    return {
      command: `duplicates ${args.join(' ').replace(copy, '<copy of packages/*/src without tests>')}`,
      ...parseDuplicates(execFileSync('duplicates', args, { encoding: 'utf8' })),
    };
  } catch (error) {
    return { command: 'duplicates', pairs: null, error: error.code === 'ENOENT' ? 'not run: no duplicates command' : String(error) };
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

/** Every figure of the report as one object. */
function report() {
  const files = productFiles();
  const head = execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  return { commit: head, surface: surface(), ...sizes(files), circles: importCircles(), beatWalk: walk(), duplicates: duplicates(files) };
}

/** The report as text, one section per figure. */
function render(r) {
  const out = [`tree-report at ${r.commit}`, '', '(a) names per entry (total / at run time)'];
  const core = r.surface.find((s) => s.entry === '@heartbeat-kit/core');
  for (const s of r.surface) out.push(`  ${s.entry.padEnd(36)}${String(s.total).padStart(5)} /${String(s.runtime).padStart(4)}`);
  out.push(
    `  all ${r.surface.length} entries: ${r.surface.reduce((n, s) => n + s.total, 0)} names; core main entry ${core?.total} / ${core?.runtime}`,
  );
  out.push('', `(b) largest source files (${r.files.count} files, ${r.files.over} over 400 lines)`);
  for (const f of r.files.top) out.push(`  ${String(f.lines).padStart(5)}  ${f.file}`);
  out.push('', `(c) longest functions (${r.functions.count} functions, ${r.functions.over} over 80 lines)`);
  for (const f of r.functions.top) out.push(`  ${String(f.lines).padStart(5)}  ${f.file}:${f.line} ${f.name}`);
  out.push('', `(d) import circles: ${r.circles.count} (${r.circles.files} files)`);
  for (const c of r.circles.circles) out.push(`  ${c.length} files: ${c.join(' ')}`);
  const w = r.beatWalk;
  out.push(
    '',
    w
      ? `(e) beat walk from runBeat: ${w.functions} functions, ${w.hops} hops, ${w.stays} stays, ${w.returns} returns ${JSON.stringify(w.returnsByFile)}`
      : '(e) beat walk: no runBeat found',
  );
  const d = r.duplicates;
  out.push(
    '',
    `(f) duplicate pairs in packages/*/src: ${d.pairs ?? d.error} (${d.listed} listed, ${d.boilerplate} of them boilerplate)`,
    `  ${d.command}`,
  );
  for (const n of d.notes ?? []) out.push(`  ${n}`);
  return `${out.join('\n')}\n`;
}

if (argv[1] === fileURLToPath(import.meta.url)) {
  const r = report();
  stdout.write(argv.includes('--json') ? `${JSON.stringify(r, null, 2)}\n` : render(r));
}
