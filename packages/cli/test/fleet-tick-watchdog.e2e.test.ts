/**
 * `fleet worker --tick-watchdog`, at the built bin on a real redis-server: the worker says how
 * often its watchdog sweeps (or that it is off), and a heartbeat whose job scheduler is gone (as
 * when a failover lost BullMQ's write) is scheduled again by the sweep the flag asked for.
 */
import { describe, expect, it } from 'vitest';
import { useRedis } from '../../bullmq/test/support/redis-server.js';
import { useBuiltCli, useTempDirs, type BinProcess } from './support/cli-world.js';

const built = useBuiltCli();
const tempDir = useTempDirs();
const redis = useRedis();

/** Polls until `read` gives a value, however long a loaded machine takes (the test timeout is the backstop). */
async function until<T>(read: () => T | undefined | false): Promise<T> {
  for (;;) {
    const value = read();
    if (value !== undefined && value !== false) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function stop(worker: BinProcess): Promise<number | null> {
  worker.child.kill('SIGINT');
  return worker.exited;
}

describe('heartbeat-kit fleet worker --tick-watchdog', () => {
  it('says the sweep it runs, and its sweep schedules again a heartbeat whose scheduler was lost', async () => {
    const env = { PATH: process.env.PATH, HOME: tempDir('hk-fleet-watchdog-'), HEARTBEAT_KIT_REDIS: redis.server.url };
    const prefix = ['--prefix', 'wd'];
    const added = await built.run(['fleet', 'add', 'orphan', '--scanners', 'fake', '--interval', '600', ...prefix], env);
    expect(added.code, added.stderr).toBe(0);
    // As if a failover lost the scheduler BullMQ wrote: the heartbeat is registered but never ticks.
    expect(await redis.client.zrem('{wd}:bull:ticks:repeat', 'orphan')).toBe(1);
    await redis.client.del('{wd}:bull:ticks:repeat:orphan');

    const off = built.spawn(['fleet', 'worker', '--fake-scanners', '--tick-watchdog', '0', ...prefix], env);
    await until(() => off.stderr().includes('running'));
    expect(await stop(off)).toBe(0);
    expect(off.stderr()).toMatch(/fleet worker: \S+ running \(prefix wd\), tick watchdog off; stop with Ctrl-C\n/);
    expect(off.stderr()).not.toContain('its ticks had stopped');
    expect(await redis.client.zscore('{wd}:bull:ticks:repeat', 'orphan')).toBeNull();

    const on = built.spawn(['fleet', 'worker', '--fake-scanners', '--tick-watchdog', '1s', ...prefix], env);
    await until(() => on.stderr().includes('its ticks had stopped'));
    expect(await stop(on)).toBe(0);
    expect(on.stderr()).toMatch(/fleet worker: \S+ running \(prefix wd\), tick watchdog every 1 second; stop with Ctrl-C\n/);
    expect(on.stderr()).toContain('heartbeat-kit fleet worker: orphan: its ticks had stopped (it had no job scheduler); scheduled again\n');
    expect(await redis.client.zscore('{wd}:bull:ticks:repeat', 'orphan')).not.toBeNull();
  });
});
