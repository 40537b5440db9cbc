import { Redis, type RedisOptions } from 'ioredis';
import type { RedisTarget } from '../fleet/redis-url.js';

/**
 * ioredis options for a target. `maxRetriesPerRequest: null` is what BullMQ workers require:
 * a blocking command must wait out a Redis restart instead of failing the worker.
 */
export function redisOptionsFor(target: RedisTarget): RedisOptions {
  const base: RedisOptions = { maxRetriesPerRequest: null, enableReadyCheck: true, lazyConnect: false };
  if (target.kind === 'unix') return { ...base, path: target.path, ...(target.db === undefined ? {} : { db: target.db }) };
  return {
    ...base,
    host: target.host,
    port: target.port,
    ...(target.db === undefined ? {} : { db: target.db }),
    ...(target.password === undefined ? {} : { password: target.password }),
    ...(target.username === undefined ? {} : { username: target.username }),
  };
}

/** Opens a client on a target (the caller quits it). */
export function createRedisClient(target: RedisTarget): Redis {
  return new Redis(redisOptionsFor(target));
}

/** The error message of anything a Redis call threw. */
export function describeRedisError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Checks that Redis answers, giving up after `timeoutMs` instead of retrying forever as the
 * workers' connections do — for commands that should fail fast on a wrong URL.
 */
export async function pingRedis(target: RedisTarget, timeoutMs = 3000): Promise<{ ok: true } | { ok: false; message: string }> {
  const client = new Redis({ ...redisOptionsFor(target), lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: timeoutMs, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
    return { ok: true };
  } catch (error) {
    return { ok: false, message: describeRedisError(error) };
  } finally {
    client.disconnect();
  }
}

/**
 * Closes a client gracefully: QUIT lets commands already sent finish (a plain disconnect rejects
 * them with "Connection is closed.", which surfaces as an unhandled rejection when nobody awaits
 * them), with a hard disconnect after `timeoutMs` in case the server never answers.
 */
export async function closeRedisClient(client: Redis, timeoutMs = 2000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  try {
    await Promise.race([client.quit().then(() => undefined, () => undefined), deadline]);
  } finally {
    clearTimeout(timer);
    client.disconnect();
  }
}
