/**
 * `loop` says what `cycle` says about its config, and never waits in silence: the config file's own
 * warnings (unknown keys) are printed at start, and a receipt later than now (the clock went back, or a
 * `cycle --now` ran ahead) is named once and never holds the first cycle: the current clock decides.
 */
import { describe, expect, it } from 'vitest';
import { WORLD_HEARTBEAT_MD } from './support/world.js';
import { useCliWorlds, type CliWorld } from './support/cli-world.js';

const createCliWorld = useCliWorlds();

/** `loop` over the world, stopped at its first wait. */
function loopUntilFirstWait(w: CliWorld, ...extra: string[]) {
  return w.loopUntilFirstWait('--interval', '600', ...extra);
}

describe('loop warnings', () => {
  it('prints the config file’s warnings (an unknown key) once, as cycle does', async () => {
    const world = createCliWorld({ heartbeatMd: `${WORLD_HEARTBEAT_MD}\n## Heartbeat\n- Bogus: 3\n` });
    const run = await loopUntilFirstWait(world, '--now', '2026-02-19T10:00:00Z');
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/heartbeat-kit loop: warning: \.claude\/HEARTBEAT\.md:\d+: unknown key "Bogus" under Heartbeat/);
    expect(run.stderr.match(/unknown key "Bogus"/g)).toHaveLength(1);
    expect(run.stdout).toContain('HEARTBEAT_ONLINE');
  });

  it('says when a cycle already closed the current slot, so the first cycle waits for the next one', async () => {
    const world = createCliWorld();
    const ran = await world.cycle();
    expect(ran.code).toBe(0);
    const run = await loopUntilFirstWait(world);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /heartbeat-kit loop: a cycle already ran for this slot at \S+Z \(see `heartbeat-kit history`\); the first cycle of this loop runs at the next slot, within 600 s\.\n/,
    );
    expect(run.stdout).toContain('0 cycles completed');
  });

  it('a receipt later than now is a warning, never a wait: the first cycle runs on the current clock (issue 26)', async () => {
    const world = createCliWorld();
    const ahead = new Date(Date.now() + 6 * 3600_000);
    ahead.setUTCMinutes(0, 0, 0);
    const ran = await world.cycleAt(ahead.toISOString());
    expect(ran.code).toBe(0);
    const run = await loopUntilFirstWait(world);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`heartbeat-kit loop: warning: a receipt is dated ${ahead.toISOString()}, later than now`);
    expect(run.stderr.match(/later than now/g)).toHaveLength(1);
    expect(run.stdout).toContain('1 cycles completed');
  });
});
