/**
 * The two Redis deployments the fleet's integration tests run on — one private redis-server on a
 * unix socket, and a private 3 + 3 Redis Cluster on loopback ports — behind one interface, so a
 * suite runs as a matrix: `describe.each(FLEET_BACKENDS)('on %s', (kind) => { useFleetBackend(kind) … })`.
 */
import { afterAll, beforeAll } from 'vitest';
import { parseRedisUrl, type RedisTarget } from '../../src/index.js';
import { bullConnectionFor, closeRedisClient, createRedisClient, type BullConnection, type RedisClient } from '../../src/node/index.js';
import { startCluster, type TestCluster } from './redis-cluster.js';
import { startRedis, type TestRedis } from './redis-server.js';

/** Which Redis a suite runs on. */
export type FleetBackendKind = 'single Redis' | 'Redis Cluster';
/** Both, in the order suites run them. */
export const FLEET_BACKENDS: readonly FleetBackendKind[] = ['single Redis', 'Redis Cluster'];

/** A running backend. */
export interface FleetBackend {
  readonly kind: FleetBackendKind;
  /** What FLEET_REDIS_URL and `--redis` take (a comma-separated node list for the cluster). */
  readonly url: string;
  readonly target: RedisTarget;
  /** A client shared by the suite (a `Cluster` on the cluster), closed by `stop`. */
  readonly client: RedisClient;
  /** A directory for the suite's files (sink files), removed by `stop`. */
  readonly dir: string;
  /** BullMQ connection on the backend (closed by `stop`). */
  readonly bull: () => BullConnection['connection'];
  readonly single?: TestRedis;
  readonly cluster?: TestCluster;
  readonly stop: () => Promise<void>;
}

/** Starts a backend of `kind`. */
export async function startFleetBackend(kind: FleetBackendKind): Promise<FleetBackend> {
  const single = kind === 'single Redis' ? await startRedis() : undefined;
  const cluster = kind === 'Redis Cluster' ? await startCluster() : undefined;
  const url = single?.url ?? cluster!.url;
  const target = parseRedisUrl(url)._unsafeUnwrap();
  const client = createRedisClient(target);
  client.on('error', () => undefined);
  const connections: BullConnection[] = [];
  return {
    kind,
    url,
    target,
    client,
    dir: single?.dir ?? cluster!.dir,
    bull: () => {
      const made = bullConnectionFor(target);
      connections.push(made);
      return made.connection;
    },
    ...(single === undefined ? {} : { single }),
    ...(cluster === undefined ? {} : { cluster }),
    stop: async () => {
      await Promise.all(connections.map((made) => made.close()));
      await closeRedisClient(client);
      await (single ?? cluster!).stop();
    },
  };
}

/** Starts a backend before the enclosing suite's tests and stops it after them; read it inside tests and hooks. */
export function useFleetBackend(kind: FleetBackendKind): { readonly current: () => FleetBackend } {
  let started: FleetBackend | undefined;
  beforeAll(async () => {
    started = await startFleetBackend(kind);
  });
  afterAll(async () => {
    await started?.stop();
  });
  return {
    current: () => {
      if (started === undefined) throw new Error('the backend starts in beforeAll: call useFleetBackend() inside describe');
      return started;
    },
  };
}
