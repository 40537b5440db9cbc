import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type TestCluster } from '../../../bullmq/test/support/redis-cluster.js';
import { useBuiltCli } from '../../test/support/cli-world.js';
import { runCli } from '../../test/support/run-cli.js';

// The built bin on a private 3 + 3 Redis Cluster: `--redis` with several nodes, or one with --redis-cluster.
let cluster: TestCluster;
let root: string;
const built = useBuiltCli();
beforeAll(async () => {
  cluster = await startCluster();
  root = mkdtempSync(join(tmpdir(), 'hb-fleet-cluster-cli-'));
});
afterAll(async () => {
  await cluster.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('heartbeat-kit fleet on a Redis Cluster', () => {
  it('adds, runs and lists heartbeats through the node list, and through one seed node with --redis-cluster', async () => {
    const run = (argv: readonly string[], signal?: AbortSignal) =>
      runCli(['fleet', ...argv, '--prefix', 'cl'], { cwd: root, env: { HEARTBEAT_KIT_REDIS: cluster.url }, ...(signal ? { signal } : {}) });
    for (const id of ['one', 'two', 'three'])
      expect((await run(['add', id, '--scanners', 'fake', '--interval', '0.3', '--report-every', '2'])).code).toBe(0);
    const sink = join(root, 'reports.jsonl');
    const stop = new AbortController();
    // Every master has a replica: each new fence is confirmed by one before a cycle runs.
    const worker = run(['worker', '--concurrency', '4', '--min-replica-acks', '1', '--sink', `file:${sink}`], stop.signal);
    const heartbeatsReported = (): Set<string> =>
      new Set(
        existsSync(sink)
          ? readFileSync(sink, 'utf8')
              .split('\n')
              .filter(Boolean)
              .map((line) => (JSON.parse(line) as { heartbeatId: string }).heartbeatId)
          : [],
      );
    // However long a loaded machine takes (the test timeout is the backstop).
    while (heartbeatsReported().size < 3) await new Promise((resolve) => setTimeout(resolve, 100));
    stop.abort();
    expect((await worker).code).toBe(0);

    const seed = `redis://127.0.0.1:${cluster.nodes[1]!.port}`;
    const listed = await runCli(['fleet', 'status', '--json', '--prefix', 'cl', '--redis', seed, '--redis-cluster'], { cwd: root });
    expect(listed.code).toBe(0);
    const entries = JSON.parse(listed.stdout) as { heartbeat: { id: string }; lastCycle?: number }[];
    expect(entries.map((e) => e.heartbeat.id).sort()).toEqual(['one', 'three', 'two']);
    for (const entry of entries) expect(entry.lastCycle).toBeGreaterThanOrEqual(1);
    const history = await runCli(['fleet', 'history', 'one', '--json', '--prefix', 'cl', '--redis', cluster.url], { cwd: root });
    expect(history.code).toBe(0);
  });

  it('the built worker exits 0 after SIGTERM: no cluster connection of its blocking clients is left open', async () => {
    const env = { ...process.env, HEARTBEAT_KIT_REDIS: cluster.url };
    expect(
      (
        await runCli(['fleet', 'add', 'idle', '--scanners', 'fake', '--interval', '0.3', '--report-every', '1', '--prefix', 'term'], {
          cwd: root,
          env,
        })
      ).code,
    ).toBe(0);
    const sink = join(root, 'term-reports.jsonl');
    const worker = built.spawn(['fleet', 'worker', '--prefix', 'term', '--sink', `file:${sink}`], env);
    // Cycles ran and the workers are back waiting for jobs (BZPOPMIN on the duplicated cluster
    // clients): Worker.close interrupts that wait, which made BullMQ reconnect the duplicate.
    while (!existsSync(sink) || readFileSync(sink, 'utf8').split('\n').filter(Boolean).length < 2)
      await new Promise((resolve) => setTimeout(resolve, 100));
    worker.child.kill('SIGTERM');
    // However long closing takes on a loaded machine (the test timeout is the backstop): a leak never exits.
    expect(await worker.exited).toBe(0);
  });

  it('a cluster URL list with a socket is a usage error naming --redis (exit 2)', async () => {
    const result = await runCli(['fleet', 'list', '--redis', `${cluster.url},unix:///tmp/x.sock`], { cwd: root });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--redis:');
    expect(result.stderr).toContain('is not a TCP node');
  });

  it('--min-replica-acks takes a whole number ≥ 0, else a usage error (exit 2)', async () => {
    for (const bad of ['1.5', '-1', 'one']) {
      const result = await runCli(['fleet', 'worker', `--min-replica-acks=${bad}`, '--redis', cluster.url], { cwd: root });
      expect(result.code, bad).toBe(2);
      expect(result.stderr).toContain(`--min-replica-acks "${bad}"`);
    }
  });

  it('a seed node that does not answer fails fast with exit 3', async () => {
    const result = await runCli(['fleet', 'list', '--redis', 'redis://127.0.0.1:1', '--redis-cluster'], { cwd: root });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('cannot reach Redis at redis://127.0.0.1:1');
  });
});
