// The flags of every `heartbeat-kit fleet` subcommand, declared once for the command kernel: the
// common ones (the Redis and how to print) and each subcommand's own, with their help lines.
import { MIN_FLEET_INTERVAL_MS } from '@heartbeat-kit/bullmq';
import type { FlagSpecs, FlagValues } from '../../cli-kernel/index.js';

/** A `heartbeat-kit fleet` subcommand. */
export type Subcommand = 'worker' | 'add' | 'list' | 'remove' | 'status' | 'history' | 'liveness' | 'ack' | 'unack' | 'pause' | 'resume';

const GROUP = 'Common options';

/** The flags every subcommand takes, listed under "Common options:". */
export const COMMON_FLAGS = {
  redis: {
    type: 'string',
    value: 'URL',
    group: GROUP,
    help: `redis://127.0.0.1:6379 (default), redis://:PASSWORD@HOST:PORT,
unix:///path/redis.sock[?password=PASSWORD] or redis+unix://…
(or set HEARTBEAT_KIT_REDIS); several comma-separated
redis:// nodes (redis://H1:7000,redis://H2:7001) mean a Redis Cluster`,
  },
  'redis-cluster': { type: 'boolean', group: GROUP, help: 'treat --redis as a seed node of a Redis Cluster even when it names one' },
  prefix: { type: 'string', value: 'NAME', group: GROUP, help: 'key prefix of the fleet in Redis (default: hbk)' },
  json: { type: 'boolean', group: GROUP, help: 'print JSON' },
} as const satisfies FlagSpecs;

const WORKER_FLAGS = {
  concurrency: { type: 'string', value: 'N', help: 'jobs per queue at once (default 4)' },
  sink: {
    type: 'string',
    value: 'SPEC',
    help: `stdout (default) | file:PATH (JSONL with heartbeat and message id) |
webhook:URL | command:CMD | tmux:SESSION[:WINDOW.PANE] (a held
message stays in the outbox and is retried)`,
  },
  'fake-scanners': { type: 'boolean', help: 'scan with in-memory fake scanners instead of the projects (tests, benchmarks)' },
  'lock-ttl': {
    type: 'string',
    value: 'D',
    help: 'lease of a heartbeat lock (30s, 2m, or seconds), renewed while a cycle runs (default 30)',
  },
  'tick-watchdog': {
    type: 'string',
    value: 'D',
    help: `how often to look for a heartbeat whose ticks stopped (a Redis failover can
lose the write that schedules the next one) and schedule it again at its
place (30s, 2m, or seconds; 0 = off; default 30)`,
  },
  'min-replica-acks': {
    type: 'string',
    value: 'N',
    help: `replicas that must confirm each new lock fence (Redis WAIT) before a cycle runs
(default 0). 1 on a Redis Cluster with a replica per master: a failover then
never hands out a fence a cycle already acted on; a master without a replica
takes no locks until one is back`,
  },
  'metrics-textfile': {
    type: 'string',
    value: 'PATH',
    help: `write this worker's figures (jobs, cycles, findings, messages, durations,
schedule lag, queue depths) to PATH (*.prom, node_exporter's textfile format),
replaced atomically after every job and every 15 s; one file per worker`,
  },
  'metrics-listen': {
    type: 'string',
    value: 'HOST:PORT',
    help: `serve the same figures at http://HOST:PORT/metrics (loopback only; port 0:
any free port, said on stderr). See docs/metrics.md, "Fleet workers"`,
  },
  'metrics-listen-public': {
    type: 'boolean',
    help: 'let --metrics-listen take a non-loopback address (the figures name categories)',
  },
} as const satisfies FlagSpecs;

const ADD_FLAGS = {
  cwd: { type: 'string', value: 'DIR', help: 'project to scan with the real scanners and its .claude/HEARTBEAT.md' },
  scanners: { type: 'string', value: 'fake', help: 'in-memory fake scanners instead of a project' },
  'scan-ms': { type: 'string', value: 'N', help: 'fake scanners: how long a scan takes (default 0)' },
  'report-every': { type: 'string', value: 'N', help: 'fake scanners: a new finding every N slots (default 5; 0 = quiet)' },
  interval: {
    type: 'string',
    value: 'D',
    help: `time between slots: 10m, 1h, or seconds (default 600, minimum ${MIN_FLEET_INTERVAL_MS / 1000})`,
  },
} as const satisfies FlagSpecs;

const HISTORY_FLAGS = {
  since: {
    type: 'string',
    value: 'WHEN',
    help: `only receipts at or after WHEN: an ISO instant or a duration back from
now such as 24h or 90m`,
  },
  now: { type: 'string', value: 'ISO', help: 'judge ages as at this instant' },
} as const satisfies FlagSpecs;

const LIVENESS_FLAGS = {
  'max-age': { type: 'string', value: 'DURATION', help: 'how old the last run may be, e.g. 30m or 2h (default: 3 × its interval)' },
  now: { type: 'string', value: 'ISO', help: 'judge as at this instant' },
} as const satisfies FlagSpecs;

const ACK_FLAGS = {
  note: { type: 'string', value: 'TEXT', help: 'why (required, 1–500 characters)' },
  for: { type: 'string', value: 'DURATION', help: 'the ack ends after this long, e.g. 4h (a bare number is hours)' },
  until: { type: 'string', value: 'ISO', help: 'the ack ends at this instant (must be after now)' },
  snooze: { type: 'boolean', help: 'also end it when the finding clears and comes back' },
  by: { type: 'string', value: 'NAME', help: 'who acknowledges (default: $USER)' },
  list: { type: 'boolean', help: "list heartbeat ID's acks instead" },
  now: { type: 'string', value: 'ISO', help: 'rehearse as at this instant: print the ack it would write, write nothing' },
} as const satisfies FlagSpecs;

const PAUSE_FLAGS = {
  note: { type: 'string', value: 'TEXT', help: 'why, in one line (required, 1–500 characters): shown in every paused receipt' },
  for: { type: 'string', value: 'DURATION', help: 'end the pause after this long, e.g. 2h or 90m (a bare number is hours)' },
  until: {
    type: 'string',
    value: 'ISO',
    help: `end the pause at this instant (must be later than now)
(neither: the pause lasts until 'heartbeat-kit fleet resume ID')`,
  },
  scanner: {
    type: 'string',
    multiple: true,
    value: 'NAME',
    help: `pause only this scanner (repeatable): the others run, and each ran receipt
names the pause`,
  },
  'except-critical': {
    type: 'boolean',
    help: `slots still run but report only P0/P1 (Immediate) findings, orchestrator
failures and GChat replies`,
  },
  now: { type: 'string', value: 'ISO', help: 'rehearse as at this instant: print the pause it would write, write nothing' },
} as const satisfies FlagSpecs;

/** Each subcommand's own flags, in the order its help lists them. */
export const OWN_FLAGS = {
  worker: WORKER_FLAGS,
  add: ADD_FLAGS,
  list: {},
  remove: {},
  status: {},
  history: HISTORY_FLAGS,
  liveness: LIVENESS_FLAGS,
  ack: ACK_FLAGS,
  unack: {},
  pause: PAUSE_FLAGS,
  resume: {},
} as const satisfies Readonly<Record<Subcommand, FlagSpecs>>;

/** Every subcommand, in the order the help lists them. */
export const SUBCOMMANDS = Object.keys(OWN_FLAGS) as readonly Subcommand[];

/** Every fleet flag, whichever subcommand takes it (a flag two subcommands share counted once). */
type AnyFleetFlags = typeof COMMON_FLAGS &
  typeof WORKER_FLAGS &
  typeof ADD_FLAGS &
  typeof HISTORY_FLAGS &
  Omit<typeof LIVENESS_FLAGS, 'now'> &
  Omit<typeof ACK_FLAGS, 'now'> &
  Omit<typeof PAUSE_FLAGS, 'note' | 'for' | 'until' | 'now'>;

/** The flags as given to any subcommand (boolean flags true, `--scanner` a list, the rest text). */
export type FleetValues = FlagValues<AnyFleetFlags>;

/**
 * The flags the other subcommands take and `sub` does not: the kernel parses them so that one given
 * here is refused as not applying to `sub` (a shared parser refused them so before the kernel).
 */
export function siblingFlagsOf(sub: Subcommand): FlagSpecs {
  const own: FlagSpecs = OWN_FLAGS[sub];
  const siblings: Record<string, FlagSpecs[string]> = {};
  for (const flags of Object.values(OWN_FLAGS) as FlagSpecs[])
    for (const [name, flag] of Object.entries(flags)) if (!Object.hasOwn(own, name)) siblings[name] = flag;
  return siblings;
}
