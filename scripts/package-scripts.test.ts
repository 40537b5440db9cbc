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

describe("README's first set-up line (one heartbeat cycle over the checkout)", () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8').split('\n');
  const line1 = (readme[1] ?? '').split(' # ')[0]!.trim();

  it('is the second line of the README, after the opening fence', () => {
    expect(readme[0]).toBe('```sh');
    expect(line1).toMatch(/^npx -y pnpm@[\d.]+ install && /);
  });

  // Each `npx -y pnpm@…` start costs ~5 s before pnpm does anything (issue 26 item 10): the line
  // starts pnpm once, for the install, then builds what changed and runs the built bin with node.
  it('starts pnpm once, builds what changed, then runs one cycle of the built bin', () => {
    expect(line1.match(/npx -y pnpm@/g)).toHaveLength(1);
    expect(line1.split(' && ').slice(1)).toEqual(['node scripts/build-changed.mjs', 'node packages/cli/bin/heartbeat-kit.js cycle']);
  });
});
