import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileLockStore } from '@heartbeat-kit/core/node';
import { useCliWorlds, useTempDirs, type CliWorld } from './support/cli-world.js';
import { runCli } from './support/run-cli.js';

const newWorld = useCliWorlds();
const tempDir = useTempDirs();

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-C', cwd, ...args], {
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'T',
      GIT_AUTHOR_EMAIL: 't@example.invalid',
      GIT_COMMITTER_NAME: 'T',
      GIT_COMMITTER_EMAIL: 't@example.invalid',
      GIT_AUTHOR_DATE: '2026-02-19T10:00:00Z',
      GIT_COMMITTER_DATE: '2026-02-19T10:00:00Z',
    },
  });

/** A world whose .gitignore does not hide `.heartbeat/` (a real project's does not either). */
function plainWorld(heartbeatMd?: string): CliWorld {
  const w = newWorld({
    mainCommitAt: new Date('2026-02-19T10:00:00Z'),
    worktrees: [{ dir: 'wt-feature', branch: 'feature', commitAt: new Date('2026-02-19T10:00:00Z') }],
    ...(heartbeatMd === undefined ? {} : { heartbeatMd }),
  });
  writeFileSync(join(w.project, '.gitignore'), '.claude/\n');
  git(w.project, 'commit', '-qam', 'ignore only .claude');
  return w;
}

function cycleJson(w: CliWorld, cwd: string, now: string, ...extra: string[]) {
  return w.cliInAt(now, cwd, 'cycle', '--tmux-socket', w.tmuxSocket, '--json', ...extra);
}

describe('the heartbeat never changes the repository it watches (state in the git common dir)', () => {
  it('a clean repo stays clean: no ?? .heartbeat/, no false GIT_STALE, state in .git/heartbeat-kit/', async () => {
    const world = plainWorld();
    for (const now of ['2026-02-19T14:00:00Z', '2026-02-19T14:10:00Z', '2026-02-19T14:20:00Z']) {
      const run = await cycleJson(world, world.project, now);
      expect(run.stderr).toBe('');
      expect((JSON.parse(run.stdout) as { status: string; categories: string[] }).categories).toEqual([]);
    }
    expect(git(world.project, 'status', '--porcelain')).toBe('');
    expect(existsSync(join(world.project, '.heartbeat'))).toBe(false);
    expect((JSON.parse(readFileSync(join(world.project, '.git', 'heartbeat-kit', 'state.json'), 'utf8')) as { cycle: number }).cycle).toBe(
      3,
    );
    const text = await world.cliInAt('2026-02-19T14:30:00Z', world.project, 'cycle', '--tmux-socket', world.tmuxSocket);
    expect(text.stdout).toBe('HEARTBEAT_OK\n');
  });

  it('all worktrees and subdirectories of one repo share one state and the repository config', async () => {
    // Active hours 0–1 UTC: a cycle that read this config is outside active hours at 14:00.
    const world = plainWorld('## Active Hours\n- Start: 0\n- End: 1\n- Timezone: UTC\n');
    const src = join(world.project, 'src', 'deep');
    mkdirSync(src, { recursive: true });
    const fromRoot = JSON.parse((await cycleJson(world, world.project, '2026-02-19T14:00:00Z')).stdout) as {
      cycle: number;
      insideActiveHours: boolean;
    };
    expect(fromRoot).toMatchObject({ cycle: 1, insideActiveHours: false });
    const fromSrc = await cycleJson(world, src, '2026-02-19T14:10:00Z');
    expect(fromSrc.stderr).toBe('');
    expect(JSON.parse(fromSrc.stdout)).toMatchObject({ cycle: 2, insideActiveHours: false });
    const viaFlag = await world.cliInAt(
      '2026-02-19T14:20:00Z',
      world.project,
      'cycle',
      '--cwd',
      'src/deep',
      '--tmux-socket',
      world.tmuxSocket,

      '--json',
    );
    expect(JSON.parse(viaFlag.stdout)).toMatchObject({ cycle: 3, insideActiveHours: false });
    // plan predicts for the same project: the repository's config from a subdirectory too.
    const plan = await world.cliIn(src, 'plan', '--now', '2026-02-19T14:00:00Z', '--hours', '1', '--interval', '3600', '--json');
    expect((JSON.parse(plan.stdout) as { slots: { verdict: string }[] }).slots.map((s) => s.verdict)).not.toContain('runs');
    const fromWorktree = await cycleJson(world, join(world.root, 'wt-feature'), '2026-02-19T14:30:00Z');
    // The linked worktree has no .claude/ of its own (it is not committed): the main worktree's config applies.
    expect(fromWorktree.stderr).toBe('');
    expect(JSON.parse(fromWorktree.stdout)).toMatchObject({ cycle: 4, insideActiveHours: false });
    expect(git(world.project, 'status', '--porcelain')).toBe('');
    expect(git(join(world.root, 'wt-feature'), 'status', '--porcelain')).toBe('');
  });

  it("an older version's .heartbeat/ (state and receipts) is moved once, with a note; history and check-liveness follow it; the cycle count goes on; its own files never count as GIT_STALE", async () => {
    const world = plainWorld();
    const legacyDir = join(world.project, '.heartbeat');
    const legacy = join(legacyDir, 'state.json');
    const stateDir = join(world.project, '.git', 'heartbeat-kit');
    // What an older version did by default: state and receipts inside the project.
    const old1 = await cycleJson(world, world.project, '2026-02-19T14:00:00Z', '--state', legacy);
    const old2 = await cycleJson(world, world.project, '2026-02-19T14:10:00Z', '--state', legacy);
    expect(readdirSync(legacyDir).sort()).toEqual(['state.json', 'state.receipts']);
    expect(git(world.project, 'status', '--porcelain')).toBe('?? .heartbeat/\n');
    // Its own state is not the user's uncommitted work, even where git sees it.
    expect((JSON.parse(old1.stdout) as { categories: string[] }).categories).toEqual([]);
    expect((JSON.parse(old2.stdout) as { categories: string[] }).categories).toEqual([]);
    // Before any cycle of this version, the read-only commands look where the state still is.
    const before = await world.cliIn(world.project, 'history', '--json', '--now', '2026-02-19T14:15:00Z');
    expect((JSON.parse(before.stdout) as { receipts: unknown[] }).receipts).toHaveLength(2);
    expect(existsSync(stateDir)).toBe(false);

    const moved = await world.cliInAt('2026-02-19T14:20:00Z', world.project, 'cycle', '--tmux-socket', world.tmuxSocket);
    expect(moved.stderr).toBe(
      `heartbeat-kit cycle: warning: moved the heartbeat state from ${legacyDir} to ${stateDir}, where git does not see it (once).\n`,
    );
    expect(moved.stdout).toBe('HEARTBEAT_OK\n');
    expect(existsSync(legacyDir)).toBe(false);
    expect(git(world.project, 'status', '--porcelain')).toBe('');
    expect(readdirSync(stateDir).sort()).toEqual(['state.json', 'state.receipts']);

    const after = await cycleJson(world, world.project, '2026-02-19T14:30:00Z');
    expect(after.stderr).toBe('');
    expect(JSON.parse(after.stdout)).toMatchObject({ cycle: 4 });
    // The receipts came along: history is whole, and liveness judges it, from a subdirectory too.
    const src = join(world.project, 'src');
    mkdirSync(src);
    const history = await world.cliIn(src, 'history', '--json', '--now', '2026-02-19T14:35:00Z');
    expect((JSON.parse(history.stdout) as { receipts: { cycle?: number }[] }).receipts.map((r) => r.cycle)).toEqual([1, 2, 3, 4]);
    const live = await world.cliIn(src, 'check-liveness', '--now', '2026-02-19T14:35:00Z', '--max-age', '30m');
    expect(live).toMatchObject({ code: 0, stderr: '' });
    expect(live.stdout).toMatch(/^alive: cycle #4 ran at 2026-02-19T14:30:00.000Z/);
  });

  it('while an older heartbeat still holds .heartbeat/cycle.lock, nothing moves and the cycle skips (exit 4); once it is gone the state moves', async () => {
    const world = plainWorld();
    const legacyDir = join(world.project, '.heartbeat');
    const legacy = join(legacyDir, 'state.json');
    await cycleJson(world, world.project, '2026-02-19T14:00:00Z', '--state', legacy);
    // An older loop is mid-cycle: it holds its lock beside its state.
    const lock = createFileLockStore({ path: join(legacyDir, 'cycle.lock') });
    (await lock.acquire({ owner: 'older-loop', nowMs: Date.now(), staleAfterMs: 60_000 }))._unsafeUnwrap();
    const held = await world.cliInAt('2026-02-19T14:10:00Z', world.project, 'cycle', '--tmux-socket', world.tmuxSocket);
    expect(held.code).toBe(4);
    expect(held.stderr).toContain(`warning: an older heartbeat holds ${join(legacyDir, 'cycle.lock')} (pid ${process.pid}`);
    expect(held.stderr).toContain(`heartbeat-kit cycle: skipped: another cycle holds ${join(legacyDir, 'cycle.lock')}`);
    expect(existsSync(legacy)).toBe(true);
    expect(existsSync(join(world.project, '.git', 'heartbeat-kit', 'state.json'))).toBe(false);
    await lock.release('older-loop');
    const moved = await cycleJson(world, world.project, '2026-02-19T14:20:00Z');
    expect(moved.code).toBe(0);
    expect(moved.stderr).toContain('moved the heartbeat state');
    expect(JSON.parse(moved.stdout)).toMatchObject({ cycle: 2 });
    expect(existsSync(legacyDir)).toBe(false);
  });

  it('a --dry-run moves nothing: it reads the older state where it is', async () => {
    const world = plainWorld();
    const legacyDir = join(world.project, '.heartbeat');
    await cycleJson(world, world.project, '2026-02-19T14:00:00Z', '--state', join(legacyDir, 'state.json'));
    const dry = await cycleJson(world, world.project, '2026-02-19T14:10:00Z', '--dry-run');
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ cycle: 2, dryRun: true });
    expect(existsSync(join(legacyDir, 'state.json'))).toBe(true);
    expect(existsSync(join(world.project, '.git', 'heartbeat-kit', 'state.json'))).toBe(false);
  });

  it('init says what it wrote and where the state will live', async () => {
    const world = plainWorld();
    rmSync(join(world.project, '.claude', 'HEARTBEAT.md'));
    const run = await world.cliIn(world.project, 'init');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      `wrote ${join(world.project, '.claude', 'HEARTBEAT.md')}\n` +
        'commit it to share it with every worktree: git add .claude/HEARTBEAT.md && git commit\n' +
        `heartbeat state will be kept in ${join(world.project, '.git', 'heartbeat-kit')} (git never sees it)\n`,
    );
  });
});

describe('it never answers for a place it never saw', () => {
  it('cycle and loop --cwd /nonexistent: exit 2, one line naming the fix, nothing created', async () => {
    const world = newWorld({});
    const missing = join(world.root, 'no', 'such', 'dir');
    for (const command of ['cycle', 'loop']) {
      const run = await world.cliIn(world.root, command, '--cwd', missing, '--tmux-socket', world.tmuxSocket);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(
        `heartbeat-kit ${command}: --cwd ${missing} does not exist. Fix: pass the directory of a git repository (the project to watch).\n`,
      );
    }
    for (const command of ['history', 'check-liveness']) {
      const run = await world.cliIn(world.root, command, '--cwd', missing);
      expect(run).toMatchObject({ code: 2, stdout: '' });
      expect(run.stderr).toBe(
        `heartbeat-kit ${command}: --cwd ${missing} does not exist. Fix: pass the directory of a git repository (the project to watch).\n`,
      );
    }
    expect(existsSync(join(world.root, 'no'))).toBe(false);
  });

  it('a directory that is no git repository: exit 2, one line naming the fix, nothing created', async () => {
    const world = newWorld({});
    const plain = tempDir('hk-nogit-');
    for (const command of ['cycle', 'loop']) {
      const run = await runCli([command, '--tmux-socket', world.tmuxSocket], {
        cwd: plain,
        env: { ...world.env, GIT_CEILING_DIRECTORIES: tmpdir() },
      });
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(new RegExp(`^heartbeat-kit ${command}: \\S+ is not in a git repository\\. Fix: .*git init.*\\n$`));
    }
    expect(readdirSync(plain)).toEqual([]);
  });
});

describe("a state kept beside the user's files (--state)", () => {
  it("--state in the repository root: the user's changes beside it still count (GIT_STALE), the heartbeat's own files never do", async () => {
    const world = plainWorld();
    const statePath = join(world.project, 'hb.json');
    // Only the heartbeat's own files in the root: three cycles write hb.json, hb.receipts/, cycle.lock; no false alarm.
    for (const now of ['2026-02-19T14:50:00Z', '2026-02-19T15:00:00Z', '2026-02-19T15:10:00Z']) {
      const run = await cycleJson(world, world.project, now, '--state', statePath);
      expect(run.code).toBe(0);
      expect((JSON.parse(run.stdout) as { categories: string[] }).categories).toEqual([]);
    }
    expect(git(world.project, 'status', '--porcelain')).toContain('hb.json');
    // A file of the user's beside the state: before, the whole root was ignored and this was never seen.
    writeFileSync(join(world.project, 'notes.md'), 'unfinished\n');
    const run = await cycleJson(world, world.project, '2026-02-19T15:20:00Z', '--state', statePath);
    const out = JSON.parse(run.stdout) as { findings: { category: string; subject: string }[] };
    expect(out.findings.filter((f) => f.category === 'GIT_STALE').map((f) => f.subject)).toEqual([world.project]);
  });
});
