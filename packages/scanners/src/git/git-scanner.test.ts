import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fixture } from '../../test/support/fixtures.js';
import { makeContext, notFound, scriptedRunner } from '../../test/support/context.js';
import { configPathInWorktree, createGitScanner, isGitStale, isIgnoredChange } from './git-scanner.js';
import { excludePathspec } from './git-client.js';

const HOUR = 3_600_000;

describe('git scanner (fake git)', () => {
  it('runs git -C <path> without optional locks and skips bare/prunable worktrees', async () => {
    const runner = scriptedRunner([
      [/worktree list --porcelain -z$/, { stdout: fixture('git', 'worktree-list-edge-porcelain-z.txt') }],
      [/wt-dirty --no-optional-locks status/, { stdout: fixture('git', 'status-porcelain-v1-z.txt') }],
      [/ status --porcelain=v1 -z$/, { stdout: '' }],
      [/wt-dirty --no-optional-locks log -1 --format=%ct$/, { stdout: fixture('git', 'log-1-ct-branch.txt') }],
    ]);
    const now = new Date(Number(fixture('git', 'log-1-ct-branch.txt').trim()) * 1000 + 3 * HOUR);
    const result = await createGitScanner({ runner, cwd: '/tmp/hbscratch/g/repo' }).scan(makeContext({ now }));
    expect(result.status === 'ok' && result.findings.map((f) => f.line)).toEqual([
      'STALE: /tmp/hbscratch/g/wt-dirty (6 uncommitted changes, last commit 3h 0m ago)',
    ]);
    expect(runner.calls.some((c) => c.args[1] === '/tmp/hbscratch/g/wt-gone')).toBe(false);
    for (const call of runner.calls) {
      expect(call.args[0]).toBe('-C');
      expect(call.env).toMatchObject({ GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' });
    }
  });

  it('skips without git and outside a repository; errors on other failures', async () => {
    expect(await createGitScanner({ runner: scriptedRunner([[/./, notFound('git')]]), cwd: '/x' }).scan(makeContext())).toMatchObject({
      status: 'skipped',
      reason: 'git not found on PATH',
    });
    const notRepo = await createGitScanner({
      runner: scriptedRunner([[/./, { exitCode: 128, stderr: fixture('git', 'worktree-list-not-a-repo.stderr.txt') }]]),
      cwd: '/x',
    }).scan(makeContext());
    expect(notRepo.status).toBe('skipped');
    const broken = await createGitScanner({
      runner: scriptedRunner([[/./, { exitCode: 1, stderr: 'fatal: index file corrupt\n' }]]),
      cwd: '/x',
    }).scan(makeContext());
    expect(broken.status).toBe('error');
  });

  it('keeps scanning other worktrees when one fails', async () => {
    const runner = scriptedRunner([
      [/worktree list/, { stdout: fixture('git', 'worktree-list-porcelain-z.txt') }],
      [/wt-detached --no-optional-locks status/, { exitCode: 128, stderr: 'fatal: not a git repository\n' }],
      [/wt-dirty --no-optional-locks status/, { stdout: 'A  x\0' }],
      [/status/, { stdout: '' }],
      [/log -1/, { stdout: '1000\n' }],
    ]);
    const result = await createGitScanner({ runner, cwd: '/r' }).scan(makeContext());
    expect(result).toMatchObject({ status: 'ok', warnings: [{ code: 'GIT_STATUS_FAILED' }] });
    expect(result.status === 'ok' && result.findings.map((f) => f.subject)).toEqual(['/tmp/hbscratch/g/wt-dirty']);
  });
});

describe('isGitStale', () => {
  it('is dirty AND older than the threshold; no commit is never stale', () => {
    fc.assert(
      fc.property(
        fc.nat(50),
        fc.option(fc.nat(2_000_000_000), { nil: undefined }),
        fc.nat(2_000_000_000_000),
        fc.integer({ min: 1, max: 10 * HOUR }),
        (changes, epoch, nowMs, staleMs) => {
          const stale = isGitStale({ path: '/x', branch: undefined, changes, lastCommitEpoch: epoch }, nowMs, staleMs);
          expect(stale).toBe(changes > 0 && epoch !== undefined && nowMs - epoch * 1000 > staleMs);
          if (epoch === undefined || changes === 0) expect(stale).toBe(false);
        },
      ),
    );
  });
});

describe("isIgnoredChange (the heartbeat's own files are never the user's work)", () => {
  it('ignores the directory itself (git lists an untracked dir as dir/) and everything inside it, nothing beside it', () => {
    expect(isIgnoredChange('/r/wt', '.heartbeat/', ['/r/wt/.heartbeat'])).toBe(true);
    expect(isIgnoredChange('/r/wt/', '.heartbeat/state.json', ['/r/wt/.heartbeat/'])).toBe(true);
    expect(isIgnoredChange('/r/wt', '.heartbeat-notes.md', ['/r/wt/.heartbeat'])).toBe(false);
    expect(isIgnoredChange('/r/wt', 'src/.heartbeat/x', ['/r/wt/.heartbeat'])).toBe(false);
    expect(isIgnoredChange('/r/other', '.heartbeat/', ['/r/wt/.heartbeat'])).toBe(false);
  });

  it('a prefix ignores the files that start with it, not their neighbours', () => {
    expect(isIgnoredChange('/r', 'hb.json', [], ['/r/hb.'])).toBe(true);
    expect(isIgnoredChange('/r', 'hb.receipts/', [], ['/r/hb.'])).toBe(true);
    expect(isIgnoredChange('/r', 'notes.md', [], ['/r/hb.'])).toBe(false);
    expect(isIgnoredChange('/r', 'src/hb.json', [], ['/r/hb.'])).toBe(false);
  });

  it('a path is ignored exactly when it is the ignored directory or below it (property)', () => {
    const seg = fc.stringMatching(/^[a-z.]{1,6}$/).filter((s) => s !== '.' && s !== '..');
    fc.assert(
      fc.property(fc.array(seg, { minLength: 1, maxLength: 3 }), fc.array(seg, { minLength: 1, maxLength: 3 }), (ignoredRel, entry) => {
        const expected = entry.length >= ignoredRel.length && ignoredRel.every((part, i) => entry[i] === part);
        expect(isIgnoredChange('/w', entry.join('/'), [`/w/${ignoredRel.join('/')}`])).toBe(expected);
      }),
    );
  });
});

describe('the config file the heartbeat reads is never a change (issue 26 item 3)', () => {
  const step = fc.stringMatching(/^[a-zA-Z0-9 ._*?:()-]{1,12}$/).filter((s) => s !== '.' && s !== '..');
  const rel = fc.array(step, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));
  const root = fc.array(step, { minLength: 1, maxLength: 3 }).map((parts) => `/${parts.join('/')}`);

  it('property: a file inside a worktree gives its path relative to the deepest worktree holding it', () => {
    fc.assert(
      fc.property(root, rel, rel, (top, inner, file) => {
        const nested = `${top}/${inner}`;
        expect(configPathInWorktree(`${top}/${file}`, [top])).toBe(file);
        // The deepest holder wins: a worktree nested in another's directory is the file's own.
        expect(configPathInWorktree(`${nested}/${file}`, [top, nested])).toBe(file);
        // A sibling that shares only a name prefix does not hold it.
        expect(configPathInWorktree(`${top}x/${file}`, [top])).toBeUndefined();
      }),
    );
  });

  it('gives nothing for a path that is not plain (.., control characters) or outside every worktree', () => {
    expect(configPathInWorktree('/repo/../etc/passwd', ['/repo'])).toBeUndefined();
    expect(configPathInWorktree('/repo/a\nb', ['/repo'])).toBeUndefined();
    expect(configPathInWorktree('/elsewhere/HEARTBEAT.md', ['/repo'])).toBeUndefined();
    expect(configPathInWorktree('/repo/.claude/HEARTBEAT.md', ['/repo/'])).toBe('.claude/HEARTBEAT.md');
  });

  it('property: the pathspec keeps everything but names each path literally as an exclusion', () => {
    fc.assert(
      fc.property(fc.array(rel, { maxLength: 3 }), (paths) => {
        const spec = excludePathspec(paths);
        if (paths.length === 0) expect(spec).toEqual([]);
        else expect(spec).toEqual(['--', '.', ...paths.map((p) => `:(exclude,literal)${p}`)]);
      }),
    );
  });

  it('passes the exclusion to git status of every worktree', async () => {
    const runner = scriptedRunner([
      [/worktree list --porcelain -z$/, { stdout: fixture('git', 'worktree-list-edge-porcelain-z.txt') }],
      [/ status /, { stdout: '' }],
      [/ for-each-repo /, { stdout: '' }],
    ]);
    const scanner = createGitScanner({ runner, cwd: '/tmp/hbscratch/g/repo', configFile: '/tmp/hbscratch/g/repo/.claude/HEARTBEAT.md' });
    await scanner.scan(makeContext());
    const status = runner.calls.map((c) => c.args).filter((args) => args.includes('status'));
    expect(status.length).toBeGreaterThan(0);
    for (const args of status) expect(args.slice(-3)).toEqual(['--', '.', ':(exclude,literal).claude/HEARTBEAT.md']);
  });
});
