// Whether the fleet's Redis answers before a subcommand uses it, and the one line that says why not.
import type { RedisTarget } from '@heartbeat-kit/bullmq';
import { pingRedis, waitForRedis, type RedisProbeFailure } from '@heartbeat-kit/bullmq/node';
import { EXIT } from '../../exit-codes.js';
import { printInfo } from '../../errors.js';
import type { CliIo } from '../../io.js';
import type { Subcommand } from './args.js';

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

/**
 * Probes Redis for `sub`: undefined when it answers, else the exit code after saying why. Commands
 * fail fast on a wrong URL. A worker started during a Redis outage waits for it (bounded backoff,
 * every retry logged, Ctrl-C stops it); once running, its connections ride out restarts on their
 * own. A refused password is never retried: waiting cannot fix it.
 */
export async function reachRedis(io: CliIo, sub: Subcommand, target: RedisTarget, shown: string): Promise<number | undefined> {
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
    return EXIT.ok;
  }
  if (reachable.isErr()) {
    io.stderr(redisFailureLine(sub, shown, reachable.error));
    return EXIT.failure;
  }
  return undefined;
}
