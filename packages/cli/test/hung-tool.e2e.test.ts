/**
 * Issue 12 item 2 through the CLI: a `bd` wrapper script whose child hangs with stdout open.
 * The per-command timeout must end the call and its whole process group, and a SIGTERM to the
 * CLI that cuts the scan off (the second: the first lets it finish) must end the group too (a
 * detached group no longer gets the terminal's signal).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventually, groupMembers, isAlive } from '../../core/test/support/processes.js';
import { useBuiltCli, useCliWorlds, type CliWorld } from './support/cli-world.js';

const createCliWorld = useCliWorlds();
const built = useBuiltCli();

/** Replaces the world's bd with a wrapper whose child sleeps forever holding stdout; records both pids. */
function hungBd(w: CliWorld): () => { wrapper: number; child: number } | undefined {
  const pids = join(w.root, 'pids');
  w.replaceBd(`echo $$ > "${pids}.wrapper"\nsleep 100000 &\necho $! > "${pids}.child"\nwait`);
  return () =>
    existsSync(`${pids}.child`)
      ? { wrapper: Number(readFileSync(`${pids}.wrapper`, 'utf8')), child: Number(readFileSync(`${pids}.child`, 'utf8')) }
      : undefined;
}

function gone(pids: { wrapper: number; child: number }): boolean {
  return !isAlive(pids.wrapper) && !isAlive(pids.child) && groupMembers(pids.wrapper).length === 0;
}

describe('a hung grandchild of a tool', () => {
  it('cycle: the bd call fails as a timeout and no process of its group is left', async () => {
    const world = createCliWorld();
    const pids = hungBd(world);
    const run = await world.cycle('--json');
    const out = JSON.parse(run.stdout) as { scanners: { name: string; status: string; note?: string }[] };
    const beads = out.scanners.find((s) => s.name === 'beads');
    expect(beads?.status).toBe('error');
    expect(beads?.note).toMatch(/timed out/);
    const seen = pids();
    expect(seen).toBeDefined();
    expect(await eventually(() => gone(seen!))).toBe(true);
  });

  it('a second SIGTERM to the CLI (the cut-off) ends the running tool’s whole group', async () => {
    const world = createCliWorld();
    const pids = hungBd(world);
    const cycle = built.spawn(['cycle', '--cwd', world.project, '--tmux-socket', world.tmuxSocket], world.env);
    expect(await eventually(() => pids() !== undefined)).toBe(true);
    cycle.child.kill('SIGTERM');
    // The first only asks to finish (the 10 s timeout would end bd then); the second cuts off now.
    expect(await eventually(() => cycle.stderr().includes('finishing the scan in flight'))).toBe(true);
    cycle.child.kill('SIGTERM');
    expect(await cycle.exited).toBe(143);
    expect(await eventually(() => gone(pids()!))).toBe(true);
  });

  // Issue 25 item 6: a second signal ends the CLI at once (a read stuck in the kernel keeps Node's
  // own exit waiting forever); the groups it started must not outlive it, even one deaf to SIGTERM.
  it('a second SIGTERM ends the CLI by the signal, and the running tool’s group (deaf to SIGTERM) goes with it', async () => {
    const world = createCliWorld();
    const pidsFile = join(world.root, 'pids');
    world.replaceBd(`trap '' TERM\necho $$ > "${pidsFile}.wrapper"\nsleep 100000 &\necho $! > "${pidsFile}.child"\nwait`);
    const pids = () =>
      existsSync(`${pidsFile}.child`)
        ? { wrapper: Number(readFileSync(`${pidsFile}.wrapper`, 'utf8')), child: Number(readFileSync(`${pidsFile}.child`, 'utf8')) }
        : undefined;
    const cycle = built.spawn(['cycle', '--cwd', world.project, '--tmux-socket', world.tmuxSocket], world.env);
    let signal: NodeJS.Signals | null | undefined;
    cycle.child.once('exit', (_code, s) => (signal = s));
    expect(await eventually(() => pids() !== undefined)).toBe(true);
    expect(
      await eventually(() => {
        if (signal === undefined) cycle.child.kill('SIGTERM');
        return signal !== undefined;
      }),
    ).toBe(true);
    expect(signal).toBe('SIGTERM');
    expect(await eventually(() => gone(pids()!))).toBe(true);
  });
});
