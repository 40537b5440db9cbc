// Whether the fleet's Redis answers before a subcommand uses it, and the one line that says why not.
import type { RedisTarget } from '@heartbeat-kit/bullmq';
import { pingRedis, waitForRedis, type RedisProbeFailure } from '@heartbeat-kit/bullmq/node';
import { ok, type Result } from 'neverthrow';
import { commandFailure, type CommandFailure } from '../../cli-kernel/index.js';
import { printInfo } from '../../errors.js';
import type { CliIo } from '../../io.js';
import type { Subcommand } from './flags.js';

// How long a worker started during a Redis outage waits for it before exiting 3.
const WORKER_REDIS_WAIT_MS = 10 * 60_000;

/** Why a Redis cannot be used (exit 3), with the fix that matches the cause. */
function redisFailure(sub: string, shown: string, failure: RedisProbeFailure): Result<never, CommandFailure> {
  const why = failure.message.replace(/\.$/, '');
  if (failure.kind === 'auth') {
    return commandFailure(
      `Redis at ${shown} refused the credentials (authentication error: ${why}). Fix: put the server's password in the URL: redis://:PASSWORD@HOST:6379 (redis://USER:PASSWORD@… for an ACL user; unix:///path/redis.sock?password=PASSWORD for a socket), via --redis or HEARTBEAT_KIT_REDIS.`,
    );
  }
  const gaveUp = sub === 'worker' ? ` (gave up after ${WORKER_REDIS_WAIT_MS / 60_000} min of retries)` : '';
  return commandFailure(`cannot reach Redis at ${shown}${gaveUp}: ${why}. Fix: start redis-server or pass --redis URL.`);
}

/**
 * Probes Redis for `sub`: `reachable`, `stopped` (a worker stopped while it waited), or why not. Commands
 * fail fast on a wrong URL. A worker started during a Redis outage waits for it (bounded backoff,
 * every retry logged, Ctrl-C stops it); once running, its connections ride out restarts on their
 * own. A refused password is never retried: waiting cannot fix it.
 */
export async function reachRedis(
  io: CliIo,
  sub: Subcommand,
  target: RedisTarget,
  shown: string,
): Promise<Result<'reachable' | 'stopped', CommandFailure>> {
  const reachable =
    sub === 'worker'
      ? await waitForRedis(target, {
          signal: io.shutdownSignal,
          maxWaitMs: WORKER_REDIS_WAIT_MS,
          onRetry: (failure, attempt, delayMs) =>
            io.stderr(
              `heartbeat-kit fleet worker: warning: cannot reach Redis at ${shown} (attempt ${attempt}): ${failure.message.replace(/\.$/, '')}; retrying in ${Math.round(delayMs / 100) / 10}s (gives up after ${WORKER_REDIS_WAIT_MS / 60_000} min; Ctrl-C stops)\n`,
            ),
        })
      : await pingRedis(target);
  if (sub === 'worker' && io.shutdownSignal.aborted) {
    // Stopped on purpose (Ctrl-C, SIGTERM) while waiting: that is a clean stop, not a failure.
    printInfo(io, `heartbeat-kit fleet worker: stopped while waiting for Redis at ${shown}\n`);
    return ok('stopped');
  }
  return reachable.isErr() ? redisFailure(sub, shown, reachable.error) : ok('reachable');
}
