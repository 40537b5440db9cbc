// `fleet add`, `remove`, `list` and `status`: the fleet's registrations and schedules in Redis.
import type { FleetHeartbeat, FleetHeartbeatInput, RedisTarget } from '@heartbeat-kit/bullmq';
import {
  closeRedisClient,
  createFleetScheduler,
  createRedisClient,
  createRedisPauseStore,
  fleetKeys,
  type FleetHeartbeatStatus,
  type FleetScheduler,
} from '@heartbeat-kit/bullmq/node';
import { describePause, type Pause, pauseActiveAt } from '@heartbeat-kit/core/host';
import { ok } from 'neverthrow';
import { usageFailure } from '../../cli-kernel/index.js';
import { EXIT } from '../../exit-codes.js';
import type { CliIo } from '../../io.js';
import { redisFailed, seconds, type FleetOutcome } from './output.js';

/** Where a registration talks to Redis: one scheduler per command, closed when the command ends. */
export interface RegistryTarget {
  readonly io: CliIo;
  readonly target: RedisTarget;
  readonly prefix: string;
  readonly json: boolean;
}

/** Runs `use` with a scheduler on the fleet, closing it however `use` ends. */
export async function withScheduler<T>(at: RegistryTarget, use: (scheduler: FleetScheduler) => Promise<T>): Promise<T> {
  const scheduler = createFleetScheduler({ target: at.target, prefix: at.prefix });
  try {
    return await use(scheduler);
  } finally {
    await scheduler.close();
  }
}

function describeSource(heartbeat: FleetHeartbeat): string {
  return heartbeat.source.kind === 'project' ? heartbeat.source.cwd : `scanners:${heartbeat.source.set}`;
}

/** `fleet add`: registers (or updates) a heartbeat and schedules it. */
export function addHeartbeat(at: RegistryTarget, input: FleetHeartbeatInput): Promise<FleetOutcome> {
  const { io } = at;
  return withScheduler(at, async (scheduler) => {
    const added = await scheduler.add(input);
    if (added.isErr()) return added.error.kind === 'invalid' ? usageFailure(`${added.error.message}.`) : redisFailed(added.error.message);
    const { value } = added;
    io.stdout(at.json ? `${JSON.stringify(value)}\n` : `added ${input.id}: every ${value.intervalMs / 1000}s, ${describeSource(value)}\n`);
    return ok(EXIT.ok);
  });
}

/** `fleet remove`: unregisters a heartbeat; exit 1 when it was not registered. */
export function removeHeartbeat(at: RegistryTarget, id: string): Promise<FleetOutcome> {
  const { io } = at;
  return withScheduler(at, async (scheduler) => {
    const removed = await scheduler.remove(id);
    if (removed.isErr()) return redisFailed(removed.error.message);
    if (at.json) io.stdout(`${JSON.stringify({ id, removed: removed.value })}\n`);
    else io.stdout(removed.value ? `removed ${id}\n` : `${id} was not registered\n`);
    return ok(removed.value ? EXIT.ok : EXIT.rejected);
  });
}

/** `fleet list`: the registered heartbeats. */
export function listHeartbeats(at: RegistryTarget): Promise<FleetOutcome> {
  const { io } = at;
  return withScheduler(at, async (scheduler) => {
    const listed = await scheduler.list();
    if (listed.isErr()) return redisFailed(listed.error.message);
    await warnUnreadable(at, scheduler, 'list');
    const line = (h: FleetHeartbeat): string => `${h.id.padEnd(20)} every ${h.intervalMs / 1000}s  ${describeSource(h)}\n`;
    if (at.json) io.stdout(`${JSON.stringify(listed.value)}\n`);
    else io.stdout(listed.value.length === 0 ? 'no heartbeats registered\n' : listed.value.map(line).join(''));
    return ok(EXIT.ok);
  });
}

/** `fleet status`: per heartbeat its last cycle, next slot, lag and last report. */
export function showStatus(at: RegistryTarget): Promise<FleetOutcome> {
  const { io } = at;
  return withScheduler(at, async (scheduler) => {
    const status = await scheduler.status();
    if (status.isErr()) return redisFailed(status.error.message);
    await warnUnreadable(at, scheduler, 'status');
    const pauses = await pausesInForce(
      at,
      status.value.map((entry) => entry.heartbeat.id),
    );
    const entries = status.value.map((entry) => {
      const pause = pauses.get(entry.heartbeat.id);
      return pause === undefined ? entry : { ...entry, pause };
    });
    if (at.json) io.stdout(`${JSON.stringify(entries)}\n`);
    else io.stdout(entries.length === 0 ? 'no heartbeats registered\n' : entries.map((entry) => `${statusLine(entry)}\n`).join(''));
    return ok(EXIT.ok);
  });
}

/**
 * Says each registry entry that does not read as a heartbeat (a hand edit): the workers skip it,
 * so leaving it out of the listing silently would hide a heartbeat that no longer runs.
 */
async function warnUnreadable(at: RegistryTarget, scheduler: FleetScheduler, command: 'list' | 'status'): Promise<void> {
  const unreadable = await scheduler.unreadable();
  // The listing itself was read a moment ago; a Redis error here is said by the next call, not twice.
  for (const entry of unreadable.unwrapOr([])) {
    const id = JSON.stringify(entry.id);
    const why = entry.error.replace(/\s+/g, ' ');
    at.io.stderr(
      `heartbeat-kit fleet ${command}: warning: registration ${id} is unreadable (${why}); no worker runs it; \`fleet remove\` drops it, \`fleet add\` with its id replaces it\n`,
    );
  }
}

/** The operator pauses in force now, by heartbeat id (an unreadable pause is a warning, as the worker ignores it). */
async function pausesInForce(at: RegistryTarget, ids: readonly string[]): Promise<Map<string, Pause>> {
  const keys = fleetKeys(at.prefix);
  const redis = createRedisClient(at.target);
  const found = new Map<string, Pause>();
  try {
    for (const id of ids) {
      const read = await createRedisPauseStore({ redis, key: keys.pause(id) }).read();
      if (read.isErr()) at.io.stderr(`heartbeat-kit fleet status: warning: ${read.error.message}\n`);
      else if (pauseActiveAt(read.value, Date.now())) found.set(id, read.value);
    }
    return found;
  } finally {
    await closeRedisClient(redis);
  }
}

function statusLine(entry: FleetHeartbeatStatus & { readonly pause?: Pause }): string {
  const { heartbeat } = entry;
  const line = [
    heartbeat.id.padEnd(20),
    `every ${seconds(heartbeat.intervalMs)}`.padEnd(12),
    `cycle ${entry.lastCycle ?? '-'}`.padEnd(11),
    `at ${entry.lastCycleAt ?? '-'}`.padEnd(28),
    `lag ${seconds(entry.lastLagMs)}`.padEnd(11),
    `next ${entry.nextSlotAt ?? '-'}`.padEnd(30),
    `report ${entry.lastReportAt === undefined ? '-' : `${entry.lastReportAt} ${entry.lastReportSummary ?? ''}`}`,
  ].join(' ');
  return entry.pause === undefined ? line : `${line}\n${' '.repeat(21)}${describePause(entry.pause)}`;
}
