// What every `heartbeat-kit fleet SUB` reads after the kernel parsed its flags: how many IDs it
// needs, and the Redis URL and key prefix it talks to.
import { parseRedisUrl, redactRedisUrl, type RedisTarget } from '@heartbeat-kit/bullmq';
import { ok, type Result } from 'neverthrow';
import { usageFailure, type CommandFailure } from '../../cli-kernel/index.js';
import type { FleetValues, Subcommand } from './flags.js';

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

/** The refusal of a wrong number of IDs, in each subcommand's words (with the example it needs). */
function countRefused(sub: Subcommand, wanted: number, positionals: readonly string[]): Result<never, CommandFailure> {
  if (wanted === 2) {
    const flags = sub === 'ack' ? ' --for 4h --note "why"' : '';
    return usageFailure(`needs a heartbeat ID and a SELECTOR. Fix: heartbeat-kit fleet ${sub} my-repo GIT_STALE:feature-x${flags}`);
  }
  if (wanted === 1) return usageFailure(`needs exactly one heartbeat ID. Fix: heartbeat-kit fleet ${sub} my-repo …`);
  return usageFailure(`takes no arguments (got '${positionals[0]}'). Fix: see 'heartbeat-kit fleet ${sub} --help'.`);
}

/**
 * Reads the IDs `sub` needs from `positionals` and the Redis URL from `--redis` or `env`, after the
 * kernel parsed the flags; a wrong count, URL or prefix is a usage error.
 */
export function readFleetArgs(
  sub: Subcommand,
  values: FleetValues,
  positionals: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Result<FleetArgs, CommandFailure> {
  // `fleet ack ID --list` lists the heartbeat's acks: no SELECTOR then.
  const wanted = sub === 'ack' && values.list === true ? 1 : POSITIONALS[sub];
  if (positionals.length !== wanted) return countRefused(sub, wanted, positionals);
  const url = values.redis ?? env.HEARTBEAT_KIT_REDIS ?? 'redis://127.0.0.1:6379';
  // Several comma-separated nodes, or --redis-cluster, mean a Redis Cluster (ioredis' Cluster client).
  const target = parseRedisUrl(url, { cluster: values['redis-cluster'] === true });
  if (target.isErr()) return usageFailure(`--redis: ${target.error}`);
  const prefix = values.prefix ?? 'hbk';
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(prefix))
    return usageFailure(`--prefix "${prefix}" is not a key prefix. Fix: use letters, digits, '.', '_' or '-'.`);
  return ok({
    values,
    id: positionals[0],
    selector: positionals[1],
    target: target.value,
    shown: redactRedisUrl(url),
    prefix,
    json: values.json === true,
  });
}
