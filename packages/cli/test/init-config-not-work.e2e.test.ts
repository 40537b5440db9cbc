import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBuiltCli, useCliWorlds } from './support/cli-world.js';

const newWorld = useCliWorlds();
const cli = useBuiltCli();

describe('init then cycle (issue 26 item 3)', () => {
  it('the config init writes untracked is never an uncommitted change; a real untracked file still is', async () => {
    const world = newWorld();
    const env = { ...world.env, TZ: 'UTC' };
    const git = (...args: string[]): string =>
      execFileSync('git', ['-C', world.project, ...args], {
        encoding: 'utf8',
        env: { ...process.env, GIT_AUTHOR_DATE: '2026-02-19T06:00:00Z', GIT_COMMITTER_DATE: '2026-02-19T06:00:00Z' },
      });
    // A user's repository: .claude/ is not ignored, and the world's config is not there yet.
    writeFileSync(join(world.project, '.gitignore'), '.pipelines/\n');
    rmSync(join(world.project, '.claude'), { recursive: true, force: true });
    git('add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'no heartbeat ignores');

    const init = await cli.run(['init', '--cwd', world.project], env);
    expect(init.code).toBe(0);
    expect(init.stdout).toContain('git add .claude/HEARTBEAT.md');
    expect(git('status', '--porcelain')).toBe('?? .claude/\n');

    const cycle = (): Promise<{ stdout: string }> =>
      cli.run(['cycle', '--cwd', world.project, '--tmux-socket', world.tmuxSocket, '--now', '2026-02-19T14:00:00Z'], env);
    const quiet = await cycle();
    expect(quiet.stdout).not.toContain('STALE');

    writeFileSync(join(world.project, 'notes.txt'), 'real work\n');
    const stale = await cycle();
    expect(stale.stdout).toContain('(1 uncommitted change,');
  });
});
