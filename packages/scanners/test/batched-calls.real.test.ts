// The batched git and tmux calls answer exactly what the one-call-per-item forms answered, on a
// real repository with worktrees and a real tmux server; and the scanners' findings are the same
// whether the batch answers or the per-item fallback does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandRequest, CommandRunner } from '@heartbeat-kit/core';
import { createProcessRunner } from '@heartbeat-kit/core/node';
import { createDefaultScanners, createGitScanner, createStaleTasksScanner, createBeadsSource, type DurationMeter } from '../src/index.js';
// The batched clients are internal (not in the package entry): imported from their modules.
import {
  branchTipEpochs,
  commitEpochs,
  commitsSince,
  lastCommitEpoch,
  listWorktrees,
  worktreeStatus,
  worktreeStatuses,
} from '../src/git/git-client.js';
import { capturePane, capturePanes, listTmuxSessions } from '../src/tmux/tmux-client.js';
import { makeContext } from './support/context.js';
import { envWithFakeBin, tempDir } from './support/temp.js';

const HOUR = 3_600_000;
const BASE_MS = Date.parse('2026-11-01T00:00:00Z');
const tmp = tempDir('hk-batch-');
const repo = join(tmp.path, 'repo');
const gitEnv = (at: number) => ({
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_DATE: new Date(at).toISOString(),
  GIT_COMMITTER_DATE: new Date(at).toISOString(),
  LC_ALL: 'C',
});
const git = (cwd: string, at: number, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-C', cwd, ...args], {
    env: gitEnv(at),
    stdio: ['ignore', 'pipe', 'pipe'],
  }).toString();

// Worktree i: branch feat/bd-w<i>, last commit i hours after BASE; even ones dirty. Branch "skew"
// has a tip older than its parent (clock skew), the case where git's --since walk stops at the tip.
const worktrees = Array.from({ length: 6 }, (_, i) => ({
  path: join(tmp.path, `wt ${i}`),
  branch: `feat/bd-w${i}`,
  at: BASE_MS + i * HOUR,
  dirty: i % 2 === 0,
}));
const socket = `hk-batch-${randomBytes(6).toString('hex')}`;
const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { stdio: ['ignore', 'pipe', 'pipe'] }).toString();
const printer = (text: string) => [process.execPath, '-e', `process.stdout.write(${JSON.stringify(text)}); setInterval(() => {}, 1e6)`];

beforeAll(() => {
  mkdirSync(repo);
  git(repo, BASE_MS, 'init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'a.txt'), 'a\n');
  git(repo, BASE_MS, 'add', 'a.txt');
  git(repo, BASE_MS, 'commit', '-q', '-m', 'first');
  for (const w of worktrees) {
    git(repo, w.at, 'worktree', 'add', '-q', '-b', w.branch, '--', w.path);
    writeFileSync(join(w.path, 'w.txt'), `${w.branch}\n`);
    git(w.path, w.at, 'add', 'w.txt');
    git(w.path, w.at, 'commit', '-q', '-m', w.branch);
    if (w.dirty) writeFileSync(join(w.path, 'dirty.txt'), 'x\n');
  }
  git(repo, BASE_MS + 10 * HOUR, 'branch', 'skew');
  git(repo, BASE_MS + 10 * HOUR, 'checkout', '-q', 'skew');
  git(repo, BASE_MS + 10 * HOUR, 'commit', '-q', '--allow-empty', '-m', 'new parent');
  git(repo, BASE_MS + 1 * HOUR, 'commit', '-q', '--allow-empty', '-m', 'old tip');
  git(repo, BASE_MS, 'checkout', '-q', 'main');
  mkdirSync(join(repo, '.fake-bd'));
  tmux('new-session', '-d', '-s', 'orch-a', '-x', '80', '-y', '10', ...printer('working on a\n'));
  // A pane that prints the marker's printable part cannot split another pane's capture.
  tmux('new-session', '-d', '-s', 'orch-b', '-x', '80', '-y', '10', ...printer('HK-CAPTURE 0\n1\n'));
  tmux('new-session', '-d', '-s', 'orch-c', '-x', '80', '-y', '10', ...printer('third\n'));
});

afterAll(() => {
  try {
    tmux('kill-server');
  } catch {
    // already gone
  }
  rmSync(join(process.env.TMUX_TMPDIR ?? '/tmp', `tmux-${process.getuid?.() ?? 0}`, socket), { force: true });
  tmp.remove();
});

const runner = createProcessRunner({ baseEnv: envWithFakeBin({ GIT_CEILING_DIRECTORIES: tmp.path }) });
const signal = new AbortController().signal;
const meter = (): DurationMeter => ({ ms: 0 });
const line = (request: CommandRequest) => [request.file, ...request.args].join(' ');

/** A runner that records every command and answers `refuse` ones with exit 1, as a git without the batch form would. */
function recording(refuse: (request: CommandRequest) => boolean = () => false): CommandRunner & { readonly calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    run: (request, s) => {
      calls.push(line(request));
      if (refuse(request))
        return runner.run({ ...request, file: 'git', args: ['-C', repo, 'rev-parse', '--verify', 'refs/heads/no-such-branch-here'] }, s);
      return runner.run(request, s);
    },
  };
}

describe('batched git calls against real worktrees', () => {
  it('one git log --no-walk gives every HEAD the epoch git log -1 gives it in its worktree', async () => {
    const listed = (await listWorktrees({ runner }, repo, signal, meter()))._unsafeUnwrap();
    const epochs = (
      await commitEpochs(
        { runner },
        repo,
        listed.map((w) => w.head!),
        signal,
        meter(),
      )
    )._unsafeUnwrap();
    for (const w of listed) {
      const one = (await lastCommitEpoch({ runner }, w.path, signal, meter()))._unsafeUnwrap();
      expect(epochs.get(w.head!)).toBe(one);
    }
    expect(epochs.size).toBe(worktrees.length + 1);
  });

  it('a branch tip older than the window answers exactly when git log --since lists nothing', async () => {
    const tips = (await branchTipEpochs({ runner }, repo, signal, meter()))._unsafeUnwrap();
    expect([...tips.keys()].sort()).toEqual(['main', 'skew', ...worktrees.map((w) => w.branch)].sort());
    for (const branch of tips.keys()) {
      for (const offset of [-1, 0, 1, 2, 5, 11]) {
        const since = Math.floor((BASE_MS + offset * HOUR) / 1000);
        for (const at of [since - 1, since, since + 1]) {
          const count = (await commitsSince({ runner }, repo, branch, at, signal, meter()))._unsafeUnwrap();
          expect({ branch, at, none: tips.get(branch)! < at }).toEqual({ branch, at, none: count === 0 });
        }
      }
    }
  });

  it('the git and stale-task scanners find the same with the batch as with one call per item, in fewer processes', async () => {
    writeFileSync(
      join(repo, '.fake-bd', 'in-progress.json'),
      JSON.stringify(
        worktrees.map((w, i) => ({
          id: `bd-w${i}`,
          title: `w${i}`,
          status: 'in_progress',
          priority: 2,
          started_at: new Date(BASE_MS - HOUR).toISOString(),
        })),
      ),
    );
    const now = new Date(BASE_MS + 7 * HOUR);
    const batchFlags = (r: CommandRequest) =>
      r.args.includes('--stdin') || r.args.includes('for-each-ref') || r.args.includes('for-each-repo');
    const batched = recording();
    const single = recording(batchFlags);
    const scan = async (r: CommandRunner) => {
      const ctx = makeContext({ now, config: { gitStaleMs: 2 * HOUR, staleTaskMs: 4 * HOUR } });
      const gitResult = await createGitScanner({ runner: r, cwd: repo }).scan(ctx);
      const staleResult = await createStaleTasksScanner({ runner: r, cwd: repo, beads: createBeadsSource({ runner: r, cwd: repo }) }).scan(
        ctx,
      );
      return [gitResult, staleResult].map((x) => (x.status === 'ok' ? { findings: x.findings, warnings: x.warnings } : x));
    };
    const a = await scan(batched);
    const b = await scan(single);
    expect(a).toEqual(b);
    // Worktrees 0–4 are older than 2 h; the dirty ones (main, with its untracked .fake-bd, and 0, 2, 4) are GIT_STALE.
    expect(a[0]).toMatchObject({
      findings: [{ subject: repo }, { subject: worktrees[0]!.path }, { subject: worktrees[2]!.path }, { subject: worktrees[4]!.path }],
      warnings: [],
    });
    // Branches with no commit in the last 4 h: tips at 0–2 h.
    expect((a[1] as { readonly findings: readonly { readonly subject: string }[] }).findings.map((f) => f.subject)).toEqual([
      'bd-w0',
      'bd-w1',
      'bd-w2',
    ]);
    const count = (calls: string[], part: string) => calls.filter((c) => c.includes(part)).length;
    expect(count(batched.calls, ' log -1 ')).toBe(0);
    expect(count(batched.calls, ' log --since')).toBe(0);
    expect(count(single.calls, ' log -1 ')).toBe(4);
    expect(count(single.calls, ' log --since')).toBe(worktrees.length);
    // 7 worktrees (main + 6): three for-each-repo batches of two, the odd one alone.
    expect(single.calls.filter((c) => c.includes(' status ') && !c.includes('for-each-repo')).length).toBe(worktrees.length + 1);
    expect(count(batched.calls, ' status ')).toBe(4);
    expect(count(batched.calls, ' for-each-repo ')).toBe(3);
  });

  it('git for-each-repo gives every worktree the status git status gives it alone; around a broken worktree (the block printed before it may be its own) the batch leaves the rest to the caller', async () => {
    const other = join(tmp.path, 'other');
    mkdirSync(other);
    git(other, BASE_MS, 'init', '-q', '-b', 'main');
    writeFileSync(join(other, 'x.txt'), 'x\n');
    git(other, BASE_MS, 'add', 'x.txt');
    git(other, BASE_MS, 'commit', '-q', '-m', 'x');
    const paths = Array.from({ length: 12 }, (_, i) => join(tmp.path, `other ${i}`));
    for (const [i, path] of paths.entries()) {
      git(other, BASE_MS, 'worktree', 'add', '-q', '-b', `o${i}`, '--', path);
      // Files named like the branch field that opens each block: one untracked, one renamed away.
      if (i % 3 === 0) writeFileSync(join(path, '## main'), 'y\n');
      if (i % 3 === 1) {
        writeFileSync(join(path, '## old'), 'z\n');
        git(path, BASE_MS, 'add', '## old');
        git(path, BASE_MS, 'commit', '-q', '-m', 'old');
        git(path, BASE_MS, 'mv', '## old', 'new');
      }
    }
    // Worktree 4 (second of the second batch of three) stops being a repository.
    writeFileSync(join(paths[4]!, '.git'), 'gitdir: /nonexistent/hk\n');
    const batchedRunner = recording();
    const answers = await worktreeStatuses({ runner: batchedRunner }, other, paths, signal, meter());
    const alone = await Promise.all(paths.map((p) => worktreeStatus({ runner }, p, signal, meter())));
    expect(alone[4]!.isErr()).toBe(true);
    // Batches of three: [0 1 2] [3 4 5] [6 7 8] [9 10 11]. In the second, 3's block is the last whole
    // one before the failure, and for-each-repo stopped at 4: 3, 4 and 5 are for one call each.
    expect(answers.map((a) => a !== undefined)).toEqual([true, true, true, false, false, false, true, true, true, true, true, true]);
    for (const [i, answer] of answers.entries()) if (answer !== undefined) expect(answer).toEqual(alone[i]!._unsafeUnwrap());
    expect(answers[0]).toContainEqual({ x: '?', y: '?', path: '## main' });
    expect(answers[1]).toContainEqual({ x: 'R', y: ' ', path: 'new', origPath: '## old' });
    expect(batchedRunner.calls.filter((c) => c.includes(' for-each-repo ')).length).toBe(4);
    // The git scanner says the same with the batch as with one status call per worktree.
    const scan = (r: CommandRunner) =>
      createGitScanner({ runner: r, cwd: other }).scan(makeContext({ now: new Date(BASE_MS + 7 * HOUR), config: { gitStaleMs: HOUR } }));
    const viaBatch = await scan(recording());
    const oneByOne = await scan(recording((r) => r.args.includes('for-each-repo')));
    expect(viaBatch).toMatchObject({ status: 'ok', warnings: [{ code: 'GIT_STATUS_FAILED' }] });
    expect({ ...viaBatch, durationMs: 0 }).toEqual({ ...oneByOne, durationMs: 0 });
  });

  it('a cycle of the default scanners lists worktrees and tmux sessions once, and a new cycle lists them again', async () => {
    const r = recording();
    const scanners = createDefaultScanners({ runner: r, cwd: repo, fileExists: () => Promise.resolve(false), tmuxArgs: ['-L', socket] });
    for (let cycle = 0; cycle < 2; cycle += 1) {
      // Every scanner of one cycle gets the same `now` object; the next cycle, at the same instant, a new one.
      const ctx = makeContext({ now: new Date(BASE_MS + 7 * HOUR) });
      await Promise.all(scanners.map((s) => s.scan(ctx)));
    }
    expect(r.calls.filter((c) => c.includes('worktree list')).length).toBe(2);
    expect(r.calls.filter((c) => c.includes('list-sessions')).length).toBe(2);
  });
});

describe('batched tmux captures against a real server', () => {
  it('capture the same text as one capture-pane per session, and a vanished session fails alone', async () => {
    const sessions = (await listTmuxSessions({ runner, tmuxArgs: ['-L', socket] }, signal, meter()))._unsafeUnwrap();
    expect(sessions.map((s) => s.name).sort()).toEqual(['orch-a', 'orch-b', 'orch-c']);
    const deps = { runner, tmuxArgs: ['-L', socket] };
    const one = await Promise.all(sessions.map((s) => capturePane(deps, s, signal, meter())));
    const batch = await capturePanes(deps, sessions, signal, meter());
    expect(batch.map((r) => r._unsafeUnwrap())).toEqual(one.map((r) => r._unsafeUnwrap()));
    expect(batch.map((r) => r._unsafeUnwrap().split('\n')[0])).toEqual(
      sessions.map((s) => ({ 'orch-a': 'working on a', 'orch-b': 'HK-CAPTURE 0', 'orch-c': 'third' })[s.name]),
    );
    // A session that ended after the listing: tmux stops the sequence there, the rest still come back.
    const gone = { id: '$999', name: 'orch-gone' };
    const mixed = await capturePanes(deps, [sessions[0]!, gone, sessions[1]!, sessions[2]!], signal, meter());
    expect(mixed.map((r) => r.isOk())).toEqual([true, false, true, true]);
    expect(mixed[3]!._unsafeUnwrap()).toBe(one[2]!._unsafeUnwrap());
    expect(mixed[1]!._unsafeUnwrapErr().message).toMatch(/capture-pane exited 1/);
  });
});
