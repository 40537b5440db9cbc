import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

function files(dir: string, keep: (name: string) => boolean, skip: readonly string[] = []): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!skip.includes(entry.name)) out.push(...files(path, keep, skip));
    } else if (keep(entry.name)) out.push(path);
  }
  return out;
}

const markdown = [
  join(root, 'README.md'),
  ...files(join(root, 'docs'), (n) => n.endsWith('.md'), ['api']),
  ...files(join(root, 'examples'), (n) => n === 'README.md', ['node_modules']),
];

describe('documentation links', () => {
  it('every relative link in README, docs/ and the examples points at a file that exists', () => {
    const broken: string[] = [];
    for (const file of markdown) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = match[1] ?? '';
        if (/^(https?:|mailto:|#)/.test(target)) continue;
        const path = resolve(dirname(file), target.split('#')[0] ?? '');
        if (!existsSync(path)) broken.push(`${relative(root, file)} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('docs/spec-map.md', () => {
  const map = readFileSync(join(root, 'docs', 'spec-map.md'), 'utf8');
  const rows = map.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| rule') && !line.startsWith('|---'));
  const cells = rows.map((row) =>
    row
      .split(/(?<!\\)\|/)
      .map((c) => c.trim())
      .slice(1, -1),
  );
  const testSources = files(join(root, 'packages'), (n) => n.endsWith('.test.ts'), ['node_modules', 'dist']);
  const testText = testSources.map((f) => readFileSync(f, 'utf8')).join('\n');
  const allSources = files(join(root, 'packages'), (n) => n.endsWith('.ts'), ['node_modules', 'dist']).map((f) =>
    relative(join(root, 'packages'), f),
  );

  it('has a row for the rules of each spec', () => {
    expect(rows.length).toBeGreaterThanOrEqual(60);
    expect(cells.every((c) => c.length === 3)).toBe(true);
  });

  it('every module and test path it names exists', () => {
    const missing: string[] = [];
    for (const [, modules = '', tests = ''] of cells) {
      for (const m of `${modules} ${tests}`.matchAll(/`([\w./-]+\.ts)`/g)) {
        const path = m[1] ?? '';
        const found = path.includes('/')
          ? allSources.some((s) => s === path || s.endsWith(`/${path}`))
          : allSources.some((s) => s.endsWith(`/${path}`));
        if (!found) missing.push(path);
      }
    }
    expect(missing).toEqual([]);
  });

  it('every quoted test title is the start of a real test title', () => {
    const missing: string[] = [];
    for (const [, , tests = ''] of cells) {
      for (const m of tests.matchAll(/"([^"]+)"/g)) {
        const phrase = (m[1] ?? '').split('…')[0]!.replace(/\\\|/g, '|').trim();
        if (phrase !== '' && !testText.includes(phrase)) missing.push(phrase);
      }
    }
    expect(missing).toEqual([]);
  });
});
