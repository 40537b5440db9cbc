import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fixture } from '../../test/support/fixtures.js';
import { parseWorktreeList, scannableWorktrees } from './parse-worktrees.js';

const toZ = (text: string) => text.replace(/\n/g, '\0');

describe('parseWorktreeList', () => {
  it('reads the -z capture: main first, detached, branch names without refs/heads/', () => {
    const list = parseWorktreeList(fixture('git', 'worktree-list-porcelain-z.txt'))._unsafeUnwrap();
    expect(list.map((w) => [w.path, w.branch, w.detached])).toEqual([
      ['/tmp/hbscratch/g/repo', 'main', false],
      ['/tmp/hbscratch/g/wt with spaces', 'feat-spaces', false],
      ['/tmp/hbscratch/g/wt-detached', undefined, true],
      ['/tmp/hbscratch/g/wt-dirty', 'feature/dirty', false],
    ]);
  });

  it('reads a newline in a path, locked reasons (raw, multi-line) and prunable entries', () => {
    const list = parseWorktreeList(fixture('git', 'worktree-list-edge-porcelain-z.txt'))._unsafeUnwrap();
    expect(list).toHaveLength(9);
    expect(list[1]).toMatchObject({ path: '/tmp/hbscratch/g/wt\nnewline', branch: 'nl-br' });
    expect(list.find((w) => w.path.endsWith('wt-locked'))?.locked).toBe('on removable disk');
    expect(list.find((w) => w.path.endsWith('wt-locked-noreason'))?.locked).toBe('');
    expect(list.find((w) => w.path.endsWith('wt-mlreason'))?.locked).toBe('multi\nline reason');
    expect(list.find((w) => w.path.endsWith('wt-gone'))?.prunable).toBe('gitdir file points to non-existent location');
    expect(scannableWorktrees(list).map((w) => w.path)).not.toContain('/tmp/hbscratch/g/wt-gone');
    expect(scannableWorktrees(list)).toHaveLength(8);
  });

  it('marks an unborn HEAD and skips a bare main entry', () => {
    expect(parseWorktreeList(toZ(fixture('git', 'worktree-list-porcelain-unborn.txt')))._unsafeUnwrap()).toEqual([
      {
        path: '/tmp/hbscratch/g/empty',
        head: '0000000000000000000000000000000000000000',
        branch: 'main',
        detached: false,
        bare: false,
        locked: undefined,
        prunable: undefined,
        unborn: true,
      },
    ]);
    const bare = parseWorktreeList(toZ(fixture('git', 'worktree-list-bare-porcelain.txt')))._unsafeUnwrap();
    expect(bare.map((w) => w.bare)).toEqual([true, false]);
    expect(scannableWorktrees(bare).map((w) => w.path)).toEqual(['/tmp/hbscratch/g/bare-wt']);
  });

  it('reads empty output as no worktrees and rejects fields outside a record', () => {
    expect(parseWorktreeList('')._unsafeUnwrap()).toEqual([]);
    expect(parseWorktreeList('HEAD abc\0\0')._unsafeUnwrapErr().kind).toBe('malformed-output');
  });

  const wtArb = fc.record({
    path: fc
      .string({ minLength: 1 })
      .filter((p) => !p.includes('\0'))
      .map((p) => `/${p}`),
    head: fc.stringMatching(/^[0-9a-f]{40}$/),
    branch: fc.option(fc.stringMatching(/^[a-z][a-z0-9/-]{0,12}$/), { nil: undefined }),
    locked: fc.option(
      fc.string().filter((r) => !r.includes('\0')),
      { nil: undefined },
    ),
  });

  it('round-trips generated records (hostile paths included)', () => {
    fc.assert(
      fc.property(fc.array(wtArb, { maxLength: 5 }), (records) => {
        const text = records
          .map(
            (r) =>
              [
                `worktree ${r.path}`,
                `HEAD ${r.head}`,
                r.branch === undefined ? 'detached' : `branch refs/heads/${r.branch}`,
                ...(r.locked === undefined ? [] : [r.locked === '' ? 'locked' : `locked ${r.locked}`]),
                '',
              ].join('\0') + '\0',
          )
          .join('');
        const parsed = parseWorktreeList(text)._unsafeUnwrap();
        expect(parsed.map((w) => ({ path: w.path, head: w.head, branch: w.branch, locked: w.locked }))).toEqual(records);
        expect(parsed.map((w) => w.detached)).toEqual(records.map((r) => r.branch === undefined));
      }),
    );
  });

  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('worktree ', 'HEAD ', 'branch ', 'bare', '\0', 'x', ' ', '/') }), (text) => {
        expect(() => parseWorktreeList(text)).not.toThrow();
      }),
    );
  });
});
