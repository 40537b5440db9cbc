/**
 * Issue 10 item 4 through the CLI, with real children and real signals: a signal that cuts a
 * scan's tools off (a kill that reaches the tools' own process group, as systemd's control-group
 * KillMode and `timeout` do) names the scanners it cut off and makes the cycle partial — never
 * HEARTBEAT_OK, never "completed". Signals to heartbeat-kit itself (a first one lets the scan
 * finish, a second one cuts it off) are in drain.e2e.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { useCliWorlds } from './support/cli-world.js';

const createCliWorld = useCliWorlds();

describe('a signal cuts the scan off', () => {
  it('cycle: a SIGTERM to the tool (its process group) makes the cycle partial, names the scanners, prints no HEARTBEAT_OK', async () => {
    const world = createCliWorld();
    world.replaceBd('kill -TERM 0'); // bd leads its own process group: `kill 0` sends SIGTERM to the whole group
    const run = await world.cycleAt('2026-02-19T14:10:00Z');
    expect(run.stdout).toBe('');
    expect(run.code).toBe(3); // a tool killed from elsewhere: the cycle did not look everywhere
    expect(run.stderr).toContain('heartbeat-kit: warning: beads, orchestrators, stale-tasks cut off: bd was killed by SIGTERM; fix: ');
    expect(run.stderr).toContain(
      'heartbeat-kit cycle: partial cycle: a signal cut off beads, orchestrators, stale-tasks; what they watch was not looked at.\n',
    );
    const json = JSON.parse((await world.cycleAt('2026-02-19T14:20:00Z', '--json')).stdout) as {
      partial?: boolean;
      cutOff?: string[];
    };
    expect(json).toMatchObject({ partial: true, cutOff: ['beads', 'orchestrators', 'stale-tasks'] });
  });

  it("the partial cycle's receipt says partial: history shows it, check-liveness counts it as ran (not missed) and warns", async () => {
    const world = createCliWorld();
    world.replaceBd('kill -TERM 0');
    const cli = (...args: string[]) => world.cli(...args, '--cwd', world.project);
    const cycle = await world.cliAt('2026-02-19T14:10:00Z', 'cycle', '--tmux-socket', world.tmuxSocket, '--cwd', world.project);
    expect(cycle.stdout).toBe('');
    const history = await cli('history', '--now', '2026-02-19T14:15:00Z');
    expect(history.code).toBe(0);
    expect(history.stdout).toBe(
      '2026-02-19T14:10:00.000Z  cycle     ran      cycle #1 partial (a signal cut off beads, orchestrators, stale-tasks), delivery none\n',
    );
    const json = JSON.parse((await cli('history', '--now', '2026-02-19T14:15:00Z', '--json')).stdout) as {
      receipts: Record<string, unknown>[];
    };
    expect(json.receipts).toEqual([
      expect.objectContaining({ kind: 'ran', cycle: 1, status: 'ok', partial: true, cutOff: ['beads', 'orchestrators', 'stale-tasks'] }),
    ]);
    const live = await cli('check-liveness', '--now', '2026-02-19T14:15:00Z');
    expect(live.code).toBe(0);
    expect(live.stdout).toMatch(/^alive: cycle #1 ran at 2026-02-19T14:10:00\.000Z/);
    expect(live.stderr).toBe(
      'heartbeat-kit check-liveness: warning: the last cycle was partial: a signal cut off beads, orchestrators, stale-tasks, so what they watch was not looked at\n',
    );
  });
});
