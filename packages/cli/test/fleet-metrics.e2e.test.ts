/**
 * Issue 30 item 1, fleet workers, at the built bin on a real redis-server: `fleet worker
 * --metrics-textfile --metrics-listen` runs a busy and a quiet heartbeat; the textfile and /metrics
 * pass the real `promtool check metrics`, every series is labelled by the worker's id (and queue),
 * and once the worker stopped its counters equal what Redis recorded (receipts) and the sink got.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type TestRedis } from '../../bullmq/test/support/redis-server.js';
import { useBuiltCli, useTempDirs } from './support/cli-world.js';
import { promtool, samples, until } from './support/prometheus-text.js';

const built = useBuiltCli();
const tempDir = useTempDirs();
let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis.stop();
});

const QUEUES = ['ticks', 'cycles', 'outbox'];
const M = 'heartbeat_kit_fleet_';

interface Ran {
  readonly kind: string;
  readonly status?: string;
}

describe('heartbeat-kit fleet worker --metrics-textfile / --metrics-listen', () => {
  it('exports per-worker and per-queue figures of a busy and a quiet heartbeat, promtool-clean, equal to what Redis recorded', async () => {
    const dir = tempDir('hk-fleet-metrics-');
    const env = { PATH: process.env.PATH, HOME: dir, HEARTBEAT_KIT_REDIS: redis.url };
    const prefix = 'metrics';
    const textfile = join(dir, 'worker-1.prom');
    const sinkFile = join(dir, 'sink.jsonl');
    for (const [id, every] of [
      ['busy', '1'],
      ['quiet', '0'],
    ] as const) {
      const added = await built.run(
        ['fleet', 'add', id, '--prefix', prefix, '--scanners', 'fake', '--report-every', every, '--interval', '1s'],
        env,
      );
      expect(added.code, added.stderr).toBe(0);
    }
    const worker = built.spawn(
      [
        'fleet',
        'worker',
        '--prefix',
        prefix,
        '--fake-scanners',
        '--sink',
        `file:${sinkFile}`,
        '--metrics-textfile',
        textfile,
        '--metrics-listen',
        '127.0.0.1:0',
      ],
      env,
    );
    let live: Map<string, number>;
    let id: string;
    try {
      const url = await until(() => /metrics at (http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(worker.stderr())?.[1]);
      id = await until(() => /fleet worker: (\S+) running/.exec(worker.stderr())?.[1]);
      const w = `worker="${id}"`;
      // Until both heartbeats ran at least twice and a report was delivered: busy and quiet jobs.
      const text = await until(() => {
        const file = existsSync(textfile) ? readFileSync(textfile, 'utf8') : '';
        const s = samples(file);
        const ok = s.get(`${M}cycles_total{status="ok",${w}}`) ?? 0;
        const report = s.get(`${M}cycles_total{status="report",${w}}`) ?? 0;
        return ok >= 2 && report >= 2 && (s.get(`${M}messages_total{state="delivered",${w}}`) ?? 0) >= 1 ? file : undefined;
      });
      expect(promtool(text)).toEqual({ code: 0, output: '' });
      live = samples(text);
      // Every series names the worker; the job series name their queue.
      for (const key of live.keys()) expect(key, key).toContain(w);
      expect(live.get(`${M}worker_up{${w}}`)).toBe(1);
      expect(live.get(`${M}worker_paused{${w}}`)).toBe(0);
      expect(live.get(`${M}heartbeats_registered{${w}}`)).toBe(2);
      for (const queue of QUEUES) {
        for (const state of ['waiting', 'delayed', 'active']) {
          const depth = live.get(`${M}queue_jobs{queue="${queue}",state="${state}",${w}}`);
          expect(Number.isInteger(depth) && depth! >= 0, `${queue} ${state}: ${depth}`).toBe(true);
        }
        expect(live.get(`${M}job_duration_seconds_count{${w},queue="${queue}"}`)).toBeGreaterThanOrEqual(1);
        expect(live.get(`${M}jobs_total{queue="${queue}",outcome="completed",${w}}`)).toBeGreaterThanOrEqual(1);
      }
      // The slot queues' schedule lag is measured: one observation per job start.
      expect(live.get(`${M}schedule_lag_seconds_count{${w},queue="cycles"}`)).toBeGreaterThanOrEqual(4);
      expect(live.get(`${M}schedule_lag_seconds_bucket{le="+Inf",${w},queue="ticks"}`)).toBeGreaterThanOrEqual(4);
      expect(live.get(`${M}findings_total{category="ORCH_FAILURE",priority="Immediate",${w}}`)).toBeGreaterThanOrEqual(2);
      expect(live.get(`${M}findings_total{category="GIT_STALE",priority="Advisory",${w}}`)).toBe(0);
      expect(live.get(`${M}last_job_end_timestamp_seconds{${w}}`)).toBeGreaterThan(Date.parse('2026-01-01') / 1000);

      // /metrics answers with the same figures (the same series; its counters as far or further).
      const response = await fetch(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      const page = await response.text();
      expect(promtool(page)).toEqual({ code: 0, output: '' });
      const scraped = samples(page);
      expect([...scraped.keys()].sort()).toEqual([...live.keys()].sort());
      for (const [key, value] of live)
        if (key.includes('_total') || key.endsWith('_count')) expect(scraped.get(key), key).toBeGreaterThanOrEqual(value);
      expect(scraped.get(`${M}heartbeats_registered{${w}}`)).toBe(2);
    } finally {
      worker.child.kill('SIGTERM');
    }
    expect(await worker.exited).toBe(0);

    // The last textfile, written after the drain: the worker is down, nothing runs, and every
    // counter equals what Redis recorded and the sink received.
    const final = readFileSync(textfile, 'utf8');
    expect(promtool(final)).toEqual({ code: 0, output: '' });
    const s = samples(final);
    const w = `worker="${id!}"`;
    expect(s.get(`${M}worker_up{${w}}`)).toBe(0);
    expect(s.get(`${M}worker_paused{${w}}`)).toBe(1);
    for (const queue of QUEUES) expect(s.get(`${M}jobs_active{queue="${queue}",${w}}`)).toBe(0);
    // Queue depths are read from Redis only while the worker runs.
    expect([...s.keys()].filter((key) => key.includes('queue_jobs') || key.includes('heartbeats_registered'))).toEqual([]);
    const ran = async (heartbeat: string): Promise<Ran[]> => {
      const history = await built.run(['fleet', 'history', heartbeat, '--prefix', prefix, '--json'], env);
      expect(history.code, history.stderr).toBe(0);
      return (JSON.parse(history.stdout) as { receipts: Ran[] }).receipts.filter((r) => r.kind === 'ran');
    };
    const busy = await ran('busy');
    const quiet = await ran('quiet');
    const all = [...busy, ...quiet];
    expect(s.get(`${M}cycles_total{status="report",${w}}`)).toBe(all.filter((r) => r.status === 'report').length);
    expect(s.get(`${M}cycles_total{status="ok",${w}}`)).toBe(all.filter((r) => r.status === 'ok').length);
    expect(quiet.every((r) => r.status === 'ok')).toBe(true);
    // Each busy report carries the one new ORCH_FAILURE of its slot.
    expect(s.get(`${M}findings_total{category="ORCH_FAILURE",priority="Immediate",${w}}`)).toBe(
      busy.filter((r) => r.status === 'report').length,
    );
    const delivered = readFileSync(sinkFile, 'utf8').split('\n').filter(Boolean).length;
    expect(s.get(`${M}messages_total{state="delivered",${w}}`)).toBe(delivered);
    expect(s.get(`${M}messages_total{state="failed",${w}}`)).toBe(0);
    expect(s.get(`${M}jobs_total{queue="cycles",outcome="failed",${w}}`)).toBe(0);
    // A later textfile never counts down.
    for (const [key, value] of live!) if (key.includes('_total')) expect(s.get(key), key).toBeGreaterThanOrEqual(value);
  });

  it('refuses a non-.prom textfile and a public address without --metrics-listen-public (exit 2, nothing written)', async () => {
    const dir = tempDir('hk-fleet-metrics-');
    const env = { PATH: process.env.PATH, HOME: dir, HEARTBEAT_KIT_REDIS: redis.url };
    const txt = await built.run(['fleet', 'worker', '--metrics-textfile', join(dir, 'w.txt')], env);
    expect(txt.code).toBe(2);
    expect(txt.stderr).toContain('--metrics-textfile');
    expect(txt.stderr).toContain('Fix:');
    const open = await built.run(['fleet', 'worker', '--metrics-listen', '0.0.0.0:0'], env);
    expect(open.code).toBe(2);
    expect(open.stderr).toContain('--metrics-listen-public');
    expect(existsSync(join(dir, 'w.txt'))).toBe(false);
  });
});
