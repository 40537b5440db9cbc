import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileLockStore } from '@heartbeat-kit/core/node';
import { useCliWorlds } from './support/cli-world.js';

const createCliWorld = useCliWorlds();

describe('heartbeat-kit check-liveness', () => {
  it('exits 0 while the last ran receipt is recent, 1 with the reason otherwise', async () => {
    const world = createCliWorld({});
    const w = world;
    const statePath = join(w.root, 'hb', 'state.json');
    const cycle = (now: string) => w.cycleAt(now, '--state', statePath);
    const check = (now: string, ...extra: string[]) =>
      w.cli('check-liveness', '--cwd', w.project, '--state', statePath, '--now', now, ...extra);

    const never = await check('2026-02-19T14:00:00Z');
    expect(never).toMatchObject({ code: 1, stdout: 'not alive (never-ran): no receipts: no cycle has run for this state yet.\n' });

    expect((await cycle('2026-02-19T14:00:00Z')).code).toBe(0);
    // Default max age: 3 × the 600 s interval.
    expect(await check('2026-02-19T14:25:00Z')).toMatchObject({
      code: 0,
      stdout: 'alive: cycle #1 ran at 2026-02-19T14:00:00.000Z (25 min ago, max 30 min)\n',
      stderr: '',
    });
    const stopped = await check('2026-02-19T14:31:00Z');
    expect(stopped.code).toBe(1);
    expect(stopped.stdout).toMatch(/^not alive \(stopped\): nothing recorded for 31 min/);
    expect((await check('2026-02-19T14:31:00Z', '--max-age', '1h')).code).toBe(0);

    // Slots keep coming but another process holds the lock: every one is skipped.
    const lock = createFileLockStore({ path: join(w.root, 'hb', 'cycle.lock') });
    (await lock.acquire({ owner: 'hung-cycle', nowMs: Date.now(), staleAfterMs: 3_600_000 }))._unsafeUnwrap();
    expect((await cycle('2026-02-19T14:40:00Z')).code).toBe(4);
    expect((await cycle('2026-02-19T14:50:00Z')).code).toBe(4);
    const skipped = await check('2026-02-19T14:55:00Z', '--json');
    expect(skipped.code).toBe(1);
    expect(JSON.parse(skipped.stdout)).toMatchObject({ live: false, reason: 'all-skipped', lastRan: { cycle: 1 } });
    expect((JSON.parse(skipped.stdout) as { message: string }).message).toMatch(/2 × overlapping/);
    // Judged long after the lock was taken, the same lock is stuck.
    const stuck = await check(new Date(Date.now() + 2 * 3_600_000).toISOString());
    expect(stuck.code).toBe(1);
    expect(stuck.stdout).toMatch(/^not alive \(lock-stuck\): the cycle lock has been held by hung-cycle for (1\d\d min|2 h 0 min)/);
    await lock.release('hung-cycle');
  });

  it('--active-hours-only counts only active time: a heartbeat that sleeps at night is not stopped in the morning', async () => {
    const world = createCliWorld({}); // active hours 08:00–22:00 UTC
    const w = world;
    const statePath = join(w.root, 'hb', 'state.json');
    const ran = await w.cycleAt('2026-02-19T21:50:00Z', '--state', statePath);
    expect(ran.code).toBe(0);
    const check = (...extra: string[]) =>
      w.cli('check-liveness', '--cwd', w.project, '--state', statePath, '--now', '2026-02-20T08:05:00Z', ...extra);
    // 10 active minutes before 22:00 and 5 after 08:00; the 10 hours between are not expected time.
    expect(await check('--active-hours-only')).toMatchObject({
      code: 0,
      stdout: 'alive: cycle #1 ran at 2026-02-19T21:50:00.000Z (15 min of active hours ago, max 30 min)\n',
    });
    const wallClock = await check();
    expect(wallClock.code).toBe(1);
    expect(wallClock.stdout).toMatch(/^not alive \(stopped\)/);
    expect(
      (await w.cli('check-liveness', '--cwd', w.project, '--state', statePath, '--now', '2026-02-20T08:45:00Z', '--active-hours-only'))
        .code,
    ).toBe(1);
  });

  it('a bad --max-age is a usage error naming the fix', async () => {
    const world = createCliWorld({});
    const bad = await world.cli('check-liveness', '--max-age', 'soon');
    expect(bad).toMatchObject({
      code: 2,
      stderr:
        'heartbeat-kit check-liveness: --max-age "soon" has no duration (a number with a unit). Fix: give only a duration, e.g. --max-age 30m (a bare number is minutes).\n',
    });
  });

  it('--max-age is the whole value: prose after the duration is a usage error, not a shorter max age', async () => {
    const world = createCliWorld({});
    const statePath = join(world.root, 'hb', 'state.json');
    expect((await world.cycleAt('2026-02-19T14:00:00Z', '--state', statePath)).code).toBe(0);
    const check = (maxAge: string) =>
      world.cli('check-liveness', '--cwd', world.project, '--state', statePath, '--now', '2026-02-19T14:20:00Z', '--max-age', maxAge);
    expect((await check('30 minutes')).code).toBe(0);
    expect(await check('30 minutes of nothing')).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'heartbeat-kit check-liveness: --max-age "30 minutes of nothing" has "of nothing" after the duration. Fix: give only a duration, e.g. --max-age 30m (a bare number is minutes).\n',
    });
    // A bare number is the documented unit (minutes); a unit glued to a typo is not guessed.
    expect((await check('30')).code).toBe(0);
    expect((await check('10')).code).toBe(1);
  });
});
