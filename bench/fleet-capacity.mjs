// Fleet capacity (issue 33): where one worker process saturates, on one Redis and on a 3 + 3
// Redis Cluster. For each backend the offered load (heartbeats due every FLEET_CAPACITY_INTERVAL_MS,
// fake scanners) is raised step by step until the lag p99 between a slot's due time and its cycle's
// start passes 1 s. Each step reports cycles/s, lag p50/p99, the worker's CPU (cycles per
// worker CPU-second: the per-core figure) and Redis' CPU (INFO cpu of every master: Redis CPU-ms per
// cycle), Redis memory per heartbeat idle and running, and worker peak RSS. Then 100,000 registered
// heartbeats at 80 % of the measured capacity: time to register them, lag p50/p99, Redis memory.
// The machine's load average is printed with every row: on a shared machine the figures measure the
// other users too. Env: FLEET_CAPACITY_BACKENDS ("single,cluster"), FLEET_CAPACITY_STEPS
// ("100,200,400,800,1600,3200"), FLEET_CAPACITY_INTERVAL_MS (1000), FLEET_CAPACITY_WARMUP_SECONDS (3),
// FLEET_CAPACITY_SECONDS (6), FLEET_CAPACITY_BIG (100000; 0 skips), FLEET_CAPACITY_BIG_BACKENDS ("single"),
// FLEET_CAPACITY_BIG_RATE (cycles/s offered to the big run; default 80 % of the measured capacity),
// FLEET_CONCURRENCY (16).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { importTs } from './bundle-ts.mjs';

const root = join(import.meta.dirname, '..');
const { parseRedisUrl } = await import('../packages/bullmq/dist/index.js');
const { createFleetScheduler, createRedisClient, closeRedisClient, fleetKeys } = await import('../packages/bullmq/dist/node/index.js');
const { startCluster } = await importTs(join(root, 'packages/bullmq/test/support/redis-cluster.ts'));

const BACKENDS = (process.env.FLEET_CAPACITY_BACKENDS ?? 'single,cluster').split(',');
const STEPS = (process.env.FLEET_CAPACITY_STEPS ?? '100,200,400,800,1600,3200').split(',').map(Number);
const INTERVAL_MS = Number(process.env.FLEET_CAPACITY_INTERVAL_MS ?? 1000);
const WARMUP = Number(process.env.FLEET_CAPACITY_WARMUP_SECONDS ?? 3);
const SECONDS = Number(process.env.FLEET_CAPACITY_SECONDS ?? 6);
const BIG = Number(process.env.FLEET_CAPACITY_BIG ?? 100_000);
const BIG_BACKENDS = (process.env.FLEET_CAPACITY_BIG_BACKENDS ?? 'single').split(',');
const CONCURRENCY = Number(process.env.FLEET_CONCURRENCY ?? 16);
/** Parses a Redis URL the bench made itself; a failure is a bug in the bench. */
function targetOf(url) {
  const parsed = parseRedisUrl(url);
  if (parsed.isErr()) throw new Error(parsed.error);
  return parsed.value;
}
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const percentile = (sorted, p) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function startSingle() {
  const dir = mkdtempSync(join(tmpdir(), 'hb-fleet-capacity-'));
  const socket = join(dir, 'redis.sock');
  const server = spawn(
    'redis-server',
    ['--port', '0', '--unixsocket', socket, '--dir', dir, '--appendonly', 'yes', '--appendfsync', 'everysec', '--save', ''],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 400 && !existsSync(socket); i += 1) await sleep(25);
  const url = `unix://${socket}`;
  return {
    url,
    nodes: async () => [createRedisClient(targetOf(url))],
    stop: async () => {
      server.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function startClusterBackend() {
  const cluster = await startCluster({ appendfsync: 'everysec' });
  return {
    url: cluster.url,
    // One plain client per master: memory and CPU are summed over the masters (replicas hold copies).
    nodes: async () => (await cluster.masters()).map((port) => createRedisClient(targetOf(`redis://127.0.0.1:${port}`))),
    stop: () => cluster.stop(),
  };
}

const infoNumber = (text, field) => Number(new RegExp(`${field}:([\\d.]+)`).exec(text)?.[1] ?? NaN);
async function redisTotals(nodes) {
  let memory = 0;
  let cpuMs = 0;
  for (const node of nodes) {
    memory += infoNumber(await node.info('memory'), 'used_memory');
    const cpu = await node.info('cpu');
    cpuMs += (infoNumber(cpu, 'used_cpu_user') + infoNumber(cpu, 'used_cpu_sys')) * 1000;
  }
  return { memory, cpuMs };
}

function startWorker(url, prefix) {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'fleet-worker.mjs')], {
    env: { ...process.env, FLEET_REDIS_URL: url, FLEET_PREFIX: prefix, FLEET_CONCURRENCY: String(CONCURRENCY) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk) => (out += String(chunk)));
  const ready = new Promise((resolve, reject) => {
    child.stdout.once('data', resolve);
    child.once('exit', (code) => reject(new Error(`fleet worker exited with ${code}`)));
  });
  return {
    ready,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => {
          const m = /maxRSS (\d+) cpuMs (\d+)/.exec(out);
          resolve({ rssMiB: m ? Math.round(Number(m[1]) / 1024) : NaN, cpuMs: m ? Number(m[2]) : NaN });
        });
        child.kill('SIGTERM');
      }),
  };
}

/** Registers `count` heartbeats, 500 at a time; resolves the seconds it took. */
async function register(scheduler, count, intervalMs) {
  const started = Date.now();
  for (let i = 0; i < count; i += 500) {
    const batch = [];
    for (let j = i; j < Math.min(count, i + 500); j += 1)
      batch.push(scheduler.add({ id: `hb-${j}`, intervalMs, source: { kind: 'scanners', set: 'fake', scanMs: 0, reportEvery: 5 } }));
    for (const added of await Promise.all(batch)) if (added.isErr()) throw new Error(added.error.message);
  }
  return (Date.now() - started) / 1000;
}

/** One measured run: `heartbeats` due every `intervalMs` on one worker process. */
async function measure(backend, nodes, client, prefix, heartbeats, intervalMs, workerFirst = false) {
  const target = targetOf(backend.url);
  const scheduler = createFleetScheduler({ target, prefix });
  const before = await redisTotals(nodes);
  // A step starts its worker after registration (idle memory is then the schedules alone; the
  // warm-up absorbs the start). The big run registers while the worker runs, as a fleet grows:
  // slots that fall due during a long registration are run on time instead of piling up.
  const worker = workerFirst ? startWorker(backend.url, prefix) : undefined;
  await worker?.ready;
  const registerSeconds = await register(scheduler, heartbeats, intervalMs);
  const idle = await redisTotals(nodes);
  const stepWorker = worker ?? startWorker(backend.url, prefix);
  await stepWorker.ready;
  const from = Date.now() + WARMUP * 1000;
  const to = from + SECONDS * 1000;
  await sleep(from - Date.now());
  const cpuFrom = (await redisTotals(nodes)).cpuMs;
  await sleep(to - Date.now());
  const running = await redisTotals(nodes);
  const keys = fleetKeys(prefix);
  const journalBytes = Number((await client.call('MEMORY', 'USAGE', keys.journal, 'SAMPLES', '0')) ?? 0);
  const { rssMiB, cpuMs } = await stepWorker.stop();
  const events = (await client.lrange(keys.journal, 0, -1)).map((line) => JSON.parse(line));
  const all = events.filter((e) => e.type === 'cycle');
  const cycles = all.filter((e) => e.startedAtMs >= from && e.startedAtMs < to);
  const lags = cycles.map((c) => c.startedAtMs - c.dueMs).sort((a, b) => a - b);
  // Stop scheduling so the next step starts from an idle Redis.
  for (let i = 0; i < heartbeats; i += 500)
    await Promise.all(Array.from({ length: Math.min(500, heartbeats - i) }, (_, k) => scheduler.remove(`hb-${i + k}`)));
  await scheduler.close();
  await client.del(keys.journal);
  return {
    heartbeats,
    intervalMs,
    offeredPerSecond: (heartbeats * 1000) / intervalMs,
    cyclesPerSecond: cycles.length / SECONDS,
    lagP50Ms: percentile(lags, 50),
    lagP99Ms: percentile(lags, 99),
    cyclesPerWorkerCpuSecond: all.length / (cpuMs / 1000),
    redisCpuMsPerCycle: (running.cpuMs - cpuFrom) / Math.max(1, cycles.length),
    registerSeconds,
    // With the worker running during registration (the big run) this includes what it wrote meanwhile.
    redisIdleBytesPerHeartbeat: Math.round((idle.memory - before.memory) / heartbeats),
    redisRunningBytesPerHeartbeat: Math.round((running.memory - before.memory - journalBytes) / heartbeats),
    redisUsedMiB: Math.round(running.memory / 1048576),
    workerRssMiB: rssMiB,
    load: load(),
  };
}

const line = (backend, r) =>
  `${backend.padEnd(7)} ${String(r.heartbeats).padStart(6)} hb/${r.intervalMs} ms · offered ${r.offeredPerSecond.toFixed(0)}/s · ${r.cyclesPerSecond.toFixed(1)} cycles/s · lag p50 ${r.lagP50Ms} ms p99 ${r.lagP99Ms} ms · ${r.cyclesPerWorkerCpuSecond.toFixed(0)} cycles/worker-CPU-s · Redis ${r.redisCpuMsPerCycle.toFixed(2)} CPU-ms/cycle · Redis ${r.redisIdleBytesPerHeartbeat} B/hb idle, ${r.redisRunningBytesPerHeartbeat} B running · register ${r.registerSeconds.toFixed(1)} s · worker RSS ${r.workerRssMiB} MiB · load ${r.load}`;

const report = {
  bench: 'fleet-capacity',
  cpus: os.cpus().length,
  intervalMs: INTERVAL_MS,
  warmup: WARMUP,
  seconds: SECONDS,
  concurrency: CONCURRENCY,
  backends: {},
};
console.log(
  `fleet capacity · ${os.cpus().length} CPUs · load ${load()} · 1 worker process, concurrency ${CONCURRENCY} · ${WARMUP}s warm-up + ${SECONDS}s per step`,
);
for (const name of BACKENDS) {
  const backend = name === 'cluster' ? await startClusterBackend() : await startSingle();
  const client = createRedisClient(targetOf(backend.url));
  client.on('error', () => undefined);
  const nodes = await backend.nodes();
  const steps = [];
  try {
    for (const [index, heartbeats] of STEPS.entries()) {
      const row = await measure(backend, nodes, client, `cap${index}`, heartbeats, INTERVAL_MS);
      steps.push(row);
      console.log(line(name, row));
      if (row.lagP99Ms > 1000 || Number.isNaN(row.lagP99Ms)) break;
    }
    // Capacity: the most cycles/s a step met with lag p99 ≤ 1 s; when even the first step saturated
    // (a loaded machine), the throughput the saturated worker still delivered.
    const within = steps.filter((r) => r.lagP99Ms <= 1000);
    const capacity =
      within.length > 0 ? Math.max(...within.map((r) => r.cyclesPerSecond)) : Math.max(...steps.map((r) => r.cyclesPerSecond));
    console.log(
      `${name}: capacity ≈ ${capacity.toFixed(0)} cycles/s per worker process (${within.length > 0 ? 'lag p99 ≤ 1 s' : 'throughput while saturated: no step kept p99 ≤ 1 s'}; ${steps.at(-1).lagP99Ms > 1000 ? `p99 ${steps.at(-1).lagP99Ms} ms at ${steps.at(-1).offeredPerSecond}/s offered` : 'not saturated by the last step'})`,
    );
    const entry = { steps, capacity };
    const bigRate = Number(process.env.FLEET_CAPACITY_BIG_RATE ?? 0.8 * capacity);
    if (BIG > 0 && BIG_BACKENDS.includes(name) && bigRate > 0) {
      const intervalMs = Math.max(250, Math.round((BIG * 1000) / bigRate));
      const big = await measure(backend, nodes, client, 'big', BIG, intervalMs, true);
      entry.big = big;
      console.log(line(name, big));
      console.log(
        `${name}: ${BIG} registered heartbeats at ${bigRate.toFixed(0)} cycles/s offered (every ${(intervalMs / 1000).toFixed(0)} s): registered in ${big.registerSeconds.toFixed(1)} s, lag p50 ${big.lagP50Ms} ms p99 ${big.lagP99Ms} ms, Redis ${big.redisUsedMiB} MiB`,
      );
    }
    report.backends[name] = entry;
  } finally {
    for (const node of nodes) await closeRedisClient(node);
    await closeRedisClient(client);
    await backend.stop();
  }
}
console.log(JSON.stringify(report));
