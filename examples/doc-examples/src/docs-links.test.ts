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

// The specifications live outside this repository (CI has no copy); docs/spec-map.md is the
// repository's record of them: one "## Spec NNN — title" section each. Every "spec NNN" the docs
// name must be one of them, and a line that names a package and a spec must name that package's spec.
describe('spec numbers in the docs', () => {
  const titles = new Map(
    [...readFileSync(join(root, 'docs', 'spec-map.md'), 'utf8').matchAll(/^## Spec (\d{3}) — (.+)$/gm)].map((m) => [m[1]!, m[2]!]),
  );
  const documents = [
    ...markdown,
    join(root, 'CONTRIBUTING.md'),
    ...readdirSync(join(root, 'packages')).map((p) => join(root, 'packages', p, 'README.md')),
  ].filter((file) => existsSync(file));

  it('the spec map names the three specifications', () => {
    expect([...titles.keys()]).toEqual(['000', '002', '003']);
  });

  it('every "spec NNN" is in the spec map, and a package named beside it is that spec\'s', () => {
    const wrong: string[] = [];
    for (const file of documents) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          for (const m of line.matchAll(/\bspecs? (\d{3})\b/gi)) {
            const number = m[1]!;
            const where = `${relative(root, file)}:${i + 1}: spec ${number}`;
            const title = titles.get(number);
            if (title === undefined) {
              wrong.push(`${where} is not in docs/spec-map.md`);
              continue;
            }
            const subject = [...line.slice(0, m.index).matchAll(/\b(woterclip|runbook)\b/gi)].at(-1)?.[1];
            if (subject !== undefined && !title.toLowerCase().includes(subject.toLowerCase()))
              wrong.push(`${where} is "${title}", not the ${subject} spec`);
          }
        });
    }
    expect(wrong).toEqual([]);
  });
});

describe('README package table', () => {
  it("the CLI's row names every command of docs/reference/cli.md", () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const row = readme.split('\n').find((line) => line.startsWith('| `heartbeat-kit` |')) ?? '';
    const commands = [...readFileSync(join(root, 'docs', 'reference', 'cli.md'), 'utf8').matchAll(/^## `heartbeat-kit ([\w-]+)`$/gm)].map(
      (m) => m[1]!,
    );
    expect(commands.length).toBeGreaterThan(5);
    expect(commands.filter((c) => !row.includes(`\`${c}\``))).toEqual([]);
  });
});

describe("core's doc examples", () => {
  // The CLI keeps state in the git common dir (`.git/heartbeat-kit/`); `.heartbeat/` is where versions
  // before it did, so an example path there teaches the layout the CLI migrates away from.
  it('name no `.heartbeat/` path', () => {
    const stale = files(join(root, 'packages', 'core', 'src'), (n) => n.endsWith('.ts') && !n.endsWith('.test.ts')).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ line, where: `${relative(root, file)}:${i + 1}` }))
        .filter(({ line }) => /^\s*\*.*['`/]\.heartbeat\//.test(line))
        .map(({ where }) => where),
    );
    expect(stale).toEqual([]);
  });
});
