import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createProcessRunner } from '@heartbeat-kit/core/node';
import { createBeadsSource, createGitScanner, createStaleTasksScanner } from '../src/index.js';
import { makeContext } from './support/context.js';
import { envWithFakeBin, tempDir } from './support/temp.js';

// Every commit is dated here, so ages are computed against a fixed "now", never the wall clock.
const COMMIT_DATE = '2026-11-01T00:00:00Z';
const COMMIT_MS = Date.parse(COMMIT_DATE);
const HOUR = 3_600_000;

const gitEnv = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_DATE: COMMIT_DATE,
  GIT_COMMITTER_DATE: COMMIT_DATE,
  LC_ALL: 'C',
};
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-C', cwd, ...args], {
    env: gitEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  }).toString();

const tmp = tempDir('hk-git-');
const repo = join(tmp.path, 'repo');
// Hostile worktree paths: a space, a quote, a newline, a leading dash.
const wt = {
  space: join(tmp.path, 'wt space'),
  quote: join(tmp.path, 'wt"quote\'s'),
  newline: join(tmp.path, 'wt\nnewline'),
  dash: join(tmp.path, '-wt dash'),
};
const unbornRepo = join(tmp.path, 'unborn');
const notRepo = join(tmp.path, 'not-a-repo');

beforeAll(() => {
  mkdirSync(repo);
  git(repo, 'init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'a.txt'), 'a\n');
  git(repo, 'add', 'a.txt');
  git(repo, 'commit', '-q', '-m', 'first');
  git(repo, 'worktree', 'add', '-q', '-b', 'feat/bd-p0c4-docs', '--', wt.space);
  git(repo, 'worktree', 'add', '-q', '-b', 'quote-br', '--', wt.quote);
  git(repo, 'worktree', 'add', '-q', '-b', 'nl-br', '--', wt.newline);
  git(repo, 'worktree', 'add', '-q', '-b', 'dash-br', '--', wt.dash);
  // Dirty: main (modified), space (untracked), newline (rename), dash (staged). Clean: quote.
  writeFileSync(join(repo, 'a.txt'), 'changed\n');
  writeFileSync(join(wt.space, 'new file.txt'), 'x\n');
  git(wt.newline, 'mv', 'a.txt', 'b c.txt');
  writeFileSync(join(wt.dash, '-flag.txt'), 'x\n');
  git(wt.dash, 'add', '--', '-flag.txt');
  mkdirSync(unbornRepo);
  git(unbornRepo, 'init', '-q', '-b', 'main');
  writeFileSync(join(unbornRepo, 'untracked.txt'), 'x\n');
  mkdirSync(notRepo);
  // Beads workspace for the fake bd: bd-p0c4 has a branch (feat/bd-p0c4-docs), bd-7xq1 has none.
  mkdirSync(join(repo, '.fake-bd'));
});

afterAll(() => tmp.remove());

const runner = createProcessRunner({ baseEnv: envWithFakeBin({ GIT_CEILING_DIRECTORIES: tmp.path }) });

describe('git scanner against real worktrees', () => {
  it('reports every dirty worktree with an old last commit, main included, hostile paths exact', async () => {
    const result = await createGitScanner({ runner, cwd: repo }).scan(makeContext({ now: new Date(COMMIT_MS + 2 * HOUR) }));
    expect(result.status).toBe('ok');
    if (result.status !== 'ok') return;
    expect(result.warnings).toEqual([]);
    expect(result.findings.map((f) => f.subject).sort()).toEqual([repo, wt.space, wt.newline, wt.dash].sort());
    const space = result.findings.find((f) => f.subject === wt.space);
    expect(space?.line).toBe(`STALE: ${wt.space} (1 uncommitted change, last commit 2h 0m ago)`);
    expect(space?.fingerprint).toBe(`GIT_STALE:${wt.space}`);
    const newline = result.findings.find((f) => f.subject === wt.newline);
    expect(newline?.line).not.toContain('\n');
    expect(newline?.details).toMatchObject({ branch: 'nl-br', changes: 1 });
  });

  it('reports nothing while the last commit is recent', async () => {
    const result = await createGitScanner({ runner, cwd: repo }).scan(makeContext({ now: new Date(COMMIT_MS + 30 * 60_000) }));
    expect(result).toMatchObject({ status: 'ok', findings: [], warnings: [] });
  });

  it('never calls a worktree without a commit stale', async () => {
    const result = await createGitScanner({ runner, cwd: unbornRepo }).scan(makeContext({ now: new Date(COMMIT_MS + 100 * HOUR) }));
    expect(result).toMatchObject({ status: 'ok', findings: [], warnings: [] });
  });

  it('skips outside a repository', async () => {
    const result = await createGitScanner({ runner, cwd: notRepo }).scan(makeContext());
    expect(result.status).toBe('skipped');
    expect(result.status === 'skipped' && result.reason).toContain('not a git repository');
  });

  it('leaves no index.lock behind and changes nothing it scans', async () => {
    const before = git(repo, 'status', '--porcelain=v1', '-z');
    await createGitScanner({ runner, cwd: repo }).scan(makeContext({ now: new Date(COMMIT_MS + 2 * HOUR) }));
    expect(git(repo, 'status', '--porcelain=v1', '-z')).toBe(before);
  });
});

describe('stale-tasks scanner against a real repo and the fake bd', () => {
  // list-status-in_progress.json: bd-p0c4 started 2026-11-06T09:10Z, bd-7xq1 2026-11-05T16:45:12Z.
  const now = new Date('2026-11-06T15:00:00Z');

  it('flags in-progress beads with no commits on their branch in the window, and branchless ones by time alone', async () => {
    const scanner = createStaleTasksScanner({ runner, cwd: repo, beads: createBeadsSource({ runner, cwd: repo }) });
    const result = await scanner.scan(makeContext({ now }));
    expect(result.status).toBe('ok');
    if (result.status !== 'ok') return;
    expect(result.findings.map((f) => [f.subject, f.details.branch ?? null])).toEqual([
      ['bd-p0c4', 'feat/bd-p0c4-docs'],
      ['bd-7xq1', null],
    ]);
    expect(result.findings[0]?.line).toBe(
      `STALE TASK: bd-p0c4 'Write docs: "getting started" & <setup>' (in_progress 5h 50m, no commits on feat/bd-p0c4-docs in the last 4h 0m)`,
    );
    expect(result.findings[1]?.line).toContain('no branch found');
  });

  it('does not flag a bead whose branch has a commit in the window', async () => {
    const recent = '2026-11-06T14:00:00Z';
    execFileSync(
      'git',
      ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-C', wt.space, 'commit', '-q', '--allow-empty', '-m', 'work'],
      {
        env: { ...gitEnv, GIT_AUTHOR_DATE: recent, GIT_COMMITTER_DATE: recent },
      },
    );
    const scanner = createStaleTasksScanner({ runner, cwd: repo, beads: createBeadsSource({ runner, cwd: repo }) });
    const result = await scanner.scan(makeContext({ now }));
    expect(result.status === 'ok' && result.findings.map((f) => f.subject)).toEqual(['bd-7xq1']);
  });

  it('skips where bd has no workspace', async () => {
    const scanner = createStaleTasksScanner({ runner, cwd: notRepo, beads: createBeadsSource({ runner, cwd: notRepo }) });
    expect(await scanner.scan(makeContext({ now }))).toMatchObject({ status: 'skipped', reason: 'no beads database found' });
  });
});
