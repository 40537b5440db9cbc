import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { beatWalk, classifyHops } from './beat-walk.mjs';
import { circles } from './check-cycles.mjs';
import { commentOnlyLines, functionLengths } from './function-lengths.mjs';
import { largest, lineCount, parseDuplicates } from './tree-report.mjs';

const temp = mkdtempSync(join(tmpdir(), 'hk-tree-report-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe('function lengths (as max-lines-per-function with skipBlankLines and skipComments)', () => {
  it('counts a function from its first to its last line without blank and comment-only lines', () => {
    const text = [
      '/** doc comment: not part of the function */',
      'export function a(x: number): number {',
      '  // a comment line',
      '',
      '  const y = x + 1; // a trailing comment keeps its line',
      '  /* a block',
      '     over two lines */',
      '  return y;',
      '}',
    ].join('\n');
    expect(functionLengths(text)).toEqual([{ name: 'a', line: 2, lines: 4 }]);
  });

  it('counts a nested arrow on its own and inside its parent; a method by its name; an IIFE not at all', () => {
    const text = [
      'const outer = () => {',
      '  const inner = (v: string) =>',
      '    v.trim();',
      '  return inner;',
      '};',
      'class K {',
      '  m(): void {',
      '    (() => 1)();',
      '  }',
      '}',
    ].join('\n');
    expect(functionLengths(text)).toEqual([
      { name: 'outer', line: 1, lines: 5 },
      { name: 'inner', line: 2, lines: 2 },
      { name: 'm', line: 7, lines: 3 },
    ]);
  });

  it('finds comment-only lines but not lines with code beside a comment', () => {
    expect([...commentOnlyLines('// one\nconst a = 1; // two\n/* three\nfour */ const b = 2;\n')]).toEqual([1, 3]);
  });
});

describe('import circles', () => {
  it('finds each strongly connected component of more than one file, largest first', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', ['e']],
      ['e', ['d']],
      ['f', ['f', 'a']],
    ]);
    expect(circles(graph)).toEqual([
      ['a', 'b', 'c'],
      ['d', 'e'],
    ]);
  });

  it('finds none in a tree', () => {
    expect(
      circles(
        new Map([
          ['a', ['b', 'c']],
          ['b', ['c']],
          ['c', []],
        ]),
      ),
    ).toEqual([]);
  });
});

describe('beat walk', () => {
  it('counts hops, stays between beat/ files and returns into the hubs', () => {
    const beat = '/p/src/beat';
    const hops = [
      { from: `${beat}/run-beat.ts`, to: `${beat}/work.ts`, callee: 'work' },
      { from: `${beat}/work.ts`, to: `${beat}/beat-session.ts`, callee: 'read' },
      { from: `${beat}/work.ts`, to: `${beat}/run-beat.ts`, callee: 'back' },
      { from: `${beat}/work.ts`, to: `${beat}/work.ts`, callee: 'self' },
      { from: `${beat}/work.ts`, to: '/p/src/inbox/inbox.ts', callee: 'buildInbox' },
    ];
    expect(classifyHops(hops, `${beat}/run-beat.ts`)).toEqual({
      hops: 5,
      stays: 3,
      returns: 2,
      returnsByFile: { 'beat-session.ts': 1, 'run-beat.ts': 1 },
    });
  });

  it('walks the calls the checker resolves from runBeat, each function once', () => {
    const src = join(temp, 'src');
    mkdirSync(join(src, 'beat'), { recursive: true });
    mkdirSync(join(src, 'inbox'), { recursive: true });
    writeFileSync(join(src, 'inbox', 'inbox.ts'), 'export const list = (): number[] => [1];\n');
    writeFileSync(join(src, 'beat', 'beat-session.ts'), 'export function read(n: number): number {\n  return n;\n}\n');
    writeFileSync(
      join(src, 'beat', 'work.ts'),
      "import { read } from './beat-session.js';\nimport { list } from '../inbox/inbox.js';\nexport function work(): number {\n  return list().map(read).length + read(2) + read(3);\n}\n",
    );
    writeFileSync(
      join(src, 'beat', 'run-beat.ts'),
      "import { read } from './beat-session.js';\nimport { work } from './work.js';\nexport function runBeat(): number {\n  return work() + work() + read(1) + Math.max(1, 2);\n}\n",
    );
    const walk = beatWalk(
      join(src, 'beat', 'run-beat.ts'),
      { module: 199, moduleResolution: 99, strict: true, noLib: true, types: [] },
      src,
    );
    // runBeat → work ×2, read; work → list, read ×2 (the `map(read)` argument is no call).
    expect(walk).toEqual({ functions: 4, hops: 6, stays: 5, returns: 3, returnsByFile: { 'beat-session.ts': 3 } });
  });
});

describe('report helpers', () => {
  it('counts lines as wc -l does, and the largest items and those over a limit', () => {
    expect([lineCount('a\nb\n'), lineCount('a\nb'), lineCount('')]).toEqual([2, 2, 0]);
    const sized = largest([3, 9, 5, 1], (n) => n, 2, 4);
    expect(sized).toEqual({ top: [9, 5], over: 2, count: 4 });
  });

  it('reads the pair count and rows of the duplicates command', () => {
    const out = [
      '3 pairs of places (12 files read), each sharing runs of 6 or more identical or same-shape lines',
      'D1 a/src/x.ts:1-9 ~ b/src/y.ts:4-12',
      'D2 a/src/x.ts:20-26 ~ a/src/z.ts:1-7 shape',
      'D3 a/src/x.ts:30-36 ~ c/src/w.ts:1-7 shape boilerplate',
      'left out: 1 run of 6 lines that stand in more than 8 places each (too common to list)',
    ].join('\n');
    expect(parseDuplicates(out)).toMatchObject({ pairs: 3, listed: 3, boilerplate: 1, notes: [out.split('\n')[4]] });
    expect(parseDuplicates('no duplicates (4 files read)\n').pairs).toBe(0);
  });
});
