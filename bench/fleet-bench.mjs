// Fleet benchmark (issue: fleets of heartbeats on Redis with BullMQ).
// 500 heartbeats with in-memory fake scanners on 1, 2 and 4 worker processes against a private
// redis-server (unix socket, append-only file, fsync every second). For each worker count:
// committed cycles per second, and the p50/p99 lag between a slot's due time and its cycle's
// start, taken from the workers' journal over a measured window after a warm-up.
// Also: Redis memory per heartbeat — idle (INFO used_memory after the schedules are added minus
// before) and running (at the end of the measured window, minus the bench's own journal): with
// each heartbeat's state, its receipts (one per slot, MEMORY USAGE of every receipt list, and the
// projection to the 200-receipt bound) and BullMQ's kept jobs — and each worker's peak RSS (its own
// process.resourceUsage().maxRSS, sent on SIGTERM).
// Issue 16's fleet: FLEET_BENCH_HEARTBEATS=10000 FLEET_BENCH_INTERVAL_MS=60000 FLEET_BENCH_WORKERS=1,2.
// Env: FLEET_BENCH_HEARTBEATS (500), FLEET_BENCH_INTERVAL_MS (1000), FLEET_BENCH_SECONDS (12),
// FLEET_BENCH_WARMUP_SECONDS (3), FLEET_BENCH_WORKERS ("1,2,4"), FLEET_CONCURRENCY (16).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createRequire } from 'node:module';

const root = join(import.meta.dirname, '..');
const require = createRequire(join(root, 'packages/bullmq/package.json'));
const { Redis } = require('ioredis');
const { createFleetScheduler, fleetKeys, DEFAULT_FLEET_RECEIPT_BOUNDS } = await import('../packages/bullmq/dist/node/index.js');

const HEARTBEATS = Number(process.env.FLEET_BENCH_HEARTBEATS ?? 500);
const INTERVAL_MS = Number(process.env.FLEET_BENCH_INTERVAL_MS ?? 1000);
const SECONDS = Number(process.env.FLEET_BENCH_SECONDS ?? 12);
const WARMUP = Number(process.env.FLEET_BENCH_WARMUP_SECONDS ?? 3);
const WORKERS = (process.env.FLEET_BENCH_WORKERS ?? '1,2,4').split(',').map(Number);
const CONCURRENCY = Number(process.env.FLEET_CONCURRENCY ?? 16);

const dir = mkdtempSync(join(tmpdir(), 'hb-fleet-bench-'));
const socket = join(dir, 'redis.sock');
const server = spawn(
  'redis-server',
  ['--port', '0', '--unixsocket', socket, '--dir', dir, '--appendonly', 'yes', '--appendfsync', 'everysec', '--save', ''],
  { stdio: 'ignore' },
);
for (let i = 0; i < 200 && !existsSync(socket); i += 1) await sleep(25);
const client = new Redis({ path: socket });
const target = { kind: 'unix', path: socket };

const percentile = (sorted, p) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function startWorker(prefix) {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'fleet-worker.mjs')], {
    env: { ...process.env, FLEET_REDIS_URL: `unix://${socket}`, FLEET_PREFIX: prefix, FLEET_CONCURRENCY: String(CONCURRENCY) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve, reject) => {
    child.stdout.once('data', resolve);
    child.once('exit', (code) => reject(new Error(`fleet worker exited with ${code}`)));
  });
  return child;
}

const rows = [];
try {
  console.log(
    `redis-server ${dir} · ${HEARTBEATS} heartbeats every ${INTERVAL_MS} ms (fake scanners) · ${WARMUP}s warm-up + ${SECONDS}s measured · concurrency ${CONCURRENCY} per worker`,
  );
  for (const workers of WORKERS) {
    const prefix = `bench${workers}`;
    const scheduler = createFleetScheduler({ target, prefix });
    const usedMemory = async () => Number(/used_memory:(\d+)/.exec(await client.info('memory'))[1]);
    const memoryBefore = await usedMemory();
    for (let i = 0; i < HEARTBEATS; i += 1) {
      const added = await scheduler.add({
        id: `hb-${i}`,
        intervalMs: INTERVAL_MS,
        source: { kind: 'scanners', set: 'fake', scanMs: 0, reportEvery: 5 },
      });
      if (added.isErr()) throw new Error(added.error.message);
    }
    const memoryPerHeartbeat = ((await usedMemory()) - memoryBefore) / HEARTBEATS;
    const children = await Promise.all(Array.from({ length: workers }, () => startWorker(prefix)));
    const from = Date.now() + WARMUP * 1000;
    const to = from + SECONDS * 1000;
    await sleep(to - Date.now());
    // Redis while running: everything this prefix keeps minus the bench-only journal, and the
    // receipt lists and state documents measured key by key (MEMORY USAGE … SAMPLES 0 is exact).
    const keys = fleetKeys(prefix);
    const journalBytes = Number((await client.call('MEMORY', 'USAGE', keys.journal, 'SAMPLES', '0')) ?? 0);
    const runningPerHeartbeat = ((await usedMemory()) - memoryBefore - journalBytes) / HEARTBEATS;
    let receiptBytes = 0;
    let receiptCount = 0;
    let stateBytes = 0;
    for (let i = 0; i < HEARTBEATS; i += 500) {
      const pipeline = client.pipeline();
      for (let j = i; j < Math.min(HEARTBEATS, i + 500); j += 1) {
        pipeline.call('MEMORY', 'USAGE', keys.receipts(`hb-${j}`), 'SAMPLES', '0');
        pipeline.llen(keys.receipts(`hb-${j}`));
        pipeline.call('MEMORY', 'USAGE', keys.state(`hb-${j}`), 'SAMPLES', '0');
      }
      const replies = await pipeline.exec();
      for (let k = 0; k < replies.length; k += 3) {
        receiptBytes += Number(replies[k][1] ?? 0);
        receiptCount += Number(replies[k + 1][1] ?? 0);
        stateBytes += Number(replies[k + 2][1] ?? 0);
      }
    }
    const bytesPerReceipt = receiptCount === 0 ? NaN : receiptBytes / receiptCount;
    // Stop scheduling first so the next run starts from an idle Redis.
    for (let i = 0; i < HEARTBEATS; i += 1) await scheduler.remove(`hb-${i}`);
    const rssKb = [];
    await Promise.all(
      children.map(
        (child) =>
          new Promise((resolve) => {
            child.stdout.on('data', (chunk) => {
              const m = /maxRSS (\d+)/.exec(String(chunk));
              if (m) rssKb.push(Number(m[1]));
            });
            child.once('exit', resolve);
            child.kill('SIGTERM');
          }),
      ),
    );
    await scheduler.close();
    const events = (await client.lrange(`${prefix}:journal`, 0, -1)).map((line) => JSON.parse(line));
    const cycles = events.filter((e) => e.type === 'cycle' && e.startedAtMs >= from && e.startedAtMs < to);
    const lags = cycles.map((c) => c.startedAtMs - c.dueMs).sort((a, b) => a - b);
    const delivered = events.filter((e) => e.type === 'delivered').length;
    const row = {
      workers,
      cycles: cycles.length,
      cyclesPerSecond: cycles.length / SECONDS,
      offeredPerSecond: (HEARTBEATS * 1000) / INTERVAL_MS,
      lagP50Ms: percentile(lags, 50),
      lagP99Ms: percentile(lags, 99),
      delivered,
      redisBytesPerHeartbeat: Math.round(memoryPerHeartbeat),
      redisRunningBytesPerHeartbeat: Math.round(runningPerHeartbeat),
      stateBytesPerHeartbeat: Math.round(stateBytes / HEARTBEATS),
      receiptsPerHeartbeat: Number((receiptCount / HEARTBEATS).toFixed(2)),
      receiptBytesPerHeartbeat: Math.round(receiptBytes / HEARTBEATS),
      bytesPerReceipt: Math.round(bytesPerReceipt),
      receiptBytesPerHeartbeatAtBound: Math.round(bytesPerReceipt * DEFAULT_FLEET_RECEIPT_BOUNDS.maxCount),
      workerMaxRssMiB: rssKb.map((k) => Math.round(k / 1024)),
      load: os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' '),
    };
    rows.push(row);
    console.log(
      `${workers} worker(s): ${row.cyclesPerSecond.toFixed(1)} cycles/s (offered ${row.offeredPerSecond.toFixed(0)}/s) · lag p50 ${row.lagP50Ms} ms · p99 ${row.lagP99Ms} ms · ${delivered} reports delivered (whole run) · Redis ${row.redisBytesPerHeartbeat} B/heartbeat idle, ${row.redisRunningBytesPerHeartbeat} B running (state ${row.stateBytesPerHeartbeat} B, receipts ${row.receiptBytesPerHeartbeat} B for ${row.receiptsPerHeartbeat} receipts, ${row.bytesPerReceipt} B each, ${row.receiptBytesPerHeartbeatAtBound} B at the ${DEFAULT_FLEET_RECEIPT_BOUNDS.maxCount}-receipt bound) · worker RSS ${row.workerMaxRssMiB.join(', ')} MiB · load ${row.load}`,
    );
  }
  const base = rows[0];
  if (base !== undefined)
    for (const row of rows.slice(1))
      console.log(`${row.workers} vs ${base.workers} worker(s): ×${(row.cyclesPerSecond / base.cyclesPerSecond).toFixed(2)} cycles/s`);
  console.log(
    JSON.stringify({ bench: 'fleet', heartbeats: HEARTBEATS, intervalMs: INTERVAL_MS, seconds: SECONDS, concurrency: CONCURRENCY, rows }),
  );
} finally {
  client.disconnect();
  server.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}
