import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliWorlds, type CliWorld } from './support/cli-world.js';
import { scriptedTime, type ScriptedTime } from './support/run-cli.js';

const createCliWorld = useCliWorlds();

const MIN = 60_000;

function loop(w: CliWorld, statePath: string, now: string, script: ScriptedTime, ...extra: string[]) {
  return w.scriptedLoop(script.from(now), '--state', statePath, '--json', ...extra);
}

interface ReceiptJson {
  kind: string;
  slot: string;
  reason?: string;
  through?: string;
  count?: number;
}

async function history(w: CliWorld, statePath: string): Promise<ReceiptJson[]> {
  const run = await w.cli('history', '--cwd', w.project, '--state', statePath, '--now', '2026-02-19T23:00:00Z', '--json');
  return (JSON.parse(run.stdout) as { receipts: ReceiptJson[] }).receipts;
}

describe('loop catch-up (--now, scripted clocks)', () => {
  it('a restart mid-interval neither bursts nor skips; a restart after downtime runs the newest slot once and records the rest', async () => {
    const w = createCliWorld({});
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
    const w = createCliWorld({});
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
    const w = createCliWorld({});
    const statePath = join(w.root, 'hb', 'state.json');
    const cycle = (now: string) => w.cycleAt(now, '--state', statePath, '--cron', '*/10 * * * *');
    expect((await cycle('2026-02-19T10:00:04Z')).code).toBe(0);
    // cron did not start it at 10:10, 10:20, 10:30 (machine off): the 10:40 cycle records them.
    expect((await cycle('2026-02-19T10:40:03Z')).code).toBe(0);
    expect((await history(w, statePath)).map((r) => [r.kind, r.slot, r.reason, r.count])).toEqual([
      ['ran', '2026-02-19T10:00:00.000Z', undefined, undefined],
      ['skipped', '2026-02-19T10:10:00.000Z', 'down', 3],
      ['ran', '2026-02-19T10:40:00.000Z', undefined, undefined],
    ]);
    const bad = await w.cli('cycle', '--cwd', w.project, '--cron', '61 * * * *');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^heartbeat-kit cycle: --cron "61 \* \* \* \*" is not a cron expression: .*Fix: five fields/);
  });

  it('bad catch-up flags and config values name the fix', async () => {
    const w = createCliWorld({ heartbeatMd: '## Heartbeat\n- Catch-up: sometimes\n' });
    expect((await w.cli('loop', '--cwd', w.project, '--catch-up', 'burst')).stderr).toBe(
      'heartbeat-kit loop: --catch-up "burst" is not a catch-up policy. Fix: --catch-up skip, latest-once or all.\n',
    );
    expect((await w.cli('loop', '--cwd', w.project, '--catch-up-cap', 'many')).stderr).toBe(
      'heartbeat-kit loop: --catch-up-cap "many" is not a number of cycles 0–100. Fix: e.g. --catch-up-cap 3.\n',
    );
    const config = await w.cli('loop', '--cwd', w.project);
    expect(config.code).toBe(2);
    expect(config.stderr).toMatch(
      /HEARTBEAT\.md:2: Heartbeat → Catch-up: "sometimes" is not a catch-up policy\. Fix: write skip, latest-once/,
    );
  });
});
