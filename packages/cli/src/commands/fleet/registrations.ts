// `fleet add`, `remove`, `list` and `status`: the fleet's registrations and schedules in Redis.
import type { FleetHeartbeat, FleetHeartbeatInput, RedisTarget } from '@heartbeat-kit/bullmq';
import { createFleetScheduler, type FleetHeartbeatStatus, type FleetScheduler } from '@heartbeat-kit/bullmq/node';
import { EXIT } from '../../exit-codes.js';
import type { CliIo } from '../../io.js';
import { redisFailed, seconds, usageError } from './output.js';

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
export function addHeartbeat(at: RegistryTarget, input: FleetHeartbeatInput): Promise<number> {
  const { io } = at;
  return withScheduler(at, async (scheduler) => {
    const added = await scheduler.add(input);
    if (added.isErr())
      return added.error.kind === 'invalid'
        ? usageError(io, 'add', `${added.error.message}.`)
        : redisFailed(io, 'add', added.error.message);
    const { value } = added;
    io.stdout(at.json ? `${JSON.stringify(value)}\n` : `added ${input.id}: every ${value.intervalMs / 1000}s, ${describeSource(value)}\n`);
    return EXIT.ok;
  });
}

/** `fleet remove`: unregisters a heartbeat; exit 1 when it was not registered. */
export function removeHeartbeat(at: RegistryTarget, id: string): Promise<number> {
  const { io } = at;
  return withScheduler(at, async (scheduler) => {
    const removed = await scheduler.remove(id);
    if (removed.isErr()) return redisFailed(io, 'remove', removed.error.message);
    if (at.json) io.stdout(`${JSON.stringify({ id, removed: removed.value })}\n`);
    else io.stdout(removed.value ? `removed ${id}\n` : `${id} was not registered\n`);
    return removed.value ? EXIT.ok : EXIT.rejected;
  });
}

/** `fleet list`: the registered heartbeats. */
export function listHeartbeats(at: RegistryTarget): Promise<number> {
  const { io } = at;
  return withScheduler(at, async (scheduler) => {
    const listed = await scheduler.list();
    if (listed.isErr()) return redisFailed(io, 'list', listed.error.message);
    const line = (h: FleetHeartbeat): string => `${h.id.padEnd(20)} every ${h.intervalMs / 1000}s  ${describeSource(h)}\n`;
    if (at.json) io.stdout(`${JSON.stringify(listed.value)}\n`);
    else io.stdout(listed.value.length === 0 ? 'no heartbeats registered\n' : listed.value.map(line).join(''));
    return EXIT.ok;
  });
}

/** `fleet status`: per heartbeat its last cycle, next slot, lag and last report. */
export function showStatus(at: RegistryTarget): Promise<number> {
  const { io } = at;
  return withScheduler(at, async (scheduler) => {
    const status = await scheduler.status();
    if (status.isErr()) return redisFailed(io, 'status', status.error.message);
    if (at.json) io.stdout(`${JSON.stringify(status.value)}\n`);
    else
      io.stdout(status.value.length === 0 ? 'no heartbeats registered\n' : status.value.map((entry) => `${statusLine(entry)}\n`).join(''));
    return EXIT.ok;
  });
}

function statusLine(entry: FleetHeartbeatStatus): string {
  const { heartbeat } = entry;
  return [
    heartbeat.id.padEnd(20),
    `every ${seconds(heartbeat.intervalMs)}`.padEnd(12),
    `cycle ${entry.lastCycle ?? '-'}`.padEnd(11),
    `at ${entry.lastCycleAt ?? '-'}`.padEnd(28),
    `lag ${seconds(entry.lastLagMs)}`.padEnd(11),
    `next ${entry.nextSlotAt ?? '-'}`.padEnd(30),
    `report ${entry.lastReportAt === undefined ? '-' : `${entry.lastReportAt} ${entry.lastReportSummary ?? ''}`}`,
  ].join(' ');
}
