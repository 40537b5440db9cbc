import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

interface Manifest {
  readonly name: string;
  readonly files: readonly string[];
  readonly exports: Record<string, unknown>;
  readonly publishConfig?: { readonly exports?: Record<string, unknown> };
  readonly dependencies?: Record<string, string>;
}

const manifests: readonly Manifest[] = readdirSync(join(root, 'packages'))
  .sort()
  .map((dir) => JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')) as Manifest);

/** `exports` without the workspace-only `source` condition, at every level. */
function withoutSource(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'source')
      .map(([key, inner]) => [key, withoutSource(inner)]),
  );
}

// What a user installs (issue 26 item 7): no TypeScript sources (the maps name the source file and
// line for a bug report), and no manifest entry naming a file that is not shipped: the `source`
// condition (./src/…, for the workspace's own bundling and tests) is dropped from the published
// `exports` through publishConfig, which pnpm pack substitutes.
describe('published package manifests', () => {
  it.each(manifests.map((m) => [m.name, m] as const))('%s ships no src/ and publishes exports without `source`', (_, manifest) => {
    expect(manifest.files.filter((f) => f.replace(/^!/, '').startsWith('src'))).toEqual([]);
    expect(manifest.publishConfig?.exports).toEqual(withoutSource(manifest.exports));
    expect(JSON.stringify(manifest.publishConfig?.exports)).not.toMatch(/\.\/src\//);
  });

  // ES modules only (issue 26 item 6): Node >= 20.19 (our engines) loads them with require() too, if
  // the entry has a condition require() matches; `import` alone made require() fail with
  // ERR_PACKAGE_PATH_NOT_EXPORTED. The README says so, with what a CommonJS project does.
  it.each(manifests.map((m) => [m.name, m] as const))(
    '%s: every code entry has a `default` condition, and the README says ESM only',
    (_, manifest) => {
      for (const exports of [manifest.exports, manifest.publishConfig?.exports ?? {}]) {
        const code = Object.values(exports).filter(
          (target): target is Record<string, string> => typeof target === 'object' && target !== null,
        );
        expect(code.length).toBeGreaterThan(0);
        for (const target of code) expect(target.default).toBe(target.import);
      }
      const dir = readdirSync(join(root, 'packages')).find(
        (d) => (JSON.parse(readFileSync(join(root, 'packages', d, 'package.json'), 'utf8')) as Manifest).name === manifest.name,
      )!;
      const readme = readFileSync(join(root, 'packages', dir, 'README.md'), 'utf8');
      expect(readme.split('\n').slice(0, 4).join('\n')).toContain(`> **ES modules only** (Node ≥ 20.19). In a CommonJS project`);
      expect(readme).toContain(`require('${manifest.name}')`);
    },
  );

  // neverthrow 8.1.0 and later list @rollup/rollup-linux-x64-gnu (a 2.3 MB native binary) as an
  // optional dependency by mistake; 8.0.0 has the same API we use and no dependencies.
  it.each(manifests.filter((m) => m.dependencies?.neverthrow !== undefined).map((m) => [m.name, m] as const))(
    '%s depends on a neverthrow without the native rollup binary',
    (_, manifest) => {
      expect(manifest.dependencies?.neverthrow).toBe('~8.0.0');
    },
  );
});
