import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

// What runs code that needs the packages' built JavaScript: the CLI's bin or dist, and the example,
// bench and stress runners (the demo spawns the built bin; run-ts.mjs resolves `heartbeat-kit`
// through its package.json, whose entries are dist files). A fresh clone after `install` has no dist.
const NEEDS_BUILD = /(packages\/cli\/(bin|dist)\/|examples\/run-ts\.mjs|bench\/run\.mjs|stress\/run\.mjs)/;
// A build that comes first: the incremental build of README line 1, or the full one.
const BUILDS_FIRST = /^(node scripts\/build-changed\.mjs\b|pnpm (--silent )?build\b)[^&]*&&/;

describe('root package.json scripts (a fresh clone after install has no dist/)', () => {
  it('every script that runs built code builds what changed first', () => {
    const unbuilt = Object.entries(scripts)
      .filter(([, command]) => NEEDS_BUILD.test(command) && !BUILDS_FIRST.test(command))
      .map(([name, command]) => `${name}: ${command}`);
    expect(unbuilt).toEqual([]);
  });

  it('covers the scripts that run the CLI or the examples', () => {
    expect(Object.keys(scripts).filter((name) => NEEDS_BUILD.test(scripts[name]!))).toEqual(
      expect.arrayContaining(['heartbeat', 'demo', 'bench', 'stress']),
    );
  });
});
