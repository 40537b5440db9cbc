/**
 * Issue 12 item 2 through the CLI: a `bd` wrapper script whose child hangs with stdout open.
 * The per-command timeout must end the call and its whole process group, and a SIGTERM to the
 * CLI must end the group too (a detached group no longer gets the terminal's signal).
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually, groupMembers, isAlive } from '../../core/test/support/processes.js';
import { bundleCli, type BundledCli } from './support/bundle-cli.js';
import { runCli } from './support/run-cli.js';
import { createWorld, type World } from './support/world.js';

let world: World | undefined;
let bundle: BundledCli | undefined;
beforeAll(async () => {
  bundle = await bundleCli();
});
afterAll(() => bundle?.dispose());
afterEach(() => {
  world?.destroy();
  world = undefined;
});

/** Replaces the world's bd with a wrapper whose child sleeps forever holding stdout; records both pids. */
function hungBd(w: World): () => { wrapper: number; child: number } | undefined {
  const pids = join(w.root, 'pids');
  writeFileSync(join(w.fakeBin, 'bd'), `#!/bin/sh\necho $$ > "${pids}.wrapper"\nsleep 100000 &\necho $! > "${pids}.child"\nwait\n`);
  chmodSync(join(w.fakeBin, 'bd'), 0o755);
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
    world = createWorld();
    const pids = hungBd(world);
    const run = await runCli(['cycle', '--cwd', world.project, '--tmux-socket', world.tmuxSocket, '--json'], {
      cwd: world.root,
      env: world.env,
    });
    const out = JSON.parse(run.stdout) as { scanners: { name: string; status: string; note?: string }[] };
    const beads = out.scanners.find((s) => s.name === 'beads');
    expect(beads?.status).toBe('error');
    expect(beads?.note).toMatch(/timed out/);
    const seen = pids();
    expect(seen).toBeDefined();
    expect(await eventually(() => gone(seen!))).toBe(true);
  });

  it('SIGTERM to the CLI ends the running tool’s whole group', async () => {
    world = createWorld();
    const pids = hungBd(world);
    const child = spawn(process.execPath, [bundle!.bin, 'cycle', '--cwd', world.project, '--tmux-socket', world.tmuxSocket], {
      env: world.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    expect(await eventually(() => pids() !== undefined)).toBe(true);
    child.kill('SIGTERM');
    await exited;
    expect(await eventually(() => gone(pids()!))).toBe(true);
  });
});
