import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fixture } from '../../test/support/fixtures.js';
import { parseStatusPorcelainZ } from './parse-status.js';

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
