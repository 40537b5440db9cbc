import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.js';
import { useBuiltCli, useCliWorlds } from './support/cli-world.js';

const createCliWorld = useCliWorlds();

/** Polls until `predicate` holds, however long a loaded machine takes (the test timeout is the backstop; `what` names the wait). */
async function until(predicate: () => boolean, what: string): Promise<void> {
  void what;
  while (!predicate()) await new Promise((r) => setTimeout(r, 50));
}

/** The cycle counter the loop's state file holds (0 before the first save). */
function cyclesSaved(project: string): number {
  try {
    return (JSON.parse(readFileSync(join(project, '.git', 'heartbeat-kit', 'state.json'), 'utf8')) as { cycle?: number }).cycle ?? 0;
  } catch {
    return 0;
  }
}

describe('heartbeat-kit loop', () => {
  it('in-process: ONLINE, a first cycle at once, SHUTDOWN with counts after the signal', async () => {
    const world = createCliWorld({ ready: [{ id: 'bd-p0', title: 'Prod down', priority: 0 }] });
    const controller = new AbortController();
    let stdout = '';
    // Inside the world's active hours (8–22 UTC) whatever the time of day the test runs: outside them stderr names the skipped scanners.
    const running = main(['loop', '--cwd', world.project, '--tmux-socket', world.tmuxSocket, '--interval', '3600'], {
      // A real loop at 14:00 (`--now` would rehearse and keep its receipts in memory).
      clock: { now: () => new Date('2026-02-19T14:00:00Z') },
      stdout: (t) => void (stdout += t),
      stderr: (t) => void (stdout += `[stderr] ${t}`),
      cwd: world.root,
      env: world.env,
      shutdownSignal: controller.signal,
    });
    await until(() => stdout.includes('WORK_FOUND'), 'the first report');
    controller.abort();
    expect(await running).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('HEARTBEAT_ONLINE: Work-finder loop starting. Interval: 3600s. Active hours: 8-22. HEARTBEAT.md: found.');
    expect(stdout).toContain('WORK_FOUND: P0_WORK_READY');
    expect(stdout).not.toContain('[stderr]');
    expect(lines.at(-1)).toBe('HEARTBEAT_SHUTDOWN: Final status -- 1 cycles completed, 1 reports sent.');
    // The cycle left its receipt beside the state: ran, reported, delivered.
    let history = '';
    const io = {
      stdout: (t: string) => void (history += t),
      stderr: (t: string) => void (history += t),
      cwd: world.root,
      env: world.env,
      shutdownSignal: new AbortController().signal,
    };
    expect(await main(['history', '--cwd', world.project, '--json', '--now', '2026-02-19T15:00:00Z'], io)).toBe(0);
    const receipts = (JSON.parse(history) as { receipts: { kind: string; source: string; status: string; delivery: string }[] }).receipts;
    expect(receipts).toEqual([expect.objectContaining({ kind: 'ran', source: 'loop', status: 'report', delivery: 'delivered', cycle: 1 })]);
  });
});

describe('heartbeat-kit loop as a real process', () => {
  const built = useBuiltCli();

  it('SIGTERM finishes the current cycle, prints HEARTBEAT_SHUTDOWN and exits 0', async () => {
    const world = createCliWorld({ ready: [{ id: 'bd-p1', title: 'Ship it', priority: 1 }] });
    const loop = built.spawnAt(
      '2026-02-19T14:00:00Z',
      ['loop', '--cwd', world.project, '--tmux-socket', world.tmuxSocket, '--interval', '1'],
      world.env,
    );
    await until(() => loop.stdout().includes('WORK_FOUND'), 'the first report');
    // Let a second one-second cycle complete (quiet: dedup, so it prints nothing), however long it takes.
    await until(() => cyclesSaved(world.project) >= 2, 'a second cycle');
    loop.child.kill('SIGTERM');
    const code = await loop.exited;
    const [stdout, stderr] = [loop.stdout(), loop.stderr()];
    // The signal may land mid-scan: then, and only then, stderr says that scan finishes first (drain.e2e.test.ts).
    expect(stderr.split('\n').filter((l) => l !== '' && !/^heartbeat-kit loop: SIGTERM: finishing the scan in flight /.test(l))).toEqual(
      [],
    );
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^HEARTBEAT_ONLINE: Work-finder loop starting\. Interval: 1s\./);
    expect(stdout.match(/WORK_FOUND/g)).toHaveLength(1);
    const last = lines.at(-1) ?? '';
    // Mid-scan or between cycles, every cycle completes: a single signal cuts nothing off.
    const m = /^HEARTBEAT_SHUTDOWN: Final status -- (\d+) cycles completed, 1 reports sent\.$/.exec(last);
    expect(m).not.toBeNull();
    expect(Number(m![1])).toBeGreaterThanOrEqual(1);
  });
});
