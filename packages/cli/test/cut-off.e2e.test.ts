/**
 * Issue 10 item 4 through the CLI, with real children and real signals: a signal that cuts a
 * scan's tools off (Ctrl-C or SIGTERM to heartbeat-kit, or a kill that reaches the tools' own
 * process group, as systemd's control-group KillMode and `timeout` do) names the scanners it cut
 * off and makes the cycle partial — never HEARTBEAT_OK, never "completed".
 */
import { describe, expect, it } from 'vitest';
import { useBuiltCli, useCliWorlds } from './support/cli-world.js';

const createCliWorld = useCliWorlds();
const built = useBuiltCli();

describe('a signal cuts the scan off', () => {
  it('cycle: a SIGTERM to the tool (its process group) makes the cycle partial, names the scanners, prints no HEARTBEAT_OK', async () => {
    const world = createCliWorld();
    world.replaceBd('kill -TERM 0'); // bd leads its own process group: `kill 0` sends SIGTERM to the whole group
    const run = await world.cycle('--now', '2026-02-19T14:10:00Z');
    expect(run.stdout).toBe('');
    expect(run.code).toBe(3); // a tool killed from elsewhere: the cycle did not look everywhere
    expect(run.stderr).toContain('heartbeat-kit: warning: beads, orchestrators, stale-tasks cut off: bd was killed by SIGTERM; fix: ');
    expect(run.stderr).toContain(
      'heartbeat-kit cycle: partial cycle: a signal cut off beads, orchestrators, stale-tasks; what they watch was not looked at.\n',
    );
    const json = JSON.parse((await world.cycle('--now', '2026-02-19T14:20:00Z', '--json')).stdout) as {
      partial?: boolean;
      cutOff?: string[];
    };
    expect(json).toMatchObject({ partial: true, cutOff: ['beads', 'orchestrators', 'stale-tasks'] });
  });

  it("the partial cycle's receipt says partial: history shows it, check-liveness counts it as ran (not missed) and warns", async () => {
    const world = createCliWorld();
    world.replaceBd('kill -TERM 0');
    const cli = (...args: string[]) => world.cli(...args, '--cwd', world.project);
    const cycle = await cli('cycle', '--tmux-socket', world.tmuxSocket, '--now', '2026-02-19T14:10:00Z');
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

  it.each([
    ['INT', 130],
    ['TERM', 143],
  ] as const)('cycle: SIG%s to heartbeat-kit mid-scan exits %i (128 + the signal), partial, no HEARTBEAT_OK', async (signal, expected) => {
    const world = createCliWorld();
    // bd signals the CLI (its parent) as Ctrl-C or a supervisor would, then hangs until cut off.
    world.replaceBd(`kill -${signal} $PPID\nexec sleep 100000`);
    const cycle = built.spawn(['cycle', '--cwd', world.project, '--tmux-socket', world.tmuxSocket], world.env);
    expect(await cycle.exited).toBe(expected);
    expect(cycle.stdout()).toBe('');
    expect(cycle.stderr()).toMatch(
      /^heartbeat-kit cycle: partial cycle: a signal cut off [a-z, -]*beads[a-z, -]*; what they watch was not looked at\.$/m,
    );
  });

  it('loop: SIGTERM to heartbeat-kit mid-scan counts the cycle as partial in HEARTBEAT_SHUTDOWN and names the cut-off scanners', async () => {
    const world = createCliWorld();
    // bd signals the CLI (its parent) and then hangs: the CLI's shutdown has to cut it off.
    world.replaceBd('kill -TERM $PPID\nexec sleep 100000');
    const loop = built.spawn(['loop', '--cwd', world.project, '--tmux-socket', world.tmuxSocket, '--interval', '3600'], world.env);
    const code = await loop.exited;
    expect(code).toBe(0);
    expect(loop.stderr()).toMatch(/^heartbeat-kit: warning: [a-z, -]*beads[a-z, -]* cut off: bd was aborted; fix: /m);
    expect(loop.stdout().trimEnd().split('\n').at(-1)).toMatch(
      /^HEARTBEAT_SHUTDOWN: Final status -- 0 cycles completed, 1 partial \(cut off: [a-z, -]*beads[a-z, -]*\), 0 reports sent\.$/,
    );
  });
});
