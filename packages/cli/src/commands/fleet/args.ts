// `heartbeat-kit fleet SUB …` argv: the options every subcommand takes, which ones apply to which
// subcommand, how many IDs it needs, and the Redis URL and key prefix they name.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { parseRedisUrl, redactRedisUrl, type RedisTarget } from '@heartbeat-kit/bullmq';

/** A `heartbeat-kit fleet` subcommand. */
export type Subcommand = 'worker' | 'add' | 'list' | 'remove' | 'status' | 'history' | 'liveness' | 'ack' | 'unack' | 'pause' | 'resume';
/** Every subcommand, in the order the help lists them. */
export const SUBCOMMANDS: readonly Subcommand[] = [
  'worker',
  'add',
  'list',
  'remove',
  'status',
  'history',
  'liveness',
  'ack',
  'unack',
  'pause',
  'resume',
];

const OPTIONS = {
  redis: { type: 'string' },
  'redis-cluster': { type: 'boolean' },
  prefix: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  concurrency: { type: 'string' },
  sink: { type: 'string' },
  'fake-scanners': { type: 'boolean' },
  'lock-ttl': { type: 'string' },
  'min-replica-acks': { type: 'string' },
  cwd: { type: 'string' },
  scanners: { type: 'string' },
  'scan-ms': { type: 'string' },
  'report-every': { type: 'string' },
  interval: { type: 'string' },
  since: { type: 'string' },
  now: { type: 'string' },
  'max-age': { type: 'string' },
  note: { type: 'string' },
  for: { type: 'string' },
  until: { type: 'string' },
  snooze: { type: 'boolean' },
  by: { type: 'string' },
  list: { type: 'boolean' },
  scanner: { type: 'string', multiple: true },
  'except-critical': { type: 'boolean' },
  'metrics-textfile': { type: 'string' },
  'metrics-listen': { type: 'string' },
  'metrics-listen-public': { type: 'boolean' },
} as const satisfies ParseArgsConfig['options'];

type OptionName = keyof typeof OPTIONS;
const COMMON_OPTIONS: readonly OptionName[] = ['redis', 'redis-cluster', 'prefix', 'json', 'help'];

const ALLOWED: Record<Subcommand, readonly OptionName[]> = {
  worker: [
    'concurrency',
    'sink',
    'fake-scanners',
    'lock-ttl',
    'min-replica-acks',
    'metrics-textfile',
    'metrics-listen',
    'metrics-listen-public',
  ],
  add: ['cwd', 'scanners', 'scan-ms', 'report-every', 'interval'],
  list: [],
  remove: [],
  status: [],
  history: ['since', 'now'],
  liveness: ['max-age', 'now'],
  ack: ['note', 'for', 'until', 'snooze', 'by', 'now', 'list'],
  unack: [],
  pause: ['note', 'for', 'until', 'scanner', 'except-critical', 'now'],
  resume: [],
};
const POSITIONALS: Record<Subcommand, number> = {
  worker: 0,
  add: 1,
  list: 0,
  remove: 1,
  status: 0,
  history: 1,
  liveness: 1,
  ack: 2,
  unack: 2,
  pause: 1,
  resume: 1,
};

/** The options as given, before the subcommand reads its own (boolean flags true, the rest text). */
export type FleetValues = {
  readonly [K in OptionName]?: (typeof OPTIONS)[K]['type'] extends 'boolean'
    ? boolean
    : (typeof OPTIONS)[K] extends { readonly multiple: true }
      ? string[]
      : string;
};

/** What every subcommand shares once its argv is read: the Redis it talks to and how it prints. */
export interface FleetArgs {
  readonly values: FleetValues;
  /** The heartbeat ID, for the subcommands that take one. */
  readonly id: string | undefined;
  /** The SELECTOR of `ack` and `unack`. */
  readonly selector: string | undefined;
  readonly target: RedisTarget;
  /** The Redis URL with its password masked, for messages. */
  readonly shown: string;
  readonly prefix: string;
  readonly json: boolean;
}

/** The subcommand's argv read: `--help` asked, a usage error, or its arguments. */
export type ReadFleetArgs =
  { readonly kind: 'help' } | { readonly kind: 'usage'; readonly message: string } | { readonly kind: 'args'; readonly args: FleetArgs };

/** Reads `argv` (after the subcommand) with the options `sub` accepts and the Redis URL from the flag or `env`. */
export function readFleetArgs(sub: Subcommand, argv: readonly string[], env: Readonly<Record<string, string | undefined>>): ReadFleetArgs {
  const seeHelp = `Fix: see 'heartbeat-kit fleet ${sub} --help'.`;
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: true });
  } catch (error) {
    return { kind: 'usage', message: `${(error as Error).message}. ${seeHelp}` };
  }
  const { values, positionals } = parsed;
  if (values.help === true) return { kind: 'help' };
  const foreign = (Object.keys(values) as OptionName[]).filter((key) => !COMMON_OPTIONS.includes(key) && !ALLOWED[sub].includes(key));
  if (foreign.length > 0) return { kind: 'usage', message: `--${foreign[0]} does not apply to '${sub}'. ${seeHelp}` };
  // `fleet ack ID --list` lists the heartbeat's acks: no SELECTOR then.
  const wanted = sub === 'ack' && values.list === true ? 1 : POSITIONALS[sub];
  if (positionals.length !== wanted) {
    const message =
      wanted === 2
        ? `needs a heartbeat ID and a SELECTOR. Fix: heartbeat-kit fleet ${sub} my-repo GIT_STALE:feature-x${sub === 'ack' ? ' --for 4h --note "why"' : ''}`
        : wanted === 1
          ? `needs exactly one heartbeat ID. Fix: heartbeat-kit fleet ${sub} my-repo …`
          : `takes no arguments (got '${positionals[0]}'). ${seeHelp}`;
    return { kind: 'usage', message };
  }
  const url = values.redis ?? env.HEARTBEAT_KIT_REDIS ?? 'redis://127.0.0.1:6379';
  // Several comma-separated nodes, or --redis-cluster, mean a Redis Cluster (ioredis' Cluster client).
  const target = parseRedisUrl(url, { cluster: values['redis-cluster'] === true });
  if (target.isErr()) return { kind: 'usage', message: `--redis: ${target.error}` };
  const prefix = values.prefix ?? 'hbk';
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(prefix))
    return { kind: 'usage', message: `--prefix "${prefix}" is not a key prefix. Fix: use letters, digits, '.', '_' or '-'.` };
  const args = {
    values,
    id: positionals[0],
    selector: positionals[1],
    target: target.value,
    shown: redactRedisUrl(url),
    prefix,
    json: values.json === true,
  };
  return { kind: 'args', args };
}
