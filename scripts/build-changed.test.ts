import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const script = join(import.meta.dirname, 'build-changed.mjs');
const root = mkdtempSync(join(tmpdir(), 'hk-build-changed-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function writePackage(name: string, deps: Record<string, string>, source: string): void {
  const dir = join(root, 'packages', name);
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, type: 'module', scripts: { build: 'tsup' }, dependencies: deps }));
  writeFileSync(join(dir, 'tsup.config.ts'), "export default { entry: ['src/index.ts'], format: ['esm'], dts: true, clean: true };\n");
  writeFileSync(join(dir, 'src', 'index.ts'), source);
  writeFileSync(join(dir, 'src', 'index.test.ts'), '// tests are not build inputs\n');
}

/** Runs the script over the temp workspace; returns the package names it built, in order. */
function build(): string[] {
  const run = spawnSync(process.execPath, [script, '--root', root], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout).toBe('');
  return [...run.stderr.matchAll(/\] (\S+) … /g)].map((m) => m[1]!);
}

describe('scripts/build-changed.mjs (README line 1 builds only what changed)', () => {
  writePackage('b', { a: 'workspace:*' }, "export const b = 'b';\n");
  writePackage('a', {}, "export const a = 'a';\n");

  it('builds everything once, dependencies first, JavaScript only', () => {
    expect(build()).toEqual(['a', 'b']);
    expect(readFileSync(join(root, 'packages/b/dist/index.js'), 'utf8')).toMatch(/b = "b"/);
    expect(() => readFileSync(join(root, 'packages/b/dist/index.d.ts'))).toThrow(/ENOENT/);
  });

  it('builds nothing and prints nothing when no input changed', () => {
    expect(build()).toEqual([]);
  });

  it('a test file is not an input', () => {
    writeFileSync(join(root, 'packages/a/src/index.test.ts'), '// changed\n');
    expect(build()).toEqual([]);
  });

  it('a changed dependency rebuilds it and its dependents; a changed leaf only itself', () => {
    writeFileSync(join(root, 'packages/a/src/index.ts'), "export const a = 'a2';\n");
    expect(build()).toEqual(['a', 'b']);
    writeFileSync(join(root, 'packages/b/src/index.ts'), "export const b = 'b2';\n");
    expect(build()).toEqual(['b']);
  });

  it('a removed dist is rebuilt', () => {
    rmSync(join(root, 'packages/a/dist'), { recursive: true });
    expect(build()).toEqual(['a']);
  });
});
