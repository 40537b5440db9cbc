import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const script = join(import.meta.dirname, 'api-report.mjs');
const root = mkdtempSync(join(tmpdir(), 'hk-api-report-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const pkg = join(root, 'packages', 'demo');
mkdirSync(join(pkg, 'src', 'node'), { recursive: true });
writeFileSync(
  join(root, 'tsconfig.base.json'),
  JSON.stringify({
    compilerOptions: { target: 'ES2023', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, types: [] },
  }),
);
writeFileSync(
  join(pkg, 'package.json'),
  JSON.stringify({
    name: '@demo/pkg',
    type: 'module',
    exports: { '.': { source: './src/index.ts' }, './node': { source: './src/node/index.ts' }, './package.json': './package.json' },
  }),
);
writeFileSync(join(pkg, 'src', 'helpers.ts'), '/** Internal. */\nexport function helper(n: number): number {\n  return n + 1;\n}\n');
writeFileSync(
  join(pkg, 'src', 'index.ts'),
  "import { helper } from './helpers.js';\ninterface Hidden { readonly n: number }\n/** Public. */\nexport function zeta(n: number): Hidden {\n  return { n: helper(n) };\n}\nexport type Alpha = 'a' | 'b';\n",
);
writeFileSync(join(pkg, 'src', 'node', 'index.ts'), 'export const nodeOnly = 1;\n');

function run(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [script, '--root', root, ...args], { encoding: 'utf8' });
}

describe('scripts/api-report.mjs (the public surface of every entry, checked in the test command)', () => {
  it('writes one report per entry: declarations sorted by name, no bodies, no doc comments; names what leaks unexported', () => {
    const update = run();
    expect(update.status, update.stderr).toBe(0);
    const main = readFileSync(join(root, 'api-reports', 'demo__pkg.api.md'), 'utf8');
    expect(main).toContain('## API report of `@demo/pkg`');
    expect(main.indexOf('export type Alpha')).toBeLessThan(main.indexOf('export declare function zeta(n: number): Hidden;'));
    expect(main).not.toContain('helper(n)');
    expect(main).not.toContain('Public.');
    expect(main).toMatch(/exported by no entry[^\n]*\n\n- `Hidden`/);
    expect(readFileSync(join(root, 'api-reports', 'demo__pkg-node.api.md'), 'utf8')).toContain('export declare const nodeOnly = 1;');
  });

  it('--check passes when nothing changed, and a doc comment is not a change', () => {
    writeFileSync(join(pkg, 'src', 'node', 'index.ts'), '/** Documented now. */\nexport const nodeOnly = 1;\n');
    const check = run('--check');
    expect(check.status, check.stderr).toBe(0);
    expect(check.stdout).toMatch(/2 entry reports are up to date/);
  });

  it('--check fails and names the report when an export is added or a signature changes', () => {
    writeFileSync(join(pkg, 'src', 'node', 'index.ts'), 'export const nodeOnly = 1;\nexport { helper } from "../helpers.js";\n');
    const added = run('--check');
    expect(added.status).toBe(1);
    expect(added.stderr).toContain('api-reports/demo__pkg-node.api.md');
    expect(added.stderr).not.toContain('api-reports/demo__pkg.api.md');
    expect(added.stderr).toContain('api:update');
    writeFileSync(join(pkg, 'src', 'node', 'index.ts'), 'export const nodeOnly = 1;\n');
    writeFileSync(join(pkg, 'src', 'helpers.ts'), 'export function helper(n: number, m = 0): number {\n  return n + m;\n}\n');
    expect(run('--check').status).toBe(0);
    writeFileSync(
      join(pkg, 'src', 'index.ts'),
      "export function zeta(n: string): string {\n  return n;\n}\nexport type Alpha = 'a' | 'b';\n",
    );
    const changed = run('--check');
    expect(changed.status).toBe(1);
    expect(changed.stderr).toContain('api-reports/demo__pkg.api.md');
  });

  it('update rewrites the changed report and removes the report of an entry that is gone', () => {
    const pkgJson = join(pkg, 'package.json');
    writeFileSync(pkgJson, JSON.stringify({ name: '@demo/pkg', type: 'module', exports: { '.': { source: './src/index.ts' } } }));
    const update = run();
    expect(update.status, update.stderr).toBe(0);
    expect(update.stdout).toContain('removed api-reports/demo__pkg-node.api.md');
    expect(readFileSync(join(root, 'api-reports', 'demo__pkg.api.md'), 'utf8')).toContain(
      'export declare function zeta(n: string): string;',
    );
    expect(run('--check').status).toBe(0);
  });
});
