import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import { ResultAsync, err, ok, type Result } from 'neverthrow';
import type { RedisTarget } from '../fleet/redis-url.js';

/**
 * ioredis options for a target. `maxRetriesPerRequest: null` is what BullMQ workers require:
 * a blocking command must wait out a Redis restart instead of failing the worker.
 */
export function redisOptionsFor(target: RedisTarget): RedisOptions {
  const base: RedisOptions = { maxRetriesPerRequest: null, enableReadyCheck: true, lazyConnect: false };
  if (target.kind === 'cluster') {
    return {
      ...base,
      ...(target.password === undefined ? {} : { password: target.password }),
      ...(target.username === undefined ? {} : { username: target.username }),
    };
  }
  if (target.kind === 'unix') {
    return {
      ...base,
      path: target.path,
      ...(target.db === undefined ? {} : { db: target.db }),
      ...(target.password === undefined ? {} : { password: target.password }),
      ...(target.username === undefined ? {} : { username: target.username }),
    };
  }
  return {
    ...base,
    host: target.host,
    port: target.port,
    ...(target.db === undefined ? {} : { db: target.db }),
    ...(target.password === undefined ? {} : { password: target.password }),
    ...(target.username === undefined ? {} : { username: target.username }),
  };
}

/** A client of one Redis server or of a Redis Cluster: the fleet's stores take either. */
export type RedisClient = Redis | Cluster;

/**
 * ioredis Cluster options for a cluster target. Reads go to masters (a replica may lag behind a
 * fenced write); during a failover commands wait and retry (`retryDelayOnFailover`,
 * `retryDelayOnClusterDown`, TRYAGAIN) instead of failing, and the slot map is re-read.
 */
export function clusterOptionsFor(target: RedisTarget): ClusterOptions {
  return {
    redisOptions: redisOptionsFor(target),
    scaleReads: 'master',
    enableReadyCheck: true,
    retryDelayOnFailover: 200,
    retryDelayOnClusterDown: 300,
    retryDelayOnTryAgain: 200,
    maxRedirections: 64,
    slotsRefreshTimeout: 2000,
    clusterRetryStrategy: (times: number) => Math.min(200 * times, 2000),
  };
}

/** Opens a client on a target — an ioredis `Cluster` for a cluster (the caller quits it). */
export function createRedisClient(target: RedisTarget): RedisClient {
  if (target.kind === 'cluster')
    return new Cluster(
      target.nodes.map((node) => ({ ...node })),
      clusterOptionsFor(target),
    );
  return new Redis(redisOptionsFor(target));
}

/** What BullMQ queues and workers connect with, and how to let go of it once they are closed. */
export interface BullConnection {
  /** Connection options (one server) or a shared `Cluster` client, as BullMQ documents for clusters. */
  readonly connection: RedisOptions | Cluster;
  /** Quits the shared cluster client (BullMQ never closes a connection it was given). */
  readonly close: () => Promise<void>;
}

/**
 * BullMQ's connection for a target: options for one server (each queue and worker opens its own
 * connections), a `Cluster` client for a cluster — BullMQ takes an ioredis Cluster instance,
 * shares it for its non-blocking commands and duplicates it for each worker's blocking one.
 */
export function bullConnectionFor(target: RedisTarget): BullConnection {
  if (target.kind !== 'cluster') return { connection: redisOptionsFor(target), close: () => Promise.resolve() };
  const cluster = new Cluster(
    target.nodes.map((node) => ({ ...node })),
    clusterOptionsFor(target),
  );
  cluster.on('error', () => undefined);
  // BullMQ 5.81 duplicates the cluster for each worker's blocking connection; when Worker.close
  // interrupts a waiting BZPOPMIN, its cluster patch reconnects that duplicate, and the new node
  // connections outlive the duplicate's close (out of its pool, still connected): the process never
  // exited after SIGTERM. So every duplicate and every node it made are disconnected at the end.
  const duplicates: Cluster[] = [];
  const nodes: Redis[] = [];
  const duplicate = cluster.duplicate.bind(cluster);
  cluster.duplicate = (...args: Parameters<Cluster['duplicate']>): Cluster => {
    const copy = duplicate(...args);
    duplicates.push(copy);
    // Its node connections too: the reconnect's nodes leave the pool while still connected.
    copy.on('+node', (node: Redis) => nodes.push(node));
    return copy;
  };
  return {
    connection: cluster,
    close: async () => {
      await closeRedisClient(cluster);
      for (const copy of duplicates) copy.disconnect();
      for (const node of nodes) node.disconnect();
    },
  };
}

/** The error message of anything a Redis call threw. */
export function describeRedisError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// Replies Redis gives to a missing or wrong password (requirepass or an ACL user).
const AUTH_REPLY =
  /^(NOAUTH|WRONGPASS)\b|invalid password|invalid username-password|AUTH <password> called without any password|without any password configured/i;

/** Why Redis could not be used: it did not answer, or it answered and refused the credentials. */
export interface RedisProbeFailure {
  readonly kind: 'unreachable' | 'auth';
  readonly message: string;
}

/**
 * Checks that Redis answers, giving up after `timeoutMs` instead of retrying forever as the
 * workers' connections do — for commands that should fail fast on a wrong URL. A refused
 * password is told apart (`auth`): ioredis reports it as an `error` event and then rejects the
 * call with "Connection is closed.", which would send the operator to start a server that runs.
 */
export function pingRedis(target: RedisTarget, timeoutMs = 3000): ResultAsync<void, RedisProbeFailure> {
  return new ResultAsync(probe(target, timeoutMs));
}

async function probe(target: RedisTarget, timeoutMs: number): Promise<Result<void, RedisProbeFailure>> {
  const once: RedisOptions = { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: timeoutMs, retryStrategy: () => null };
  const client: RedisClient =
    target.kind === 'cluster'
      ? new Cluster(
          target.nodes.map((node) => ({ ...node })),
          {
            ...clusterOptionsFor(target),
            lazyConnect: true,
            clusterRetryStrategy: () => null,
            redisOptions: { ...redisOptionsFor(target), ...once, lazyConnect: false },
          },
        )
      : new Redis({ ...redisOptionsFor(target), ...once });
  let authReply: string | undefined;
  client.on('error', (error: unknown) => {
    const message = describeRedisError(error);
    if (AUTH_REPLY.test(message)) authReply = message;
  });
  try {
    await client.connect();
    await client.ping();
    return ok(undefined);
  } catch (error) {
    const message = describeRedisError(error);
    if (authReply !== undefined || AUTH_REPLY.test(message)) return err({ kind: 'auth', message: authReply ?? message });
    return err({ kind: 'unreachable', message });
  } finally {
    client.disconnect();
  }
}

/** Options of {@link waitForRedis}. */
export interface WaitForRedisOptions {
  /** Stops waiting (Ctrl-C): resolves with the last failure. */
  readonly signal: AbortSignal;
  /** Told before each pause: the failure, the attempt number (1 = the first try) and the pause. */
  readonly onRetry: (failure: RedisProbeFailure, attempt: number, delayMs: number) => void;
  /** Gives up once this much time was spent waiting (default 10 min). */
  readonly maxWaitMs?: number;
  /** First pause; doubles up to `maxDelayMs` (defaults 1 s and 30 s). */
  readonly initialDelayMs?: number;
  readonly maxDelayMs?: number;
}

/**
 * Pings until Redis answers, pausing 1 s, 2 s, 4 s … up to 30 s between tries, for at most
 * `maxWaitMs` in total — so a worker started during a Redis outage waits for it rather than
 * exiting, yet a Redis that never comes back ends in an error. A refused password is returned at
 * once (waiting cannot fix it); an abort returns the last failure without another pause.
 */
export function waitForRedis(target: RedisTarget, options: WaitForRedisOptions): ResultAsync<void, RedisProbeFailure> {
  return new ResultAsync(waitLoop(target, options));
}

async function waitLoop(target: RedisTarget, options: WaitForRedisOptions): Promise<Result<void, RedisProbeFailure>> {
  const maxWaitMs = options.maxWaitMs ?? 600_000;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  let delayMs = options.initialDelayMs ?? 1000;
  let waited = 0;
  for (let attempt = 1; ; attempt += 1) {
    const probed = await pingRedis(target);
    if (probed.isOk() || probed.error.kind === 'auth' || options.signal.aborted || waited >= maxWaitMs) return probed;
    const pause = Math.min(delayMs, maxDelayMs, maxWaitMs - waited);
    options.onRetry(probed.error, attempt, pause);
    await abortableDelay(pause, options.signal);
    if (options.signal.aborted) return probed;
    waited += pause;
    delayMs = Math.min(delayMs * 2, maxDelayMs);
  }
}

function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Closes a client gracefully: QUIT lets commands already sent finish (a plain disconnect rejects
 * them with "Connection is closed.", which surfaces as an unhandled rejection when nobody awaits
 * them), with a hard disconnect after `timeoutMs` in case the server never answers.
 */
export async function closeRedisClient(client: RedisClient, timeoutMs = 2000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  try {
    await Promise.race([
      client.quit().then(
        () => undefined,
        () => undefined,
      ),
      deadline,
    ]);
  } finally {
    clearTimeout(timer);
    client.disconnect();
  }
}
