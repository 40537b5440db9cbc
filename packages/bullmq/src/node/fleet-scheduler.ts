import { Queue } from 'bullmq';
import { ResultAsync, errAsync } from 'neverthrow';
import { decodeFleetState } from '../fleet/fleet-state.js';
import { parseFleetHeartbeat, parseRegistryEntry, type FleetHeartbeat, type FleetHeartbeatInput } from '../fleet/fleet-heartbeat.js';
import { spreadOffsetMs } from '../fleet/slots.js';
import type { RedisTarget } from '../fleet/redis-url.js';
import { fleetKeys, type FleetKeys } from './fleet-keys.js';
import { closeRedisClient, createRedisClient, describeRedisError, bullConnectionFor, type RedisClient } from './redis-connection.js';

/** Why a fleet administration call failed. */
export type FleetError = { readonly kind: 'invalid'; readonly message: string } | { readonly kind: 'redis'; readonly message: string };

/** One heartbeat's standing, for `fleet status`. */
export interface FleetHeartbeatStatus {
  readonly heartbeat: FleetHeartbeat;
  /** Core cycle number of the last committed cycle. */
  readonly lastCycle?: number;
  readonly lastSlot?: number;
  readonly lastCycleAt?: string;
  /** Start of the last committed cycle minus its slot's due time. */
  readonly lastLagMs?: number;
  /** When BullMQ will fire the next slot. */
  readonly nextSlotAt?: string;
  readonly lastReportAt?: string;
  readonly lastReportSummary?: string;
  /** Current holder of the heartbeat's lock, and its fencing number. */
  readonly lockOwner?: string;
  readonly fence?: number;
}

/** Registers, lists and removes fleet heartbeats; reads their status. */
export interface FleetScheduler {
  /** Registers (or updates) a heartbeat and upserts its BullMQ job scheduler. */
  readonly add: (heartbeat: FleetHeartbeatInput) => ResultAsync<FleetHeartbeat, FleetError>;
  /** Removes a heartbeat's registration and job scheduler; false when it was not registered. */
  readonly remove: (id: string) => ResultAsync<boolean, FleetError>;
  /** The registered heartbeats that read as one, sorted by id (see `unreadable` for the rest). */
  readonly list: () => ResultAsync<FleetHeartbeat[], FleetError>;
  /** Registry entries that do not read as a heartbeat (hand-edited): `list` and the workers skip them. */
  readonly unreadable: () => ResultAsync<UnreadableRegistration[], FleetError>;
  readonly status: () => ResultAsync<FleetHeartbeatStatus[], FleetError>;
  readonly close: () => Promise<void>;
}

/** A registry entry that is not a valid heartbeat: its id and why (the bad field, or "not JSON"). */
export interface UnreadableRegistration {
  readonly id: string;
  readonly error: string;
}

/** Options of {@link createFleetScheduler}. */
export interface FleetSchedulerOptions {
  readonly target: RedisTarget;
  readonly prefix?: string;
}

/** The data of a tick job: which heartbeat is due. */
export interface TickJobData {
  readonly heartbeatId: string;
}

const redisError = (error: unknown): FleetError => ({ kind: 'redis', message: describeRedisError(error) });

/** Reads every registration; unreadable ones are skipped (they cannot be scheduled either). */
export async function readRegistry(redis: RedisClient, keys: FleetKeys): Promise<FleetHeartbeat[]> {
  return (await readRegistryEntries(redis, keys)).heartbeats;
}

/** Every registration, and apart the entries that do not parse (`fleet add` or `fleet remove` replaces them). */
async function readRegistryEntries(
  redis: RedisClient,
  keys: FleetKeys,
): Promise<{ heartbeats: FleetHeartbeat[]; unreadable: UnreadableRegistration[] }> {
  const entries = await redis.hgetall(keys.registry);
  const heartbeats: FleetHeartbeat[] = [];
  const unreadable: UnreadableRegistration[] = [];
  for (const [id, text] of Object.entries(entries)) {
    const parsed = parseRegistryEntry(text);
    if (parsed.isOk()) heartbeats.push(parsed.value);
    else unreadable.push({ id, error: parsed.error });
  }
  return {
    heartbeats: heartbeats.sort((a, b) => a.id.localeCompare(b.id)),
    unreadable: unreadable.sort((a, b) => a.id.localeCompare(b.id)),
  };
}

/**
 * Upserts a heartbeat's BullMQ job scheduler on the tick queue: `every` its interval, at its
 * place in the interval. `fleet add` and the worker's tick watchdog (restarting a chain whose
 * next tick was lost) schedule the same way, so a restart never moves a heartbeat's slots.
 */
export async function scheduleTicks(ticks: Queue<TickJobData>, heartbeat: FleetHeartbeat): Promise<void> {
  await ticks.upsertJobScheduler(
    heartbeat.id,
    { every: heartbeat.intervalMs, offset: spreadOffsetMs(heartbeat.id, heartbeat.intervalMs) },
    { name: 'tick', data: { heartbeatId: heartbeat.id }, opts: { removeOnComplete: true, removeOnFail: 1000 } },
  );
}

/**
 * The fleet's administration side. Each heartbeat is one BullMQ job scheduler (`every` its
 * interval, at a fixed place in it given by a hash of the id — see `spreadOffsetMs`) on the tick queue; BullMQ keeps exactly one delayed tick per scheduler, so slots
 * missed while no worker ran collapse into the one tick that fires when a worker is back.
 *
 * @example
 * ```ts
 * import { parseRedisUrl } from '@heartbeat-kit/bullmq';
 * import { createFleetScheduler } from '@heartbeat-kit/bullmq/node';
 *
 * const target = parseRedisUrl('redis://127.0.0.1:6379');
 * if (target.isErr()) throw new Error(target.error);
 * const scheduler = createFleetScheduler({ target: target.value });
 * // One BullMQ job scheduler per heartbeat: every 10 minutes, over a project's real scanners.
 * const added = await scheduler.add({ id: 'api-repo', intervalMs: 600_000, source: { kind: 'project', cwd: '/srv/api' } });
 * if (added.isErr()) console.error(added.error.message);
 * await scheduler.close();
 * ```
 */
export function createFleetScheduler(options: FleetSchedulerOptions): FleetScheduler {
  const keys = fleetKeys(options.prefix);
  const redis = createRedisClient(options.target);
  const bull = bullConnectionFor(options.target);
  const ticks = new Queue<TickJobData>(keys.tickQueue, { connection: bull.connection, prefix: keys.bullPrefix });
  // Failures surface as rejected calls; an unheard 'error' event would crash the process instead.
  ticks.on('error', () => undefined);
  redis.on('error', () => undefined);

  const add = async (heartbeat: FleetHeartbeat): Promise<FleetHeartbeat> => {
    // Registry first: a tick that fires before the hash is written would find no heartbeat.
    await redis.hset(keys.registry, heartbeat.id, JSON.stringify(heartbeat));
    await scheduleTicks(ticks, heartbeat);
    return heartbeat;
  };

  const status = async (): Promise<FleetHeartbeatStatus[]> => {
    const heartbeats = await readRegistry(redis, keys);
    return Promise.all(
      heartbeats.map(async (heartbeat): Promise<FleetHeartbeatStatus> => {
        const [text, lock, scheduler] = await Promise.all([
          redis.get(keys.state(heartbeat.id)),
          redis.hmget(keys.lock(heartbeat.id), 'owner', 'fence'),
          ticks.getJobScheduler(heartbeat.id),
        ]);
        let meta = decodeFleetState(undefined).state.fleet;
        if (text !== null) {
          try {
            meta = decodeFleetState(JSON.parse(text) as never).state.fleet;
          } catch {
            // corrupt state: the next cycle sets it aside; status shows what it can
          }
        }
        const next = scheduler?.next;
        return {
          heartbeat,
          ...(meta.lastCycle === undefined ? {} : { lastCycle: meta.lastCycle }),
          ...(meta.lastSlot === undefined ? {} : { lastSlot: meta.lastSlot }),
          ...(meta.lastCycleStartedAtMs === undefined ? {} : { lastCycleAt: new Date(meta.lastCycleStartedAtMs).toISOString() }),
          ...(meta.lastLagMs === undefined ? {} : { lastLagMs: meta.lastLagMs }),
          ...(next === undefined ? {} : { nextSlotAt: new Date(next).toISOString() }),
          ...(meta.lastReportAtMs === undefined ? {} : { lastReportAt: new Date(meta.lastReportAtMs).toISOString() }),
          ...(meta.lastReportSummary === undefined ? {} : { lastReportSummary: meta.lastReportSummary }),
          ...(lock[0] === null || lock[0] === undefined ? {} : { lockOwner: lock[0] }),
          ...(lock[1] === null || lock[1] === undefined ? {} : { fence: Number(lock[1]) }),
        };
      }),
    );
  };

  return {
    add: (input) => {
      const parsed = parseFleetHeartbeat(input);
      if (parsed.isErr()) return errAsync({ kind: 'invalid', message: parsed.error });
      return ResultAsync.fromPromise(add(parsed.value), redisError);
    },
    remove: (id) =>
      ResultAsync.fromPromise(
        (async () => {
          const removed = await redis.hdel(keys.registry, id);
          await ticks.removeJobScheduler(id);
          return removed === 1;
        })(),
        redisError,
      ),
    list: () => ResultAsync.fromPromise(readRegistry(redis, keys), redisError),
    unreadable: () =>
      ResultAsync.fromPromise(
        readRegistryEntries(redis, keys).then((read) => read.unreadable),
        redisError,
      ),
    status: () => ResultAsync.fromPromise(status(), redisError),
    close: async () => {
      // Closing a queue whose connection is still initialising makes BullMQ's INFO version check
      // reject with nobody listening ("Connection is closed."): let it finish first.
      await ticks.waitUntilReady().catch(() => undefined);
      await ticks.close();
      await bull.close();
      await closeRedisClient(redis);
    },
  };
}
