/**
 * Issue 26: a rehearsal never stops the heartbeat. `cycle --dry-run --now <later today>` (how the
 * docs teach trying things) writes nothing a real run reads, and a receipt from the future (an old
 * rehearsal, a clock that went back) is a warning, never a reason for `loop` to skip or for
 * `check-liveness` to print a negative age. The CLI runs as users run it: the built bin.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBuiltCli, useCliWorlds, type CliWorld } from './support/cli-world.js';

const createCliWorld = useCliWorlds();
const built = useBuiltCli();

/** Polls until `predicate` holds, however long a loaded machine takes (vitest's timeout is the backstop). */
async function until(predicate: () => boolean): Promise<void> {
  while (!predicate()) await new Promise((r) => setTimeout(r, 50));
}

function stateDir(world: CliWorld): string {
  return join(world.project, '.git', 'heartbeat-kit');
}

/** The cycle counter the state file holds (0 before the first save). */
function cyclesSaved(world: CliWorld): number {
  try {
    return (JSON.parse(readFileSync(join(stateDir(world), 'state.json'), 'utf8')) as { cycle?: number }).cycle ?? 0;
  } catch {
    return 0;
  }
}

/** Three hours from now, on the minute: "later today" for a rehearsal. */
function later(): string {
  const ahead = new Date(Date.now() + 3 * 3600_000);
  ahead.setUTCSeconds(0, 0);
  return ahead.toISOString();
}

describe('a rehearsal never stops the heartbeat (issue 26)', () => {
  it('cycle --dry-run --now <later> writes no receipt or state; then loop runs its first cycle at once and a real cycle runs and is recorded', async () => {
    const world = createCliWorld();
    const scope = ['--cwd', world.project, '--tmux-socket', world.tmuxSocket];
    const rehearsal = await built.run(['cycle', ...scope, '--dry-run', '--now', later()], world.env);
    expect(rehearsal.code).toBe(0);
    const receiptsDir = join(stateDir(world), 'state.receipts');
    expect(existsSync(receiptsDir) ? readdirSync(receiptsDir) : []).toEqual([]);
    expect(existsSync(join(stateDir(world), 'state.json'))).toBe(false);

    const loop = built.spawn(['loop', ...scope, '--interval', '600'], world.env);
    await until(() => cyclesSaved(world) >= 1);
    loop.child.kill('SIGTERM');
    expect(await loop.exited).toBe(0);
    expect(loop.stdout()).toContain('HEARTBEAT_SHUTDOWN: Final status -- 1 cycles completed');

    const real = await built.run(['cycle', ...scope], world.env);
    expect(real.code).toBe(0);
    const history = await built.run(['history', '--cwd', world.project, '--json'], world.env);
    const receipts = (JSON.parse(history.stdout) as { receipts: { kind: string; source: string }[] }).receipts;
    expect(receipts.map((r) => `${r.source} ${r.kind}`)).toEqual(['loop ran', 'cycle ran']);
  });

  it('a receipt written ahead of the clock: loop warns once and runs; check-liveness says "dated in the future", never a negative age', async () => {
    const world = createCliWorld();
    const scope = ['--cwd', world.project, '--tmux-socket', world.tmuxSocket];
    const ahead = later();
    // What an older version's rehearsal, or a clock that later went back, left behind: a real run while
    // the OS clock said `ahead`.
    expect((await built.runAt(ahead, ['cycle', ...scope], world.env)).code).toBe(0);

    const liveness = await built.run(['check-liveness', '--cwd', world.project], world.env);
    expect(liveness.code).toBe(1);
    expect(liveness.stdout).toContain('not alive (future-dated): the last cycle (#1) is dated in the future');
    expect(liveness.stdout).not.toMatch(/-\d+ min/);
    const json = await built.run(['check-liveness', '--cwd', world.project, '--json'], world.env);
    expect(JSON.parse(json.stdout)).toMatchObject({ live: false, reason: 'future-dated' });

    const loop = built.spawn(['loop', ...scope, '--interval', '600', '--json'], world.env);
    await until(() => cyclesSaved(world) >= 2);
    loop.child.kill('SIGTERM');
    expect(await loop.exited).toBe(0);
    expect(loop.stderr().match(/a receipt is dated \S+, later than now/g)).toHaveLength(1);
    expect(loop.stdout()).toContain('"code":"RECEIPT_IN_FUTURE"');

    // Now a run before now exists: alive, and the future receipt is a warning on stderr.
    const alive = await built.run(['check-liveness', '--cwd', world.project], world.env);
    expect(alive.code).toBe(0);
    expect(alive.stdout).toMatch(/^alive: cycle #2 ran at \S+ \(\d+ min ago/);
    expect(alive.stderr).toContain('dated in the future');
  });

  it('"`--now` and `--dry-run` runs never write receipts, state, prefetch plans or locks": cycle --now alone is a rehearsal too', async () => {
    const world = createCliWorld({ ready: [{ id: 'bd-p1', title: 'Ship it', priority: 1 }] });
    const scope = ['--cwd', world.project, '--tmux-socket', world.tmuxSocket];
    const rehearsal = await built.run(['cycle', ...scope, '--now', later()], world.env);
    expect(rehearsal.code).toBe(0);
    // It shows what would be sent, and says that nothing was delivered or written.
    expect(rehearsal.stdout).toContain('WORK_FOUND');
    expect(rehearsal.stderr).toContain('(--now implies --dry-run): nothing was delivered and nothing was written');
    // Nothing at all beside the state: no state, receipt, lock or prefetch plan.
    expect(existsSync(stateDir(world)) ? readdirSync(stateDir(world), { recursive: true }) : []).toEqual([]);
    const json = JSON.parse((await built.run(['cycle', ...scope, '--now', later(), '--json'], world.env)).stdout) as Record<
      string,
      unknown
    >;
    expect(json).toMatchObject({ dryRun: true, rehearsal: true, delivery: 'dry-run' });
    expect(existsSync(stateDir(world)) ? readdirSync(stateDir(world), { recursive: true }) : []).toEqual([]);
    // The first real cycle then reports the same work: the rehearsal marked nothing as reported.
    const real = await built.run(['cycle', ...scope], world.env);
    expect(real.stdout).toContain('WORK_FOUND');
  });

  it('loop --now is a rehearsal: its cycles dedup among themselves in memory and leave no file behind', async () => {
    const world = createCliWorld({ ready: [{ id: 'bd-p1', title: 'Ship it', priority: 1 }] });
    const scope = ['--cwd', world.project, '--tmux-socket', world.tmuxSocket];
    const loop = built.spawn(['loop', ...scope, '--interval', '1', '--now', later()], world.env);
    await until(() => loop.stdout().includes('WORK_FOUND'));
    loop.child.kill('SIGTERM');
    expect(await loop.exited).toBe(0);
    expect(loop.stderr()).toContain('rehearsal from');
    expect(loop.stdout().match(/WORK_FOUND/g)).toHaveLength(1);
    expect(existsSync(stateDir(world)) ? readdirSync(stateDir(world), { recursive: true }) : []).toEqual([]);
  });
});
