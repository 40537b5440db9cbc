// Fleet capacity (issue 33): where one worker process saturates, on one Redis and on a 3 + 3
// Redis Cluster, with fake scanners and with real cycles over a small project. For each backend
// and mode the offered load (heartbeats due every interval) is raised step by step until the lag
// p99 between a slot's due time and its cycle's start passes 1 s. Each step reports cycles/s, lag
// p50/p99, cycles per worker CPU-second (the worker's CPU over the measured window, read from
// /proc; with real cycles also counting the tools it spawned: the per-core figure), Redis' CPU
// (INFO cpu of every master, gross and net of the backend's idle CPU measured first: Redis CPU-ms
// per cycle), Redis commands per cycle (INFO commandstats of every master), Redis memory per
// heartbeat idle and running, and worker peak RSS. Then 100,000 registered heartbeats at 80 % of
// the fake-scanner capacity: time to register them, lag p50/p99, Redis memory. Ratios against
// baselines measured in the same run: the cluster's and the TCP Redis' costs per cycle against
// the unix-socket Redis', a real fleet cycle's CPU against a fake one's and against one
// `heartbeat-kit cycle --cwd` process over the same project.
// The machine's load average is printed with every row: on a shared machine the wall-clock
// figures measure the other users too; the per-CPU figures are the trustworthy ones.
// Modes: "fake" (in-memory scanners, bench/fleet-worker.mjs) and "real" (the built CLI's
// `fleet worker` over a git repository with worktrees, a fake bd, DOT pipelines and a tmux server
// on a private TMUX_TMPDIR: every cycle spawns git, tmux, bd and python3).
// Env: FLEET_CAPACITY_BACKENDS ("single,cluster"; also "single-tcp": one redis-server on loopback
// TCP, and "cluster-norepl": 3 masters without replicas), FLEET_CAPACITY_MODES ("fake,real"),
// FLEET_CAPACITY_STEPS ("100,200,400,800,1600,3200" cycles/s offered, fake),
// FLEET_CAPACITY_REAL_STEPS ("1,2,4,8,16"), FLEET_CAPACITY_INTERVAL_MS (1000, fake),
// FLEET_CAPACITY_REAL_INTERVAL_MS (4000), FLEET_CAPACITY_WARMUP_SECONDS (3; real: ×2),
// FLEET_CAPACITY_SECONDS (6; real: ×2), FLEET_CAPACITY_BIG (100000; 0 skips; it takes ≈ 10 min on
// a loaded 2-core machine), FLEET_CAPACITY_BIG_BACKENDS ("single"), FLEET_CAPACITY_BIG_RATE
// (cycles/s offered to the big run; default 80 % of the measured fake capacity), FLEET_CONCURRENCY (16).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { importTs } from './bundle-ts.mjs';

const root = join(import.meta.dirname, '..');
const { parseRedisUrl } = await import('../packages/bullmq/dist/index.js');
const { createFleetScheduler, createRedisClient, closeRedisClient, fleetKeys } = await import('../packages/bullmq/dist/node/index.js');
const { startCluster } = await importTs(join(root, 'packages/bullmq/test/support/redis-cluster.ts'));

const BACKENDS = (process.env.FLEET_CAPACITY_BACKENDS ?? 'single,cluster').split(',');
const MODES = (process.env.FLEET_CAPACITY_MODES ?? 'fake,real').split(',');
const STEPS = (process.env.FLEET_CAPACITY_STEPS ?? '100,200,400,800,1600,3200').split(',').map(Number);
const REAL_STEPS = (process.env.FLEET_CAPACITY_REAL_STEPS ?? '1,2,4,8,16').split(',').map(Number);
const INTERVAL_MS = Number(process.env.FLEET_CAPACITY_INTERVAL_MS ?? 1000);
const REAL_INTERVAL_MS = Number(process.env.FLEET_CAPACITY_REAL_INTERVAL_MS ?? 4000);
const WARMUP = Number(process.env.FLEET_CAPACITY_WARMUP_SECONDS ?? 3);
const SECONDS = Number(process.env.FLEET_CAPACITY_SECONDS ?? 6);
/** Per mode: what a step offers and how long it is measured (a real cycle is slower: longer windows). */
const MODE = {
  fake: { steps: STEPS, intervalMs: INTERVAL_MS, warmup: WARMUP, seconds: SECONDS },
  real: { steps: REAL_STEPS, intervalMs: REAL_INTERVAL_MS, warmup: 2 * WARMUP, seconds: 2 * SECONDS },
};
const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
const bin = join(root, 'packages/cli/dist/bin.js');
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

/** A loopback port nobody listens on now. */
const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** One redis-server: on a unix socket ("single") or on loopback TCP ("single-tcp"). */
async function startSingle(tcp) {
  const dir = mkdtempSync(join(tmpdir(), 'hb-fleet-capacity-'));
  const socket = join(dir, 'redis.sock');
  const port = tcp ? await freePort() : 0;
  const server = spawn(
    'redis-server',
    ['--port', String(port), '--unixsocket', socket, '--dir', dir, '--appendonly', 'yes', '--appendfsync', 'everysec', '--save', ''],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 400 && !existsSync(socket); i += 1) await sleep(25);
  const url = tcp ? `redis://127.0.0.1:${port}` : `unix://${socket}`;
  return {
    url,
    nodes: async () => [createRedisClient(targetOf(url))],
    stop: async () => {
      server.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function startClusterBackend(replicasPerMaster) {
  const cluster = await startCluster({ appendfsync: 'everysec', replicasPerMaster });
  return {
    url: cluster.url,
    // One plain client per master: memory and CPU are summed over the masters (replicas hold copies).
    nodes: async () => (await cluster.masters()).map((port) => createRedisClient(targetOf(`redis://127.0.0.1:${port}`))),
    stop: () => cluster.stop(),
  };
}

const BACKEND_STARTERS = {
  single: () => startSingle(false),
  'single-tcp': () => startSingle(true),
  cluster: () => startClusterBackend(1),
  'cluster-norepl': () => startClusterBackend(0),
};

const infoNumber = (text, field) => Number(new RegExp(`${field}:([\\d.]+)`).exec(text)?.[1] ?? NaN);
/** Memory, CPU and per-command calls/usec summed over the masters. */
async function redisTotals(nodes) {
  let memory = 0;
  let cpuMs = 0;
  let reads = 0;
  let writes = 0;
  const commands = {};
  for (const node of nodes) {
    memory += infoNumber(await node.info('memory'), 'used_memory');
    const stats = await node.info('stats');
    reads += infoNumber(stats, 'total_reads_processed');
    writes += infoNumber(stats, 'total_writes_processed');
    const cpu = await node.info('cpu');
    cpuMs += (infoNumber(cpu, 'used_cpu_user') + infoNumber(cpu, 'used_cpu_sys')) * 1000;
    for (const [, name, calls, usec] of (await node.info('commandstats')).matchAll(/cmdstat_(\S+):calls=(\d+),usec=(\d+)/g)) {
      const entry = (commands[name] ??= { calls: 0, usec: 0 });
      entry.calls += Number(calls);
      entry.usec += Number(usec);
    }
  }
  return { memory, cpuMs, reads, writes, commands };
}
/** commandstats names of Lua script calls (BullMQ's and the fleet's). */
const SCRIPT_COMMANDS = ['eval', 'evalsha', 'eval_ro', 'evalsha_ro', 'fcall'];
/** Per-command calls and usec between two totals, divided by `cycles`. */
function commandsPerCycle(from, to, cycles) {
  const out = {};
  for (const [name, { calls, usec }] of Object.entries(to.commands)) {
    const d = calls - (from.commands[name]?.calls ?? 0);
    if (d > 0) out[name] = { calls: d / cycles, usec: (usec - (from.commands[name]?.usec ?? 0)) / cycles };
  }
  return out;
}
/** Redis CPU-ms per second with nothing registered (cron, cluster bus, replication pings). */
async function idleCpuMsPerSecond(nodes, seconds = 5) {
  const from = await redisTotals(nodes);
  await sleep(seconds * 1000);
  const to = await redisTotals(nodes);
  return (to.cpuMs - from.cpuMs) / seconds;
}

/** CPU ms of a process from /proc: its own, and with the children it has waited for (the tools a real cycle spawns). */
function procCpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number);
    return { own: ((utime + stime) * 1000) / CLK_TCK, withChildren: ((utime + stime + cutime + cstime) * 1000) / CLK_TCK };
  } catch {
    return { own: NaN, withChildren: NaN };
  }
}
/** Peak RSS of a process (VmHWM), MiB. */
function procPeakRssMiB(pid) {
  try {
    return Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024);
  } catch {
    return NaN;
  }
}

/**
 * One worker process. Fake: bench/fleet-worker.mjs (fake scanners, its events in the journal).
 * Real: the built CLI's `fleet worker --json` (its events on stderr) over the registered projects.
 */
function startWorker(url, prefix, mode, world) {
  const args =
    mode === 'real'
      ? [
          bin,
          'fleet',
          'worker',
          '--redis',
          url,
          '--prefix',
          prefix,
          '--concurrency',
          String(CONCURRENCY),
          '--json',
          '--sink',
          `file:${world.sinkFile}`,
        ]
      : [join(import.meta.dirname, 'fleet-worker.mjs')];
  const child = spawn(process.execPath, args, {
    env: {
      ...(mode === 'real' ? world.env : process.env),
      FLEET_REDIS_URL: url,
      FLEET_PREFIX: prefix,
      FLEET_CONCURRENCY: String(CONCURRENCY),
    },
    stdio: ['ignore', 'pipe', mode === 'real' ? 'pipe' : 'inherit'],
  });
  const events = [];
  let buffered = '';
  child.stderr?.on('data', (chunk) => {
    buffered += String(chunk);
    const lines = buffered.split('\n');
    buffered = lines.pop();
    for (const text of lines) if (text.startsWith('{')) events.push(JSON.parse(text));
  });
  const readyText = mode === 'real' ? child.stderr : child.stdout;
  const ready = new Promise((resolve, reject) => {
    readyText.once('data', resolve);
    child.once('exit', (code) => reject(new Error(`fleet worker exited with ${code}`)));
  });
  child.stdout.resume();
  return {
    ready,
    events: () => events,
    cpu: () => procCpuMs(child.pid),
    stop: async () => {
      const rssMiB = procPeakRssMiB(child.pid);
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      // A backstop, not a measurement: seen once, the CLI's worker on the cluster (real cycles)
      // was still alive minutes after SIGTERM, holding cluster connections; the bench goes on.
      const grace = setTimeout(() => {
        console.log(`WARNING: the ${mode} worker (pid ${child.pid}) did not exit 60 s after SIGTERM: SIGKILL`);
        child.kill('SIGKILL');
      }, 60_000);
      await exited;
      clearTimeout(grace);
      return { rssMiB };
    },
  };
}

/**
 * The small project real cycles scan: a git repository with 6 worktrees (3 dirty), 4 tmux sessions
 * on a private server (its own TMUX_TMPDIR, the default socket name: the fleet worker's tmux has
 * no socket flag), 20 beads (fake bd), 2 DOT pipelines and the GChat poll script.
 */
async function buildWorld() {
  const { createWorld } = await importTs(join(root, 'packages/cli/test/support/world.ts'));
  const now = Date.now();
  const HOUR = 3_600_000;
  const bead = (i, extra) => ({ id: `cap-${i}`, title: `Task ${i}`, priority: i % 5, ...extra });
  const world = createWorld({
    ready: Array.from({ length: 10 }, (_, i) => bead(i, {})),
    inProgress: Array.from({ length: 10 }, (_, i) =>
      bead(100 + i, { assignee: `orch-cap-${i % 4}`, started_at: new Date(now - (i % 8) * HOUR).toISOString() }),
    ),
    worktrees: Array.from({ length: 6 }, (_, i) => ({
      dir: `wt-${i}`,
      branch: `feat/cap-${100 + i}-work`,
      commitAt: new Date(now - (i % 6) * HOUR),
      dirty: i % 2 === 0,
    })),
    pipelines: Object.fromEntries(
      [0, 1].map((i) => [
        `pipe-${i}.dot`,
        `digraph "PIPE-${i}" {\n  start [shape=Mdiamond handler=start status=validated]\n  impl [shape=box handler=codergen status=active bead_id="cap-${100 + i}"]\n  start -> impl\n}\n`,
      ]),
    ),
    gchat: { stdout: '{"replies": [], "pending_count": 0}' },
    heartbeatMd: '# Heartbeat Configuration\n\n## Active Hours\n- Start: 0\n- End: 24\n- Weekend: true\n- Timezone: UTC\n',
  });
  const tmuxDir = join(world.root, 'tmux');
  mkdirSync(tmuxDir);
  const env = { ...world.env, TMUX_TMPDIR: tmuxDir, SHELL: '/bin/sh' };
  const tmux = (...args) => spawnSync('tmux', ['-f', '/dev/null', ...args], { env, stdio: 'ignore' });
  for (let i = 0; i < 4; i += 1) tmux('new-session', '-d', '-s', `orch-cap-${i}`, '-x', '80', '-y', '20');
  return {
    project: world.project,
    env,
    sinkFile: join(world.root, 'sink.jsonl'),
    destroy: () => {
      tmux('kill-server');
      world.destroy();
    },
  };
}

/** CPU ms (with every child process) and wall ms of one `heartbeat-kit cycle --cwd` over the world: the one-shot baseline. */
function oneShotCycle(world) {
  const before = procCpuMs(process.pid);
  const started = Date.now();
  const run = spawnSync(
    process.execPath,
    [bin, 'cycle', '--cwd', world.project, '--state', join(world.project, '..', 'hk-state', 'state.json'), '--json'],
    {
      env: world.env,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const wallMs = Date.now() - started;
  if (run.status !== 0 && run.status !== 1) throw new Error(`heartbeat-kit cycle exited ${run.status}: ${run.stderr}`);
  // Waited for by spawnSync: its CPU and its tools' is in this process' children's time now.
  return { cpuMs: procCpuMs(process.pid).withChildren - before.withChildren - (procCpuMs(process.pid).own - before.own), wallMs };
}

/** Registers `count` heartbeats, 500 at a time; resolves the seconds it took. */
async function register(scheduler, count, intervalMs, source) {
  const started = Date.now();
  for (let i = 0; i < count; i += 500) {
    const batch = [];
    for (let j = i; j < Math.min(count, i + 500); j += 1) batch.push(scheduler.add({ id: `hb-${j}`, intervalMs, source }));
    for (const added of await Promise.all(batch)) if (added.isErr()) throw new Error(added.error.message);
  }
  return (Date.now() - started) / 1000;
}

/** One measured run: `heartbeats` due every `intervalMs` on one worker process. */
async function measure({ backend, nodes, client, prefix, heartbeats, intervalMs, mode, world, idleCpu, workerFirst = false }) {
  const { warmup, seconds } = MODE[mode];
  const target = targetOf(backend.url);
  const scheduler = createFleetScheduler({ target, prefix });
  const before = await redisTotals(nodes);
  const source = mode === 'real' ? { kind: 'project', cwd: world.project } : { kind: 'scanners', set: 'fake', scanMs: 0, reportEvery: 5 };
  // A step starts its worker after registration (idle memory is then the schedules alone; the
  // warm-up absorbs the start). The big run registers while the worker runs, as a fleet grows:
  // slots that fall due during a long registration are run on time instead of piling up.
  const worker = workerFirst ? startWorker(backend.url, prefix, mode, world) : undefined;
  await worker?.ready;
  const registerSeconds = await register(scheduler, heartbeats, intervalMs, source);
  const idle = await redisTotals(nodes);
  const stepWorker = worker ?? startWorker(backend.url, prefix, mode, world);
  await stepWorker.ready;
  const from = Date.now() + warmup * 1000;
  const to = from + seconds * 1000;
  await sleep(from - Date.now());
  const atFrom = await redisTotals(nodes);
  const cpuFrom = stepWorker.cpu();
  await sleep(to - Date.now());
  const cpuTo = stepWorker.cpu();
  const running = await redisTotals(nodes);
  const keys = fleetKeys(prefix);
  const journalBytes = Number((await client.call('MEMORY', 'USAGE', keys.journal, 'SAMPLES', '0')) ?? 0);
  const { rssMiB } = await stepWorker.stop();
  const events = mode === 'real' ? stepWorker.events() : (await client.lrange(keys.journal, 0, -1)).map((line) => JSON.parse(line));
  const cycles = events.filter((e) => e.type === 'cycle' && e.startedAtMs >= from && e.startedAtMs < to);
  const lags = cycles.map((c) => c.startedAtMs - c.dueMs).sort((a, b) => a - b);
  // Stop scheduling so the next step starts from an idle Redis.
  for (let i = 0; i < heartbeats; i += 500)
    await Promise.all(Array.from({ length: Math.min(500, heartbeats - i) }, (_, k) => scheduler.remove(`hb-${i + k}`)));
  await scheduler.close();
  await client.del(keys.journal);
  const n = Math.max(1, cycles.length);
  const perCommand = commandsPerCycle(atFrom, running, n);
  const redisCpuMs = running.cpuMs - atFrom.cpuMs;
  return {
    mode,
    heartbeats,
    intervalMs,
    offeredPerSecond: (heartbeats * 1000) / intervalMs,
    cyclesPerSecond: cycles.length / seconds,
    lagP50Ms: percentile(lags, 50),
    lagP99Ms: percentile(lags, 99),
    // Over the measured window only (no start-up): the worker's own CPU, and with the tools it spawned.
    workerCpuMsPerCycle: (cpuTo.own - cpuFrom.own) / n,
    workerTreeCpuMsPerCycle: (cpuTo.withChildren - cpuFrom.withChildren) / n,
    cyclesPerWorkerCpuSecond: cycles.length / ((cpuTo.withChildren - cpuFrom.withChildren) / 1000),
    redisCpuMsPerCycle: redisCpuMs / n,
    redisNetCpuMsPerCycle: (redisCpuMs - idleCpu * seconds) / n,
    redisCommandsPerCycle: Object.values(perCommand).reduce((sum, c) => sum + c.calls, 0),
    // commandstats counts a script's own calls too (and their time inside the script's): so
    // "commands" includes those, and the time reported is the scripts' (EVAL/EVALSHA), whole.
    redisScriptsPerCycle: SCRIPT_COMMANDS.reduce((sum, name) => sum + (perCommand[name]?.calls ?? 0), 0),
    redisScriptUsecPerCycle: SCRIPT_COMMANDS.reduce((sum, name) => sum + (perCommand[name]?.usec ?? 0), 0),
    perCommand,
    // Socket reads and writes Redis did per cycle: how well commands were batched per round trip.
    redisReadsPerCycle: (running.reads - atFrom.reads) / n,
    redisWritesPerCycle: (running.writes - atFrom.writes) / n,
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
  `${backend.padEnd(14)} ${r.mode} ${String(r.heartbeats).padStart(6)} hb/${r.intervalMs} ms · offered ${r.offeredPerSecond.toFixed(0)}/s · ${r.cyclesPerSecond.toFixed(1)} cycles/s · lag p50 ${r.lagP50Ms} ms p99 ${r.lagP99Ms} ms · worker ${r.workerCpuMsPerCycle.toFixed(2)} CPU-ms/cycle${r.mode === 'real' ? ` (${r.workerTreeCpuMsPerCycle.toFixed(1)} with its tools)` : ''} = ${r.cyclesPerWorkerCpuSecond.toFixed(1)} cycles/worker-CPU-s · Redis ${r.redisCpuMsPerCycle.toFixed(2)} CPU-ms/cycle (${r.redisNetCpuMsPerCycle.toFixed(2)} net of idle), ${r.redisCommandsPerCycle.toFixed(1)} commands/cycle counting those inside ${r.redisScriptsPerCycle.toFixed(1)} scripts (${(r.redisScriptUsecPerCycle / 1000).toFixed(2)} ms in scripts), ${r.redisReadsPerCycle.toFixed(1)} socket reads/cycle · Redis ${r.redisIdleBytesPerHeartbeat} B/hb idle, ${r.redisRunningBytesPerHeartbeat} B running · register ${r.registerSeconds.toFixed(1)} s · worker RSS ${r.workerRssMiB} MiB · load ${r.load}`;

/** The step that best shows steady state: the busiest one within p99 ≤ 1 s, else the first. */
const reference = (steps) => steps.filter((r) => r.lagP99Ms <= 1000).at(-1) ?? steps[0];

const report = {
  bench: 'fleet-capacity',
  cpus: os.cpus().length,
  warmup: WARMUP,
  seconds: SECONDS,
  concurrency: CONCURRENCY,
  backends: {},
};
console.log(
  `fleet capacity · ${os.cpus().length} CPUs · load ${load()} · 1 worker process, concurrency ${CONCURRENCY} · modes ${MODES.join(', ')} · fake: ${WARMUP}s warm-up + ${SECONDS}s per step, real: ${MODE.real.warmup}s + ${MODE.real.seconds}s`,
);
const world = MODES.includes('real') ? await buildWorld() : undefined;
try {
  if (world !== undefined) {
    oneShotCycle(world);
    const runs = Array.from({ length: 5 }, () => oneShotCycle(world));
    const sorted = (xs) => [...xs].sort((a, b) => a - b);
    report.oneShot = { cpuMs: sorted(runs.map((r) => r.cpuMs))[2], wallMs: sorted(runs.map((r) => r.wallMs))[2], load: load() };
    console.log(
      `baseline: one \`heartbeat-kit cycle --cwd\` over the project (median of 5): ${report.oneShot.cpuMs.toFixed(0)} CPU-ms with its tools, ${report.oneShot.wallMs} ms wall · load ${report.oneShot.load}`,
    );
  }
  for (const name of BACKENDS) {
    const backend = await BACKEND_STARTERS[name]();
    const client = createRedisClient(targetOf(backend.url));
    client.on('error', () => undefined);
    const nodes = await backend.nodes();
    const idleCpu = await idleCpuMsPerSecond(nodes);
    console.log(`${name}: Redis idle ${idleCpu.toFixed(1)} CPU-ms/s over ${nodes.length} master(s) · load ${load()}`);
    const entry = { idleCpuMsPerSecond: idleCpu, modes: {} };
    report.backends[name] = entry;
    try {
      for (const mode of MODES) {
        const { steps: offered, intervalMs } = MODE[mode];
        const steps = [];
        for (const [index, rate] of offered.entries()) {
          const heartbeats = Math.max(1, Math.round((rate * intervalMs) / 1000));
          const row = await measure({
            backend,
            nodes,
            client,
            prefix: `cap-${mode}-${index}`,
            heartbeats,
            intervalMs,
            mode,
            world,
            idleCpu,
          });
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
          `${name} ${mode}: capacity ≈ ${capacity.toFixed(1)} cycles/s per worker process (${within.length > 0 ? 'lag p99 ≤ 1 s' : 'throughput while saturated: no step kept p99 ≤ 1 s'}; ${steps.at(-1).lagP99Ms > 1000 ? `p99 ${steps.at(-1).lagP99Ms} ms at ${steps.at(-1).offeredPerSecond}/s offered` : 'not saturated by the last step'})`,
        );
        entry.modes[mode] = { steps, capacity };
      }
      const fake = entry.modes.fake;
      const bigRate = Number(process.env.FLEET_CAPACITY_BIG_RATE ?? 0.8 * (fake?.capacity ?? 0));
      if (BIG > 0 && BIG_BACKENDS.includes(name) && bigRate > 0) {
        const intervalMs = Math.max(250, Math.round((BIG * 1000) / bigRate));
        const big = await measure({
          backend,
          nodes,
          client,
          prefix: 'big',
          heartbeats: BIG,
          intervalMs,
          mode: 'fake',
          world,
          idleCpu,
          workerFirst: true,
        });
        entry.big = big;
        console.log(line(name, big));
        console.log(
          `${name}: ${BIG} registered heartbeats at ${bigRate.toFixed(0)} cycles/s offered (every ${(intervalMs / 1000).toFixed(0)} s): registered in ${big.registerSeconds.toFixed(1)} s, lag p50 ${big.lagP50Ms} ms p99 ${big.lagP99Ms} ms, Redis ${big.redisUsedMiB} MiB`,
        );
      }
    } finally {
      for (const node of nodes) await closeRedisClient(node);
      await closeRedisClient(client);
      await backend.stop();
    }
  }
} finally {
  world?.destroy();
}

// Ratios against baselines measured in this run.
const ratio = (a, b) => (Number.isFinite(a / b) ? (a / b).toFixed(2) : 'n/a');
const base = report.backends.single ?? Object.values(report.backends)[0];
console.log(`\nload: ${load()}`);
console.log('| measure (the busiest step with p99 ≤ 1 s) | backend | value | baseline | ratio |');
console.log('|---|---|---|---|---|');
for (const mode of MODES) {
  const b = base?.modes[mode] && reference(base.modes[mode].steps);
  for (const [name, entry] of Object.entries(report.backends)) {
    const r = entry.modes[mode] && reference(entry.modes[mode].steps);
    if (r === undefined || b === undefined || entry === base) continue;
    console.log(
      `| ${mode}: Redis CPU-ms per cycle | ${name} | ${r.redisCpuMsPerCycle.toFixed(2)} | ${b.redisCpuMsPerCycle.toFixed(2)} (single) | ${ratio(r.redisCpuMsPerCycle, b.redisCpuMsPerCycle)} |`,
    );
    console.log(
      `| ${mode}: Redis CPU-ms per cycle, net of idle | ${name} | ${r.redisNetCpuMsPerCycle.toFixed(2)} | ${b.redisNetCpuMsPerCycle.toFixed(2)} (single) | ${ratio(r.redisNetCpuMsPerCycle, b.redisNetCpuMsPerCycle)} |`,
    );
    console.log(
      `| ${mode}: Redis commands per cycle | ${name} | ${r.redisCommandsPerCycle.toFixed(1)} | ${b.redisCommandsPerCycle.toFixed(1)} (single) | ${ratio(r.redisCommandsPerCycle, b.redisCommandsPerCycle)} |`,
    );
    console.log(
      `| ${mode}: Redis socket reads per cycle | ${name} | ${r.redisReadsPerCycle.toFixed(1)} | ${b.redisReadsPerCycle.toFixed(1)} (single) | ${ratio(r.redisReadsPerCycle, b.redisReadsPerCycle)} |`,
    );
    console.log(
      `| ${mode}: Redis µs in scripts per cycle | ${name} | ${r.redisScriptUsecPerCycle.toFixed(0)} | ${b.redisScriptUsecPerCycle.toFixed(0)} (single) | ${ratio(r.redisScriptUsecPerCycle, b.redisScriptUsecPerCycle)} |`,
    );
    console.log(
      `| ${mode}: worker CPU-ms per cycle | ${name} | ${r.workerCpuMsPerCycle.toFixed(2)} | ${b.workerCpuMsPerCycle.toFixed(2)} (single) | ${ratio(r.workerCpuMsPerCycle, b.workerCpuMsPerCycle)} |`,
    );
  }
}
for (const [name, entry] of Object.entries(report.backends)) {
  const real = entry.modes.real && reference(entry.modes.real.steps);
  const fake = entry.modes.fake && reference(entry.modes.fake.steps);
  if (real !== undefined && fake !== undefined)
    console.log(
      `| real / fake worker CPU-ms per cycle (with tools) | ${name} | ${real.workerTreeCpuMsPerCycle.toFixed(1)} | ${fake.workerTreeCpuMsPerCycle.toFixed(2)} (fake) | ${ratio(real.workerTreeCpuMsPerCycle, fake.workerTreeCpuMsPerCycle)} |`,
    );
  if (real !== undefined && report.oneShot !== undefined)
    console.log(
      `| real fleet cycle / one \`heartbeat-kit cycle\` process, CPU with tools | ${name} | ${real.workerTreeCpuMsPerCycle.toFixed(1)} | ${report.oneShot.cpuMs.toFixed(0)} (one-shot CLI) | ${ratio(real.workerTreeCpuMsPerCycle, report.oneShot.cpuMs)} |`,
    );
}
// Where the commands per cycle go, per backend: the investigation of the cluster's cost.
for (const mode of MODES) {
  const rows = Object.entries(report.backends).map(([name, entry]) => [name, entry.modes[mode] && reference(entry.modes[mode].steps)]);
  const names = [...new Set(rows.flatMap(([, r]) => Object.keys(r?.perCommand ?? {})))].sort();
  if (names.length === 0) continue;
  console.log(`\n${mode}: Redis commands per cycle (calls / µs in the command), the busiest step with p99 ≤ 1 s of each backend`);
  console.log(`| command | ${rows.map(([name]) => name).join(' | ')} |`);
  console.log(`|---|${rows.map(() => '---').join('|')}|`);
  for (const command of names)
    console.log(
      `| ${command} | ${rows.map(([, r]) => (r?.perCommand[command] ? `${r.perCommand[command].calls.toFixed(2)} / ${r.perCommand[command].usec.toFixed(0)}` : '')).join(' | ')} |`,
    );
}
console.log(JSON.stringify(report));
