import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../src/main.js';
import type { CliIo, LoopTime } from '../src/io.js';
import { createWorld, type World } from './support/world.js';
import { runCli } from './support/run-cli.js';

let world: World | undefined;
afterEach(() => {
  world?.destroy();
  world = undefined;
});

const MIN = 60_000;

/**
 * Scripted time for an in-process `loop`: each sleep runs one step (it may move the wall clock
 * further than the monotonic clock, as a suspended machine or a clock jump does); when the script
 * is used up the loop is stopped. The wall clock starts anywhere: `--now` shifts it.
 */
function scriptedTime(steps: readonly ((ms: number) => { wall: number; mono: number })[]) {
  let wall = 0;
  let mono = 0;
  const sleeps: number[] = [];
  const controller = new AbortController();
  const time: LoopTime = {
    clock: { now: () => new Date(wall) },
    monotonicMs: () => mono,
    sleep: {
      sleep: (ms) => {
        sleeps.push(ms);
        const step = steps[sleeps.length - 1];
        if (step === undefined) controller.abort();
        else {
          const moved = step(ms);
          wall += moved.wall;
          mono += moved.mono;
        }
        return Promise.resolve();
      },
    },
  };
  return { time, sleeps, signal: controller.signal };
}

async function loop(
  w: World,
  statePath: string,
  now: string,
  script: ReturnType<typeof scriptedTime>,
  ...extra: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    cwd: w.root,
    env: w.env,
    shutdownSignal: script.signal,
    time: script.time,
  };
  const code = await main(
    ['loop', '--cwd', w.project, '--tmux-socket', w.tmuxSocket, '--state', statePath, '--now', now, '--json', ...extra],
    io,
  );
  return { code, stdout, stderr };
}

interface ReceiptJson {
  kind: string;
  slot: string;
  reason?: string;
  through?: string;
  count?: number;
}

async function history(w: World, statePath: string): Promise<ReceiptJson[]> {
  const run = await runCli(['history', '--cwd', w.project, '--state', statePath, '--now', '2026-02-19T23:00:00Z', '--json'], {
    cwd: w.root,
    env: w.env,
  });
  return (JSON.parse(run.stdout) as { receipts: ReceiptJson[] }).receipts;
}

describe('loop catch-up (--now, scripted clocks)', () => {
  it('a restart mid-interval neither bursts nor skips; a restart after downtime runs the newest slot once and records the rest', async () => {
    world = createWorld({});
    const w = world;
    const statePath = join(w.root, 'hb', 'state.json');

    const first = scriptedTime([]);
    expect((await loop(w, statePath, '2026-02-19T10:03:00Z', first)).code).toBe(0);
    // A fresh state: the first cycle runs at once, for the 10:00 slot.
    expect((await history(w, statePath)).map((r) => [r.kind, r.slot])).toEqual([['ran', '2026-02-19T10:00:00.000Z']]);

    // Restarted at 10:07: 10:00 is recorded, so nothing runs; it waits 3 minutes for 10:10.
    const restart = scriptedTime([]);
    const second = await loop(w, statePath, '2026-02-19T10:07:00Z', restart);
    expect(second.code).toBe(0);
    expect(second.stdout).not.toContain('"type":"cycle"');
    expect(restart.sleeps).toEqual([3 * MIN]);
    expect(await history(w, statePath)).toHaveLength(1);

    // Down from 10:07 to 10:37: 10:10 and 10:20 are recorded as down, 10:30 runs once, late.
    const late = scriptedTime([]);
    const third = await loop(w, statePath, '2026-02-19T10:37:00Z', late);
    expect(third.stderr).toBe('');
    expect(third.stdout.match(/"type":"cycle"/g)).toHaveLength(1);
    const receipts = await history(w, statePath);
    expect(receipts.slice(1).map((r) => [r.kind, r.slot, r.reason, r.through, r.count])).toEqual([
      ['skipped', '2026-02-19T10:10:00.000Z', 'down', '2026-02-19T10:20:00.000Z', 2],
      ['ran', '2026-02-19T10:30:00.000Z', undefined, undefined, undefined],
    ]);
    expect(late.sleeps).toEqual([3 * MIN]);
  });

  it('a simulated sleep (the wall clock jumps 2 h, the monotonic clock does not): one cycle on waking, the slots slept through recorded as asleep', async () => {
    world = createWorld({});
    const w = world;
    const statePath = join(w.root, 'hb', 'state.json');
    const script = scriptedTime([(ms) => ({ wall: ms + 2 * 60 * MIN, mono: ms })]);
    const run = await loop(w, statePath, '2026-02-19T10:03:00Z', script);
    expect(run.code).toBe(0);
    expect(run.stdout.match(/"type":"cycle"/g)).toHaveLength(2);
    const receipts = await history(w, statePath);
    expect(receipts.map((r) => [r.kind, r.slot, r.reason, r.count])).toEqual([
      ['ran', '2026-02-19T10:00:00.000Z', undefined, undefined],
      ['skipped', '2026-02-19T10:10:00.000Z', 'asleep', 12],
      ['ran', '2026-02-19T12:10:00.000Z', undefined, undefined],
    ]);
    // The same gap with the monotonic clock running too (a cycle that overran) is not a sleep;
    // with catch-up all and a cap of 2, the two newest missed slots run, one after the other.
    const busy = scriptedTime([(ms) => ({ wall: ms + 35 * MIN, mono: ms + 35 * MIN })]);
    const statePath2 = join(w.root, 'hb2', 'state.json');
    expect((await loop(w, statePath2, '2026-02-19T10:03:00Z', busy, '--catch-up', 'all', '--catch-up-cap', '2')).code).toBe(0);
    expect((await history(w, statePath2)).map((r) => [r.kind, r.slot, r.reason, r.count])).toEqual([
      ['ran', '2026-02-19T10:00:00.000Z', undefined, undefined],
      ['skipped', '2026-02-19T10:10:00.000Z', 'catch-up-cap', 2],
      ['ran', '2026-02-19T10:30:00.000Z', undefined, undefined],
      ['ran', '2026-02-19T10:40:00.000Z', undefined, undefined],
    ]);
  });

  it('a cron-driven cycle sees its own missed slots from the receipts', async () => {
    world = createWorld({});
    const w = world;
    const statePath = join(w.root, 'hb', 'state.json');
    const cycle = (now: string) =>
      runCli(['cycle', '--cwd', w.project, '--tmux-socket', w.tmuxSocket, '--state', statePath, '--now', now, '--cron', '*/10 * * * *'], {
        cwd: w.root,
        env: w.env,
      });
    expect((await cycle('2026-02-19T10:00:04Z')).code).toBe(0);
    // cron did not start it at 10:10, 10:20, 10:30 (machine off): the 10:40 cycle records them.
    expect((await cycle('2026-02-19T10:40:03Z')).code).toBe(0);
    expect((await history(w, statePath)).map((r) => [r.kind, r.slot, r.reason, r.count])).toEqual([
      ['ran', '2026-02-19T10:00:00.000Z', undefined, undefined],
      ['skipped', '2026-02-19T10:10:00.000Z', 'down', 3],
      ['ran', '2026-02-19T10:40:00.000Z', undefined, undefined],
    ]);
    const bad = await runCli(['cycle', '--cwd', w.project, '--cron', '61 * * * *'], { cwd: w.root, env: w.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^heartbeat-kit cycle: --cron "61 \* \* \* \*" is not a cron expression: .*Fix: five fields/);
  });

  it('bad catch-up flags and config values name the fix', async () => {
    world = createWorld({ heartbeatMd: '## Heartbeat\n- Catch-up: sometimes\n' });
    const w = world;
    expect((await runCli(['loop', '--cwd', w.project, '--catch-up', 'burst'], { cwd: w.root, env: w.env })).stderr).toBe(
      'heartbeat-kit loop: --catch-up "burst" is not a catch-up policy. Fix: --catch-up skip, latest-once or all.\n',
    );
    expect((await runCli(['loop', '--cwd', w.project, '--catch-up-cap', 'many'], { cwd: w.root, env: w.env })).stderr).toBe(
      'heartbeat-kit loop: --catch-up-cap "many" is not a number of cycles 0–100. Fix: e.g. --catch-up-cap 3.\n',
    );
    const config = await runCli(['loop', '--cwd', w.project], { cwd: w.root, env: w.env });
    expect(config.code).toBe(2);
    expect(config.stderr).toMatch(
      /HEARTBEAT\.md:2: Heartbeat → Catch-up: "sometimes" is not a catch-up policy\. Fix: write skip, latest-once/,
    );
  });
});
