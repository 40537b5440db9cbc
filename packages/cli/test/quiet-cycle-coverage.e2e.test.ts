import { describe, expect, it } from 'vitest';
import { useBuiltCli, useCliWorlds } from './support/cli-world.js';

const newWorld = useCliWorlds();
const cli = useBuiltCli();

describe('a quiet cycle says what it covered (issue 26 item 4)', () => {
  it('at night without bd: stdout exactly HEARTBEAT_OK, one stderr line of what was and was not looked at, and --json has it', async () => {
    const world = newWorld();
    // No bd on PATH, the world's HEARTBEAT.md (8–22 UTC) with no Expected names: a first run at night.
    const env = { ...world.env, PATH: '/usr/bin:/bin' };
    const argv = ['cycle', '--cwd', world.project, '--tmux-socket', world.tmuxSocket, '--dry-run'];
    const night = await cli.run([...argv, '--now', '2026-02-19T03:00:00Z'], env);
    expect(night.code).toBe(0);
    expect(night.stdout).toBe('HEARTBEAT_OK\n');
    expect(night.stderr).toContain(
      'heartbeat-kit: looked at: nothing; not looked at: beads, orchestrators, git, stale-tasks, idle-orchestrators, pipelines; not set up: gchat\n',
    );
    const json = await cli.run([...argv, '--now', '2026-02-19T03:00:00Z', '--json'], env);
    expect(JSON.parse(json.stdout)).toMatchObject({
      coverage: {
        lookedAt: [],
        notLookedAt: ['beads', 'orchestrators', 'git', 'stale-tasks', 'idle-orchestrators', 'pipelines'],
        notSetUp: ['gchat'],
      },
    });

    // Inside active hours with bd every scanner that is set up looks: no coverage line at all.
    const day = await cli.run([...argv, '--now', '2026-02-19T14:00:00Z'], world.env);
    expect(day.stdout).toBe('HEARTBEAT_OK\n');
    expect(day.stderr).not.toContain('looked at');
    const dayJson = await cli.run([...argv, '--now', '2026-02-19T14:00:00Z', '--json'], world.env);
    expect(JSON.parse(dayJson.stdout)).toMatchObject({ coverage: { notLookedAt: [], notSetUp: ['gchat'] } });
  });
});
