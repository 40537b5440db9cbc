import { parseArgs, type ParseArgsConfig } from 'node:util';
import {
  MAX_FAKE_SCAN_MS,
  MAX_FLEET_INTERVAL_MS,
  MIN_FLEET_INTERVAL_MS,
  isFleetHeartbeatId,
  parseFleetHeartbeat,
  parseRedisUrl,
  redactRedisUrl,
  type FleetHeartbeat,
  type FleetHeartbeatInput,
  type RedisTarget,
} from '@heartbeat-kit/bullmq';
import {
  createFleetScheduler,
  createFleetWorker,
  createRedisClient,
  closeRedisClient,
  createRedisReceiptStore,
  fleetKeys,
  pingRedis,
  waitForRedis,
  type FleetHeartbeatStatus,
  type RedisProbeFailure,
} from '@heartbeat-kit/bullmq/node';
import { formatReceipt, judgeLiveness } from '@heartbeat-kit/core';
import { unknownNameError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo, Command } from '../io.js';
import { parseSinkSpec, type SinkSpec } from '../sinks/sink-spec.js';
import { resolvePath } from '../wiring/cycle-deps.js';
import { parseDurationFlag } from '../wiring/duration-flag.js';
import { parseInstantFlag } from '../wiring/instant.js';
import { parseSince } from './history.js';
import { createFleetSink } from './fleet/fleet-sink.js';
import { createProjectResolver } from './fleet/project-resolver.js';

const COMMON = `Common options:
  --redis URL        redis://127.0.0.1:6379 (default), redis://:PASSWORD@HOST:PORT,
                     unix:///path/redis.sock[?password=PASSWORD] or redis+unix://…
                     (or set HEARTBEAT_KIT_REDIS)
  --prefix NAME      key prefix of the fleet in Redis (default: hbk)
  --json             print JSON
  -h, --help         show this help`;

/** Help text of `heartbeat-kit fleet`. */
export const FLEET_HELP = `Usage: heartbeat-kit fleet <worker|add|list|remove|status|history|liveness> [options]

Runs many heartbeats on Redis with BullMQ: workers share schedules, locks, dedup memory and
delivery. Each due slot runs once, a heartbeat never runs two cycles at once, and a report is
remembered only after the sink confirmed it.

Subcommands:
  worker    process due slots and deliver reports until SIGINT/SIGTERM
  add       register (or update) a heartbeat: an id, a project directory, an interval
  list      the registered heartbeats
  remove    unregister a heartbeat and stop its schedule
  status    per heartbeat: last cycle, next slot, lag, last report
  history   one heartbeat's receipts: one record per slot, ran or skipped with the reason
  liveness  exit 0 when one heartbeat ran recently, else 1 with the reason (for a monitor)

Run 'heartbeat-kit fleet <subcommand> --help' for its options.
`;

const HELP: Record<Subcommand, string> = {
  worker: `Usage: heartbeat-kit fleet worker [--redis URL] [--concurrency N] [options]

Processes the fleet's slots, cycles and outbox until SIGINT/SIGTERM. Start one per core or host.

Options:
  --concurrency N    jobs per queue at once (default 4)
  --sink SPEC        stdout (default) | file:PATH (JSONL with heartbeat and message id) |
                     webhook:URL | command:CMD
  --fake-scanners    scan with in-memory fake scanners instead of the projects (tests, benchmarks)
  --lock-ttl D       lease of a heartbeat lock (30s, 2m, or seconds), renewed while a cycle runs (default 30)
${COMMON}

With --json the worker prints each event (cycle, skip, failed, stale-write, delivered, sink-breaker) as
one JSON line on stderr; messages still go to --sink.

Sink circuit breaker, per heartbeat (its HEARTBEAT.md Breaker after / Breaker back-off cap): deliveries
failing the same way (HTTP 503, exit 1, …) in that many of the heartbeat's cycles in a row print one
SINK_FAILING advisory on stderr; its messages then stay in the outbox and are tried only every 2nd, 4th,
… cycle up to the cap (its receipts say delivery held), never dropped; the first delivery that works
prints one recovered line and the held messages go out.

Started while Redis is down, the worker waits for it: retries after 1 s, 2 s, 4 s … up to 30 s
apart, each retry on stderr, for up to 10 min (then exit 3); Ctrl-C stops the wait. A Redis that
refuses the password exits 3 at once with the fix.

Exit codes: 0 stopped by SIGINT/SIGTERM, 2 usage error, 3 Redis unreachable or credentials refused.
`,
  add: `Usage: heartbeat-kit fleet add ID (--cwd DIR | --scanners fake) [--interval D] [options]

Registers heartbeat ID (letters, digits, '.', '_', '-'; no '__') and schedules it.

Options:
  --cwd DIR          project to scan with the real scanners and its .claude/HEARTBEAT.md
  --scanners fake    in-memory fake scanners instead of a project
  --scan-ms N        fake scanners: how long a scan takes (default 0)
  --report-every N   fake scanners: a new finding every N slots (default 5; 0 = quiet)
  --interval D       time between slots: 10m, 1h, or seconds (default 600, minimum ${MIN_FLEET_INTERVAL_MS / 1000})
${COMMON}
`,
  list: `Usage: heartbeat-kit fleet list [options]

Lists the registered heartbeats.

${COMMON}
`,
  remove: `Usage: heartbeat-kit fleet remove ID [options]

Unregisters heartbeat ID and removes its schedule. Its state stays in Redis.

${COMMON}
`,
  history: `Usage: heartbeat-kit fleet history ID [--since WHEN] [options]

Lists heartbeat ID's receipts, oldest first: every slot ends in one record, 'ran' (cycle number,
HEARTBEAT_OK or report, delivery 'queued' when the outbox holds the report) or 'skipped' with its
reason (overlapping: an earlier slot still ran; down: no worker committed it; config-error).
Kept in Redis per heartbeat, bounded to the last 200 records and 7 days.

Options:
  --since WHEN       only receipts at or after WHEN: an ISO instant or a duration back from
                     now such as 24h or 90m
  --now ISO          judge ages as at this instant
${COMMON}

With --json prints {"receipts": [...], "warnings": [...]}.
`,
  liveness: `Usage: heartbeat-kit fleet liveness ID [--max-age DURATION] [options]

Watches one fleet heartbeat as 'check-liveness' watches a loop: exits 0 when its newest 'ran'
receipt is at most --max-age old, else 1 with the reason (no worker commits its slots, every
recent slot was skipped and why, or it never ran). For a cron monitor or a Kubernetes probe
beside the workers.

Options:
  --max-age DURATION how old the last run may be, e.g. 30m or 2h (default: 3 × its interval)
  --now ISO          judge as at this instant
${COMMON}

With --json prints {"live": …, "reason"?, "message", "lastRan"?}.

Exit codes: 0 alive, 1 not alive (reason on stdout), 2 usage error, 3 Redis unreachable or failed.
`,
  status: `Usage: heartbeat-kit fleet status [options]

Per heartbeat: last cycle, next slot, lag of the last cycle behind its slot, last report.

${COMMON}
`,
};

type Subcommand = 'worker' | 'add' | 'list' | 'remove' | 'status' | 'history' | 'liveness';
const SUBCOMMANDS: readonly Subcommand[] = ['worker', 'add', 'list', 'remove', 'status', 'history', 'liveness'];

const OPTIONS = {
  redis: { type: 'string' },
  prefix: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  concurrency: { type: 'string' },
  sink: { type: 'string' },
  'fake-scanners': { type: 'boolean' },
  'lock-ttl': { type: 'string' },
  cwd: { type: 'string' },
  scanners: { type: 'string' },
  'scan-ms': { type: 'string' },
  'report-every': { type: 'string' },
  interval: { type: 'string' },
  since: { type: 'string' },
  now: { type: 'string' },
  'max-age': { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

const ALLOWED: Record<Subcommand, readonly (keyof typeof OPTIONS)[]> = {
  worker: ['concurrency', 'sink', 'fake-scanners', 'lock-ttl'],
  add: ['cwd', 'scanners', 'scan-ms', 'report-every', 'interval'],
  list: [],
  remove: [],
  status: [],
  history: ['since', 'now'],
  liveness: ['max-age', 'now'],
};
const POSITIONALS: Record<Subcommand, number> = { worker: 0, add: 1, list: 0, remove: 1, status: 0, history: 1, liveness: 1 };

function usageError(io: CliIo, sub: string, message: string): number {
  io.stderr(`heartbeat-kit fleet${sub === '' ? '' : ` ${sub}`}: ${message}\n`);
  return EXIT.usage;
}

function parseNumber(
  text: string | undefined,
  flag: string,
  min: number,
): { ok: true; value: number | undefined } | { ok: false; message: string } {
  if (text === undefined) return { ok: true, value: undefined };
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < min)
    return { ok: false, message: `${flag} "${text}" must be a number ≥ ${min}. Fix: e.g. ${flag} ${Math.max(min, 1)}` };
  return { ok: true, value };
}

const relative = (ms: number | undefined): string => (ms === undefined ? '-' : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 0)}s`);

function statusLine(entry: FleetHeartbeatStatus): string {
  const { heartbeat } = entry;
  return [
    heartbeat.id.padEnd(20),
    `every ${relative(heartbeat.intervalMs)}`.padEnd(12),
    `cycle ${entry.lastCycle ?? '-'}`.padEnd(11),
    `at ${entry.lastCycleAt ?? '-'}`.padEnd(28),
    `lag ${relative(entry.lastLagMs)}`.padEnd(11),
    `next ${entry.nextSlotAt ?? '-'}`.padEnd(30),
    `report ${entry.lastReportAt === undefined ? '-' : `${entry.lastReportAt} ${entry.lastReportSummary ?? ''}`}`,
  ].join(' ');
}

function describeSource(heartbeat: FleetHeartbeat): string {
  return heartbeat.source.kind === 'project' ? heartbeat.source.cwd : `scanners:${heartbeat.source.set}`;
}

// How long a worker started during a Redis outage waits for it before exiting 3.
const WORKER_REDIS_WAIT_MS = 10 * 60_000;

/** The one stderr line for a Redis that cannot be used, with the fix that matches the cause. */
function redisFailureLine(sub: string, shown: string, failure: RedisProbeFailure): string {
  const why = failure.message.replace(/\.$/, '');
  if (failure.kind === 'auth') {
    return `heartbeat-kit fleet ${sub}: Redis at ${shown} refused the credentials (authentication error: ${why}). Fix: put the server's password in the URL: redis://:PASSWORD@HOST:6379 (redis://USER:PASSWORD@… for an ACL user; unix:///path/redis.sock?password=PASSWORD for a socket), via --redis or HEARTBEAT_KIT_REDIS.\n`;
  }
  const gaveUp = sub === 'worker' ? ` (gave up after ${WORKER_REDIS_WAIT_MS / 60_000} min of retries)` : '';
  return `heartbeat-kit fleet ${sub}: cannot reach Redis at ${shown}${gaveUp}: ${why}. Fix: start redis-server or pass --redis URL.\n`;
}

/** `heartbeat-kit fleet`: BullMQ workers and the fleet's registrations. */
export const fleetCommand: Command = async (argv, io) => {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(FLEET_HELP);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const sub = SUBCOMMANDS.find((candidate) => candidate === name);
  if (sub === undefined) {
    unknownNameError(io, 'fleet', 'subcommand', name, SUBCOMMANDS);
    return EXIT.usage;
  }

  let parsed;
  try {
    parsed = parseArgs({ args: [...rest], options: OPTIONS, strict: true, allowPositionals: true });
  } catch (error) {
    return usageError(io, sub, `${(error as Error).message}. Fix: see 'heartbeat-kit fleet ${sub} --help'.`);
  }
  const { values, positionals } = parsed;
  if (values.help === true) {
    io.stdout(HELP[sub]);
    return EXIT.ok;
  }
  const foreign = (Object.keys(values) as (keyof typeof OPTIONS)[]).filter(
    (key) => !['redis', 'prefix', 'json', 'help'].includes(key) && !ALLOWED[sub].includes(key),
  );
  if (foreign.length > 0)
    return usageError(io, sub, `--${foreign[0]} does not apply to '${sub}'. Fix: see 'heartbeat-kit fleet ${sub} --help'.`);
  if (positionals.length !== POSITIONALS[sub]) {
    return usageError(
      io,
      sub,
      POSITIONALS[sub] === 1
        ? `needs exactly one heartbeat ID. Fix: heartbeat-kit fleet ${sub} my-repo …`
        : `takes no arguments (got '${positionals[0]}'). Fix: see 'heartbeat-kit fleet ${sub} --help'.`,
    );
  }
  const target = parseRedisUrl(values.redis ?? io.env.HEARTBEAT_KIT_REDIS ?? 'redis://127.0.0.1:6379');
  if (target.isErr()) return usageError(io, sub, `--redis: ${target.error}`);
  const prefix = values.prefix ?? 'hbk';
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(prefix))
    return usageError(io, sub, `--prefix "${prefix}" is not a key prefix. Fix: use letters, digits, '.', '_' or '-'.`);
  const json = values.json === true;
  // Every flag and argument is read before Redis is contacted: a typo is a usage error naming the
  // flag, never a connection failure or a worker waiting 10 minutes for a Redis it will not use.
  const request = readRequest(sub, positionals[0], values, io.cwd);
  if (!request.ok) return usageError(io, sub, request.message);
  const shown = redactRedisUrl(values.redis ?? io.env.HEARTBEAT_KIT_REDIS ?? 'redis://127.0.0.1:6379');
  // Commands fail fast on a wrong URL. A worker started during a Redis outage waits for it
  // (bounded backoff, every retry logged, Ctrl-C stops it); once running, its connections ride
  // out restarts on their own. A refused password is never retried: waiting cannot fix it.
  const reachable =
    sub === 'worker'
      ? await waitForRedis(target.value, {
          signal: io.shutdownSignal,
          maxWaitMs: WORKER_REDIS_WAIT_MS,
          onRetry: (failure, attempt, delayMs) =>
            io.stderr(
              `heartbeat-kit fleet worker: cannot reach Redis at ${shown} (attempt ${attempt}): ${failure.message.replace(/\.$/, '')}; retrying in ${Math.round(delayMs / 100) / 10}s (gives up after ${WORKER_REDIS_WAIT_MS / 60_000} min; Ctrl-C stops)\n`,
            ),
        })
      : await pingRedis(target.value);
  if (sub === 'worker' && io.shutdownSignal.aborted) {
    // Stopped on purpose (Ctrl-C, SIGTERM) while waiting: that is a clean stop, not a failure.
    io.stderr(`heartbeat-kit fleet worker: stopped while waiting for Redis at ${shown}\n`);
    return EXIT.ok;
  }
  if (reachable.isErr()) {
    io.stderr(redisFailureLine(sub, shown, reachable.error));
    return EXIT.failure;
  }

  return dispatch(io, target.value, prefix, request.value, json);
};

type Values = { readonly [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]['type'] extends 'boolean' ? boolean : string };

/** What one fleet subcommand was asked to do, every flag and argument already checked. */
type FleetRequest =
  | { readonly sub: 'worker'; readonly worker: WorkerOptions }
  | { readonly sub: 'add'; readonly heartbeat: FleetHeartbeatInput }
  | { readonly sub: 'remove'; readonly id: string }
  | { readonly sub: 'list' | 'status' }
  | { readonly sub: 'history'; readonly id: string; readonly at: Date; readonly sinceMs: number }
  | { readonly sub: 'liveness'; readonly id: string; readonly at: Date; readonly maxAgeMs: number | undefined };

type Checked<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

const NOT_AN_ID = (id: string): string =>
  `"${id}" is not a heartbeat ID. Fix: use letters, digits, '.', '_' or '-' (no '__'), e.g. my-repo.`;

/** Reads and checks the subcommand's flags and ID, or the usage error naming the flag and the fix. */
function readRequest(sub: Subcommand, id: string | undefined, values: Values, cwd: string): Checked<FleetRequest> {
  switch (sub) {
    case 'worker': {
      const worker = readWorkerFlags(values);
      return worker.ok ? { ok: true, value: { sub, worker: worker.value } } : worker;
    }
    case 'add': {
      const heartbeat = readAddFlags(id!, values, cwd);
      return heartbeat.ok ? { ok: true, value: { sub, heartbeat: heartbeat.value } } : heartbeat;
    }
    case 'remove':
      return isFleetHeartbeatId(id!) ? { ok: true, value: { sub, id: id! } } : { ok: false, message: NOT_AN_ID(id!) };
    case 'list':
    case 'status':
      return { ok: true, value: { sub } };
    case 'history':
    case 'liveness': {
      const history = readHistoryFlags(id!, values);
      if (!history.ok) return history;
      if (sub === 'history') return { ok: true, value: { sub, id: id!, at: history.at, sinceMs: history.sinceMs } };
      const maxAge = parseDurationFlag('--max-age', values['max-age'], { unit: 'm', example: '30m' });
      return maxAge.ok ? { ok: true, value: { sub, id: id!, at: history.at, maxAgeMs: maxAge.ms } } : maxAge;
    }
  }
}

/** Runs a checked request against a Redis that answered. */
function dispatch(io: CliIo, target: RedisTarget, prefix: string, request: FleetRequest, json: boolean): Promise<number> {
  switch (request.sub) {
    case 'worker':
      return runWorker(io, target, prefix, request.worker, json);
    case 'add':
      return addHeartbeat(io, target, prefix, request.heartbeat, json);
    case 'history':
      return showHistory(io, target, prefix, request.id, request, json);
    case 'liveness':
      return checkLiveness(io, target, prefix, request.id, request.at, request.maxAgeMs, json);
    case 'remove':
      return administer(io, target, prefix, 'remove', request.id, json);
    case 'list':
    case 'status':
      return administer(io, target, prefix, request.sub, undefined, json);
  }
}

/** A worker's checked flags. */
interface WorkerOptions {
  readonly concurrency: number | undefined;
  readonly lockTtlMs: number | undefined;
  readonly sink: SinkSpec;
  readonly fakeScanners: boolean;
}

function readWorkerFlags(values: Values): Checked<WorkerOptions> {
  const concurrency = parseNumber(values.concurrency, '--concurrency', 1);
  if (!concurrency.ok) return concurrency;
  const lockTtl = parseDurationFlag('--lock-ttl', values['lock-ttl'], { unit: 's', example: '30s', minMs: 1000 });
  if (!lockTtl.ok) return lockTtl;
  const sink = parseSinkSpec(values.sink ?? 'stdout');
  if (sink.isErr()) return { ok: false, message: sink.error.message };
  return {
    ok: true,
    value: {
      concurrency: concurrency.value === undefined ? undefined : Math.floor(concurrency.value),
      lockTtlMs: lockTtl.ms,
      sink: sink.value,
      fakeScanners: values['fake-scanners'] === true,
    },
  };
}

async function runWorker(io: CliIo, target: RedisTarget, prefix: string, options: WorkerOptions, json: boolean): Promise<number> {
  const worker = createFleetWorker({
    target,
    prefix,
    sink: createFleetSink(options.sink, io),
    resolve: createProjectResolver(io, options.fakeScanners),
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    ...(options.lockTtlMs === undefined ? {} : { lockTtlMs: options.lockTtlMs }),
    onEvent: (event) => {
      if (json) io.stderr(`${JSON.stringify(event)}\n`);
      else if (event.type === 'failed')
        io.stderr(`heartbeat-kit fleet worker: ${event.heartbeatId} slot ${event.slot} failed: ${event.message}\n`);
      else if (event.type === 'cycle' && event.warnings !== undefined)
        for (const warning of event.warnings)
          io.stderr(`heartbeat-kit fleet worker: ${event.heartbeatId} cycle ${event.cycle}: warning: ${warning}\n`);
      else if (event.type === 'sink-breaker' && event.kind !== 'held')
        // The operator's channel is stderr: the sink that fails cannot carry its own advisory.
        io.stderr(
          `heartbeat-kit fleet worker: ${event.heartbeatId}: ${event.advisory === undefined ? event.line : `${event.advisory.line}\n  Action: ${event.advisory.action}`}\n`,
        );
      else if (event.type === 'stale-write')
        io.stderr(
          `heartbeat-kit fleet worker: ${event.heartbeatId} slot ${event.slot}: lost the lock (fence ${event.fence} < ${event.current}); write rejected\n`,
        );
    },
  });
  io.stderr(`heartbeat-kit fleet worker: ${worker.id} running (prefix ${prefix}); stop with Ctrl-C\n`);
  if (!io.shutdownSignal.aborted)
    await new Promise<void>((resolve) => io.shutdownSignal.addEventListener('abort', () => resolve(), { once: true }));
  await worker.close();
  return EXIT.ok;
}

/** The instant `history` judges ages at and the start of its window, or the usage error. */
function readHistoryFlags(
  id: string,
  values: Values,
): { readonly ok: true; readonly at: Date; readonly sinceMs: number } | { readonly ok: false; readonly message: string } {
  if (!isFleetHeartbeatId(id)) return { ok: false, message: NOT_AN_ID(id) };
  const now = parseInstantFlag('--now', values.now);
  if (!now.ok) return now;
  const at = now.date ?? new Date();
  if (values.since === undefined) return { ok: true, at, sinceMs: Number.NEGATIVE_INFINITY };
  const since = parseSince(values.since, at);
  return since.ok ? { ok: true, at, sinceMs: since.ms } : since;
}

async function showHistory(
  io: CliIo,
  target: RedisTarget,
  prefix: string,
  id: string,
  { at, sinceMs }: { readonly at: Date; readonly sinceMs: number },
  json: boolean,
): Promise<number> {
  const redis = createRedisClient(target);
  try {
    const key = fleetKeys(prefix).receipts(id);
    const listed = await createRedisReceiptStore({ redis, key, clock: { now: () => at } }).list();
    if (listed.isErr()) {
      io.stderr(`heartbeat-kit fleet history: ${listed.error.message}. Fix: check --redis and that redis-server runs.\n`);
      return EXIT.failure;
    }
    const receipts = listed.value.receipts.filter((r) => Date.parse(r.slot) >= sinceMs);
    for (const warning of listed.value.warnings) io.stderr(`heartbeat-kit fleet history: warning: ${warning}\n`);
    if (json) io.stdout(`${JSON.stringify({ receipts, warnings: listed.value.warnings })}\n`);
    else if (receipts.length === 0)
      io.stdout(
        `no receipts for ${id}${sinceMs === Number.NEGATIVE_INFINITY ? '' : ` since ${new Date(sinceMs).toISOString()}`} (prefix ${prefix})\n`,
      );
    else for (const receipt of receipts) io.stdout(`${formatReceipt(receipt)}\n`);
    return EXIT.ok;
  } finally {
    await closeRedisClient(redis);
  }
}

/** `fleet liveness`: core's liveness verdict over one heartbeat's receipts in Redis. */
async function checkLiveness(
  io: CliIo,
  target: RedisTarget,
  prefix: string,
  id: string,
  at: Date,
  maxAgeOption: number | undefined,
  json: boolean,
): Promise<number> {
  const failed = (message: string): number => {
    io.stderr(`heartbeat-kit fleet liveness: Redis failed: ${message}. Fix: check --redis and that redis-server runs.\n`);
    return EXIT.failure;
  };
  let maxAgeMs = maxAgeOption;
  if (maxAgeMs === undefined) {
    const scheduler = createFleetScheduler({ target, prefix });
    try {
      const listed = await scheduler.list();
      if (listed.isErr()) return failed(listed.error.message);
      const heartbeat = listed.value.find((h) => h.id === id);
      if (heartbeat === undefined)
        return usageError(
          io,
          'liveness',
          `${id} is not registered (prefix ${prefix}). Fix: check the ID with 'heartbeat-kit fleet list', or pass --max-age.`,
        );
      maxAgeMs = 3 * heartbeat.intervalMs;
    } finally {
      await scheduler.close();
    }
  }
  const redis = createRedisClient(target);
  try {
    const listed = await createRedisReceiptStore({ redis, key: fleetKeys(prefix).receipts(id), clock: { now: () => at } }).list();
    if (listed.isErr()) return failed(listed.error.message);
    for (const warning of listed.value.warnings) io.stderr(`heartbeat-kit fleet liveness: warning: ${warning}\n`);
    const verdict = judgeLiveness(listed.value.receipts, {
      nowMs: at.getTime(),
      maxAgeMs,
      terms: { run: 'fleet cycle', lock: 'fleet lock' },
    });
    const message = verdict.live
      ? `alive: ${id} cycle #${verdict.lastRan.cycle} ran at ${verdict.lastRan.slot} (${relative(verdict.ageMs)} ago, max ${relative(maxAgeMs)})`
      : `not alive (${verdict.reason}): ${id}: ${verdict.message}`;
    const notes = verdict.live ? verdict.notes : [];
    if (json)
      io.stdout(
        `${JSON.stringify(verdict.live ? { live: true, message, lastRan: verdict.lastRan, notes } : { live: false, reason: verdict.reason, message, ...(verdict.lastRan ? { lastRan: verdict.lastRan } : {}) })}\n`,
      );
    else io.stdout(`${[message, ...notes.map((note) => `  note: ${note}`)].join('\n')}\n`);
    return verdict.live ? EXIT.ok : EXIT.rejected;
  } finally {
    await closeRedisClient(redis);
  }
}

/** The registration `fleet add` asks for, checked as the scheduler will check it. */
function readAddFlags(id: string, values: Values, cwd: string): Checked<FleetHeartbeatInput> {
  if (!isFleetHeartbeatId(id)) return { ok: false, message: NOT_AN_ID(id) };
  const interval = parseDurationFlag('--interval', values.interval, {
    unit: 's',
    example: '10m',
    minMs: MIN_FLEET_INTERVAL_MS,
    maxMs: MAX_FLEET_INTERVAL_MS,
  });
  if (!interval.ok) return interval;
  const scanMs = parseDurationFlag('--scan-ms', values['scan-ms'], {
    unit: 'ms',
    example: '250',
    allowZero: true,
    maxMs: MAX_FAKE_SCAN_MS,
  });
  if (!scanMs.ok) return scanMs;
  const reportEvery = parseNumber(values['report-every'], '--report-every', 0);
  if (!reportEvery.ok) return reportEvery;
  if ((values.cwd === undefined) === (values.scanners === undefined))
    return {
      ok: false,
      message: 'give exactly one of --cwd DIR or --scanners fake. Fix: heartbeat-kit fleet add my-repo --cwd ~/src/my-repo',
    };
  if (values.scanners !== undefined && values.scanners !== 'fake')
    return { ok: false, message: `unknown scanner set "${values.scanners}". Fix: --scanners fake, or --cwd DIR for the real scanners.` };
  if (values.cwd !== undefined && (values['scan-ms'] !== undefined || values['report-every'] !== undefined))
    return {
      ok: false,
      message: '--scan-ms and --report-every only apply to --scanners fake. Fix: drop them, or use --scanners fake instead of --cwd.',
    };
  const input: FleetHeartbeatInput = {
    id,
    intervalMs: interval.ms ?? 600_000,
    source:
      values.cwd !== undefined
        ? { kind: 'project', cwd: resolvePath(cwd, values.cwd) }
        : {
            kind: 'scanners',
            set: 'fake',
            ...(scanMs.ms === undefined ? {} : { scanMs: scanMs.ms }),
            ...(reportEvery.value === undefined ? {} : { reportEvery: Math.floor(reportEvery.value) }),
          },
  };
  // The scheduler checks the registration again; anything the flags above let through is still a usage error here.
  const checked = parseFleetHeartbeat(input);
  return checked.isOk()
    ? { ok: true, value: input }
    : { ok: false, message: `${checked.error}. Fix: see 'heartbeat-kit fleet add --help'.` };
}

async function addHeartbeat(io: CliIo, target: RedisTarget, prefix: string, input: FleetHeartbeatInput, json: boolean): Promise<number> {
  const { id } = input;
  const scheduler = createFleetScheduler({ target, prefix });
  try {
    const added = await scheduler.add(input);
    if (added.isErr()) {
      if (added.error.kind === 'invalid') return usageError(io, 'add', `${added.error.message}.`);
      io.stderr(`heartbeat-kit fleet add: Redis failed: ${added.error.message}. Fix: check --redis and that redis-server runs.\n`);
      return EXIT.failure;
    }
    io.stdout(
      json ? `${JSON.stringify(added.value)}\n` : `added ${id}: every ${added.value.intervalMs / 1000}s, ${describeSource(added.value)}\n`,
    );
    return EXIT.ok;
  } finally {
    await scheduler.close();
  }
}

async function administer(
  io: CliIo,
  target: RedisTarget,
  prefix: string,
  sub: 'list' | 'remove' | 'status',
  id: string | undefined,
  json: boolean,
): Promise<number> {
  const scheduler = createFleetScheduler({ target, prefix });
  const failed = (message: string): number => {
    io.stderr(`heartbeat-kit fleet ${sub}: Redis failed: ${message}. Fix: check --redis and that redis-server runs.\n`);
    return EXIT.failure;
  };
  try {
    if (sub === 'remove') {
      const removed = await scheduler.remove(id!);
      if (removed.isErr()) return failed(removed.error.message);
      if (json) io.stdout(`${JSON.stringify({ id, removed: removed.value })}\n`);
      else io.stdout(removed.value ? `removed ${id}\n` : `${id} was not registered\n`);
      return removed.value ? EXIT.ok : EXIT.rejected;
    }
    if (sub === 'list') {
      const listed = await scheduler.list();
      if (listed.isErr()) return failed(listed.error.message);
      if (json) io.stdout(`${JSON.stringify(listed.value)}\n`);
      else
        io.stdout(
          listed.value.length === 0
            ? 'no heartbeats registered\n'
            : listed.value.map((h) => `${h.id.padEnd(20)} every ${h.intervalMs / 1000}s  ${describeSource(h)}\n`).join(''),
        );
      return EXIT.ok;
    }
    const status = await scheduler.status();
    if (status.isErr()) return failed(status.error.message);
    if (json) io.stdout(`${JSON.stringify(status.value)}\n`);
    else
      io.stdout(status.value.length === 0 ? 'no heartbeats registered\n' : status.value.map((entry) => `${statusLine(entry)}\n`).join(''));
    return EXIT.ok;
  } finally {
    await scheduler.close();
  }
}
