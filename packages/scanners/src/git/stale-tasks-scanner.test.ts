import { describe, expect, it } from 'vitest';
import { makeContext, scriptedRunner } from '../../test/support/context.js';
import { createBeadsSource } from '../beads/beads-source.js';
import { createStaleTasksScanner, inProgressSince, worktreeForBead } from './stale-tasks-scanner.js';
import type { Worktree } from './parse-worktrees.js';

const wt = (path: string, branch: string | undefined): Worktree => ({
  path,
  branch,
  head: 'a'.repeat(40),
  detached: branch === undefined,
  bare: false,
  locked: undefined,
  prunable: undefined,
  unborn: false,
});

describe('worktreeForBead', () => {
  it('matches the id as a whole token, never a child or a longer id', () => {
    const list = [wt('/a', 'feat/bd-a3f8.1-login'), wt('/b', 'xbd-a3f8'), wt('/c', 'feat/bd-a3f8-auth'), wt('/d', undefined)];
    expect(worktreeForBead('bd-a3f8', list)?.path).toBe('/c');
    expect(worktreeForBead('bd-a3f8.1', list)?.path).toBe('/a');
    expect(worktreeForBead('bd-a3f', list)).toBeUndefined();
    expect(worktreeForBead('my-app-x7q', [wt('/e', 'my-app-x7q')])?.path).toBe('/e');
  });
});

describe('inProgressSince', () => {
  it('prefers started_at, falls back to updated_at, ignores junk', () => {
    expect(inProgressSince({ id: 'a-b', title: '', startedAt: '2026-11-06T09:10:00Z', updatedAt: '2026-11-07T00:00:00Z' })).toBe(
      Date.parse('2026-11-06T09:10:00Z'),
    );
    expect(inProgressSince({ id: 'a-b', title: '', startedAt: 'soon', updatedAt: '2026-11-07T00:00:00+02:00' })).toBe(
      Date.parse('2026-11-06T22:00:00Z'),
    );
    expect(inProgressSince({ id: 'a-b', title: '' })).toBeUndefined();
  });
});

describe('stale-tasks scanner (fake tools)', () => {
  const beads = JSON.stringify([
    { id: 'bd-old', title: 'Old', priority: 2, status: 'in_progress', started_at: '2026-11-29T06:00:00Z' },
    { id: 'bd-new', title: 'New', priority: 2, status: 'in_progress', started_at: '2026-11-29T11:00:00Z' },
    { id: 'bd-map', title: 'Mapped', priority: 2, status: 'in_progress', updated_at: '2026-11-29T01:00:00Z' },
  ]);
  const now = new Date('2026-11-29T12:00:00Z');

  it('asks git only about old beads, with the branch after --end-of-options and a clock-free --since', async () => {
    const runner = scriptedRunner([
      [/^bd list/, { stdout: beads }],
      [
        /worktree list/,
        {
          stdout:
            'worktree /r\0HEAD ' +
            'a'.repeat(40) +
            '\0branch refs/heads/main\0\0worktree /r/wt\0HEAD ' +
            'b'.repeat(40) +
            '\0branch refs/heads/feat/bd-old\0\0',
        },
      ],
      [/ log /, { stdout: '' }],
    ]);
    const scanner = createStaleTasksScanner({
      runner,
      cwd: '/r',
      beads: createBeadsSource({ runner, cwd: '/r' }),
      branchForBead: (b) => (b.id === 'bd-map' ? '-mapped' : undefined),
    });
    const result = await scanner.scan(makeContext({ now }));
    expect(result.status === 'ok' && result.findings.map((f) => f.subject)).toEqual(['bd-old', 'bd-map']);
    const logs = runner.calls.filter((c) => c.args.includes('log'));
    const since = `--since=@${(now.getTime() - 4 * 3_600_000) / 1000}`;
    expect(logs.map((c) => c.args)).toEqual([
      ['-C', '/r/wt', '--no-optional-locks', 'log', since, '--format=%H', '--end-of-options', 'refs/heads/feat/bd-old', '--'],
      ['-C', '/r', '--no-optional-locks', 'log', since, '--format=%H', '--end-of-options', 'refs/heads/-mapped', '--'],
    ]);
  });

  it('does not run git at all when nothing is old enough', async () => {
    const runner = scriptedRunner([[/^bd list/, { stdout: '[]' }]]);
    const result = await createStaleTasksScanner({ runner, cwd: '/r', beads: createBeadsSource({ runner, cwd: '/r' }) }).scan(
      makeContext({ now }),
    );
    expect(result).toMatchObject({ status: 'ok', findings: [] });
    expect(runner.calls).toHaveLength(1);
  });
});
