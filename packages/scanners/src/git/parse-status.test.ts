import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fixture } from '../../test/support/fixtures.js';
import { parseStatusBlocksZ, parseStatusPorcelainZ } from './parse-status.js';

describe('parseStatusPorcelainZ', () => {
  it('reads the dirty worktree capture, the rename taking its extra field', () => {
    const entries = parseStatusPorcelainZ(fixture('git', 'status-porcelain-v1-z.txt'))._unsafeUnwrap();
    expect(entries).toEqual([
      { x: ' ', y: 'M', path: 'a.txt' },
      { x: 'D', y: ' ', path: 'f2.txt' },
      { x: 'R', y: 'M', path: 'renamed f1.txt', origPath: 'f1.txt' },
      { x: 'A', y: ' ', path: 'staged.txt' },
      { x: '?', y: '?', path: 'newdir/' },
      { x: '?', y: '?', path: 'untracked file.txt' },
    ]);
  });

  it('keeps unicode and quotes raw, and reads a clean tree as no entries', () => {
    expect(
      parseStatusPorcelainZ(fixture('git', 'status-porcelain-v1-z-unicode.txt'))
        ._unsafeUnwrap()
        .map((e) => e.path),
    ).toEqual(['café.txt', 'quote"d.txt']);
    expect(parseStatusPorcelainZ(fixture('git', 'status-porcelain-v1-clean.txt'))._unsafeUnwrap()).toEqual([]);
  });

  it('rejects output that is not v1 -z', () => {
    expect(parseStatusPorcelainZ(fixture('git', 'status-porcelain-v2-branch-z.txt')).isErr()).toBe(true);
    expect(parseStatusPorcelainZ('R  new\0')._unsafeUnwrapErr().kind).toBe('malformed-output');
  });

  const entryArb = fc.record({
    x: fc.constantFrom(' ', 'M', 'A', 'D', 'R', 'C', 'U', '?'),
    y: fc.constantFrom(' ', 'M', 'D', 'U', '?'),
    path: fc.string({ minLength: 1 }).filter((p) => !p.includes('\0')),
    orig: fc.string({ minLength: 1 }).filter((p) => !p.includes('\0')),
  });

  it('round-trips generated entries and counts them exactly', () => {
    fc.assert(
      fc.property(fc.array(entryArb, { maxLength: 8 }), (entries) => {
        const text = entries.map((e) => `${e.x}${e.y} ${e.path}\0${e.x === 'R' || e.x === 'C' ? `${e.orig}\0` : ''}`).join('');
        const parsed = parseStatusPorcelainZ(text)._unsafeUnwrap();
        expect(parsed).toHaveLength(entries.length);
        expect(parsed.map((p) => [p.path, p.origPath])).toEqual(
          entries.map((e) => [e.path, e.x === 'R' || e.x === 'C' ? e.orig : undefined]),
        );
      }),
    );
  });

  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(() => parseStatusPorcelainZ(text)).not.toThrow();
      }),
    );
  });
});

describe('parseStatusBlocksZ (one git for-each-repo over several worktrees)', () => {
  const entryArb = fc.oneof(
    fc.record({
      x: fc.constantFrom(' ', 'M', 'A', 'D', 'U', '?', '!'),
      y: fc.constantFrom(' ', 'M', 'D', 'U', '?', '!'),
      path: fc
        .oneof(
          fc.string({ minLength: 1 }),
          fc.string().map((s) => `## ${s}`),
        )
        .filter((p) => !p.includes('\0')),
    }),
    fc.record({
      x: fc.constantFrom('R', 'C'),
      y: fc.constantFrom(' ', 'M', 'D'),
      path: fc.string({ minLength: 1 }).filter((p) => !p.includes('\0')),
      // A source named like a branch field must stay the rename's, not open a block.
      origPath: fc
        .oneof(
          fc.string({ minLength: 1 }),
          fc.string().map((s) => `## ${s}`),
        )
        .filter((p) => !p.includes('\0')),
    }),
  );
  const blockArb = fc.record({
    branch: fc.oneof(fc.constant('HEAD (no branch)'), fc.constant('No commits yet on main'), fc.string()).filter((b) => !b.includes('\0')),
    entries: fc.array(entryArb, { maxLength: 5 }),
  });
  const serialise = (blocks: { branch: string; entries: { x: string; y: string; path: string; origPath?: string }[] }[]) =>
    blocks
      .map(
        (b) =>
          `## ${b.branch}\0${b.entries.map((e) => `${e.x}${e.y} ${e.path}\0${e.origPath === undefined ? '' : `${e.origPath}\0`}`).join('')}`,
      )
      .join('');

  it('splits generated blocks exactly, each block parsing as parseStatusPorcelainZ parses it alone', () => {
    fc.assert(
      fc.property(fc.array(blockArb, { maxLength: 6 }), (blocks) => {
        const parsed = parseStatusBlocksZ(serialise(blocks))._unsafeUnwrap();
        expect(parsed).toEqual(blocks.map((b) => b.entries));
        for (const b of blocks) {
          const alone = serialise([{ ...b, branch: '' }]).slice('## \0'.length);
          expect(parseStatusPorcelainZ(alone)._unsafeUnwrap()).toEqual(b.entries);
        }
      }),
    );
  });

  it('reads a real block, and refuses entries before any branch field or a rename cut short', () => {
    expect(parseStatusBlocksZ(`## main\0${fixture('git', 'status-porcelain-v1-z.txt')}## HEAD (no branch)\0`)._unsafeUnwrap()).toEqual([
      parseStatusPorcelainZ(fixture('git', 'status-porcelain-v1-z.txt'))._unsafeUnwrap(),
      [],
    ]);
    expect(parseStatusBlocksZ('')._unsafeUnwrap()).toEqual([]);
    expect(parseStatusBlocksZ(' M a\0## main\0')._unsafeUnwrapErr().kind).toBe('malformed-output');
    expect(parseStatusBlocksZ('## main\0R  new\0')._unsafeUnwrapErr().kind).toBe('malformed-output');
  });

  it('never throws on arbitrary text', () => {
    fc.assert(fc.property(fc.string(), (text) => void expect(() => parseStatusBlocksZ(text)).not.toThrow()));
  });
});
