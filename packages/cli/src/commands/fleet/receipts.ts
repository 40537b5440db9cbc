// `fleet history` and `fleet liveness`: one heartbeat's receipts in Redis, listed or judged.
import { closeRedisClient, createRedisClient, createRedisPauseStore, createRedisReceiptStore, fleetKeys } from '@heartbeat-kit/bullmq/node';
import type { ListedReceipts } from '@heartbeat-kit/core';
import { formatReceipt, judgeLiveness, type Pause, pauseLiveness } from '@heartbeat-kit/core/host';
import { err, ok, type Result } from 'neverthrow';
import { commandFailure, usageFailure, type CommandFailure } from '../../cli-kernel/index.js';
import { EXIT } from '../../exit-codes.js';
import { redisFailed, seconds, type FleetOutcome } from './output.js';
import { withScheduler, type RegistryTarget } from './registrations.js';

/** Which heartbeat's receipts, and the instant their ages are judged at. */
export interface ReceiptQuery {
  readonly id: string;
  readonly at: Date;
}

/** The heartbeat's receipts as stored, their warnings printed on stderr; or the store's message. */
async function readReceipts(at: RegistryTarget, sub: string, query: ReceiptQuery): Promise<Result<ListedReceipts, string>> {
  const redis = createRedisClient(at.target);
  try {
    const key = fleetKeys(at.prefix).receipts(query.id);
    const listed = await createRedisReceiptStore({ redis, key, clock: { now: () => query.at } }).list();
    if (listed.isErr()) return err(listed.error.message);
    for (const warning of listed.value.warnings) at.io.stderr(`heartbeat-kit fleet ${sub}: warning: ${warning}\n`);
    return ok(listed.value);
  } finally {
    await closeRedisClient(redis);
  }
}

/** `fleet history`: the receipts of slots at or after `sinceMs`, oldest first. */
export async function showHistory(at: RegistryTarget, query: ReceiptQuery & { readonly sinceMs: number }): Promise<FleetOutcome> {
  const { io, prefix } = at;
  const { id, sinceMs } = query;
  const listed = await readReceipts(at, 'history', query);
  if (listed.isErr()) return commandFailure(`${listed.error}. Fix: check --redis and that redis-server runs.`);
  const receipts = listed.value.receipts.filter((r) => Date.parse(r.slot) >= sinceMs);
  const since = sinceMs === Number.NEGATIVE_INFINITY ? '' : ` since ${new Date(sinceMs).toISOString()}`;
  if (at.json) io.stdout(`${JSON.stringify({ receipts, warnings: listed.value.warnings })}\n`);
  else if (receipts.length === 0) io.stdout(`no receipts for ${id}${since} (prefix ${prefix})\n`);
  else for (const receipt of receipts) io.stdout(`${formatReceipt(receipt)}\n`);
  return ok(EXIT.ok);
}

/** `--max-age`, or 3 × the registered interval in ms; else why not (not registered, Redis failed). */
async function maxAgeOf(at: RegistryTarget, id: string, given: number | undefined): Promise<Result<number, CommandFailure>> {
  if (given !== undefined) return ok(given);
  return withScheduler(at, async (scheduler) => {
    const listed = await scheduler.list();
    if (listed.isErr()) return redisFailed(listed.error.message);
    const heartbeat = listed.value.find((h) => h.id === id);
    if (heartbeat !== undefined) return ok(3 * heartbeat.intervalMs);
    const fix = `Fix: check the ID with 'heartbeat-kit fleet list', or pass --max-age.`;
    return usageFailure(`${id} is not registered (prefix ${at.prefix}). ${fix}`);
  });
}

/** A pause with no end older than this gets a warning from `fleet liveness` (as check-liveness' default). */
const MAX_OPEN_PAUSE_MS = 24 * 3_600_000;

/** The heartbeat's pause in Redis; an unreadable one is a warning on stderr and counts as none. */
async function readPause(at: RegistryTarget, id: string): Promise<Pause | undefined> {
  const redis = createRedisClient(at.target);
  try {
    const read = await createRedisPauseStore({ redis, key: fleetKeys(at.prefix).pause(id) }).read();
    if (read.isErr()) at.io.stderr(`heartbeat-kit fleet liveness: warning: ${read.error.message}\n`);
    return read.isOk() ? read.value : undefined;
  } finally {
    await closeRedisClient(redis);
  }
}

/** `fleet liveness`: core's liveness verdict over one heartbeat's receipts; exit 0 alive, 1 not. */
export async function checkLiveness(
  at: RegistryTarget,
  query: ReceiptQuery & { readonly maxAgeMs: number | undefined },
): Promise<FleetOutcome> {
  const { io } = at;
  const { id } = query;
  const maxAge = await maxAgeOf(at, id, query.maxAgeMs);
  if (maxAge.isErr()) return err(maxAge.error);
  // A pause in force is the answer: the operator said not to run, so no run is not a death.
  const pause = await readPause(at, id);
  const paused = pauseLiveness(pause, query.at.getTime(), MAX_OPEN_PAUSE_MS);
  if (paused !== undefined) {
    if (paused.warning !== undefined)
      io.stderr(
        `heartbeat-kit fleet liveness: warning: ${paused.warning.replace("'heartbeat-kit resume'", `'heartbeat-kit fleet resume ${id}'`)}\n`,
      );
    const notes = paused.warning === undefined ? [] : [paused.warning];
    io.stdout(at.json ? `${JSON.stringify({ live: true, paused: pause, message: paused.message, notes })}\n` : `${id} ${paused.message}\n`);
    return ok(EXIT.ok);
  }
  const listed = await readReceipts(at, 'liveness', query);
  if (listed.isErr()) return redisFailed(listed.error);
  const verdict = judgeLiveness(listed.value.receipts, {
    nowMs: query.at.getTime(),
    maxAgeMs: maxAge.value,
    terms: { run: 'fleet cycle', lock: 'fleet lock' },
  });
  const message = verdict.live
    ? `alive: ${id} cycle #${verdict.lastRan.cycle} ran at ${verdict.lastRan.slot} (${seconds(verdict.ageMs)} ago, max ${seconds(maxAge.value)})`
    : `not alive (${verdict.reason}): ${id}: ${verdict.message}`;
  const notes = verdict.live ? verdict.notes : [];
  if (at.json)
    io.stdout(
      `${JSON.stringify(verdict.live ? { live: true, message, lastRan: verdict.lastRan, notes } : { live: false, reason: verdict.reason, message, ...(verdict.lastRan ? { lastRan: verdict.lastRan } : {}) })}\n`,
    );
  else io.stdout(`${[message, ...notes.map((note) => `  note: ${note}`)].join('\n')}\n`);
  return ok(verdict.live ? EXIT.ok : EXIT.rejected);
}
