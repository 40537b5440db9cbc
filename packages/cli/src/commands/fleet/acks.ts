// `fleet ack` and `fleet unack`: one heartbeat's operator acks in Redis, beside its state.
import { decodeFleetState } from '@heartbeat-kit/bullmq';
import { closeRedisClient, createRedisAckStore, createRedisClient, fleetKeys } from '@heartbeat-kit/bullmq/node';
import type { JsonValue } from '@heartbeat-kit/core';
import { DEFAULT_CATEGORIES } from '@heartbeat-kit/scanners';
import { addAck, knownFindingsOf, removeAcks, resolveAckSelector } from '@heartbeat-kit/core/host';
import { ok } from 'neverthrow';
import { usageFailure } from '../../cli-kernel/index.js';
import { EXIT } from '../../exit-codes.js';
import { commandClock } from '../../wiring/instant.js';
import { ackJson, ackLine } from '../ack.js';
import { notInFleet, redisFailed, thrownMessage, type FleetOutcome } from './output.js';
import type { RegistryTarget } from './registrations.js';
import type { FleetAckRequest } from './request.js';

/** `fleet ack ID SELECTOR …` (or `--list`): the heartbeat must be registered; the selector known to its state. */
export async function fleetAck(at: RegistryTarget, request: FleetAckRequest): Promise<FleetOutcome> {
  const { io } = at;
  const keys = fleetKeys(at.prefix);
  const redis = createRedisClient(at.target);
  try {
    const store = createRedisAckStore({ redis, key: keys.acks(request.id) });
    if ((await redis.hexists(keys.registry, request.id)) === 0) return notInFleet(request.id);
    const loaded = await store.load();
    if (loaded.isErr()) return redisFailed(loaded.error.message);
    for (const warning of loaded.value.warnings) io.stderr(`heartbeat-kit fleet ack: warning: ${warning}\n`);
    if (request.selector === undefined) {
      const { acks } = loaded.value.book;
      if (at.json) io.stdout(`${JSON.stringify({ acks: acks.map((a) => ackJson(a, request.at)), warnings: loaded.value.warnings })}\n`);
      else if (acks.length === 0) io.stdout(`no acks for ${request.id}\n`);
      else for (const ack of acks) io.stdout(`${ackLine(ack, request.at)}\n`);
      return ok(EXIT.ok);
    }
    const text = await redis.get(keys.state(request.id));
    let document: JsonValue | undefined;
    try {
      document = text === null ? undefined : (JSON.parse(text) as JsonValue);
    } catch {
      document = undefined; // unreadable state: only the category table is known
    }
    const state = decodeFleetState(document).state.heartbeat;
    const resolved = resolveAckSelector(request.selector, knownFindingsOf(state), DEFAULT_CATEGORIES);
    if (resolved.isErr()) return usageFailure(`SELECTOR ${resolved.error.message}`);
    const by = request.by || io.env.USER || io.env.LOGNAME || 'operator';
    const added = addAck(loaded.value.book, {
      selector: request.selector.trim(),
      resolved: resolved.value,
      note: request.note,
      by,
      at: request.at,
      until: request.until,
      snooze: request.snooze,
    });
    if (added.isErr()) return usageFailure(added.error.message);
    const { ack } = added.value;
    if (request.rehearsal) {
      io.stderr(`heartbeat-kit fleet ack: rehearsal at ${request.at.toISOString()} (--now): nothing was written.\n`);
      io.stdout(
        at.json
          ? `${JSON.stringify({ id: request.id, ack: ackJson(ack, request.at), rehearsal: true })}\n`
          : `would ack ${request.id}: ${ackLine(ack, request.at)}\n`,
      );
      return ok(EXIT.ok);
    }
    const saved = await store.save(added.value.book);
    if (saved.isErr()) return redisFailed(saved.error.message);
    io.stdout(
      at.json
        ? `${JSON.stringify({ id: request.id, ack: ackJson(ack, request.at) })}\n`
        : `acked ${request.id}: ${ackLine(ack, request.at)}\n`,
    );
    return ok(EXIT.ok);
  } catch (error) {
    return redisFailed(thrownMessage(error));
  } finally {
    await closeRedisClient(redis);
  }
}

/** `fleet unack ID SELECTOR`: removes the heartbeat's acks that SELECTOR names. */
export async function fleetUnack(at: RegistryTarget, id: string, selector: string): Promise<FleetOutcome> {
  const { io } = at;
  const redis = createRedisClient(at.target);
  try {
    const store = createRedisAckStore({ redis, key: fleetKeys(at.prefix).acks(id) });
    const loaded = await store.load();
    if (loaded.isErr()) return redisFailed(loaded.error.message);
    const removed = removeAcks(loaded.value.book, selector);
    if (removed.isErr())
      return usageFailure(
        `SELECTOR ${removed.error.message.replace("'heartbeat-kit ack --list'", `'heartbeat-kit fleet ack ${id} --list'`)}`,
      );
    const saved = await store.save(removed.value.book);
    if (saved.isErr()) return redisFailed(saved.error.message);
    const now = commandClock(io, undefined).now();
    if (at.json) io.stdout(`${JSON.stringify({ id, removed: removed.value.removed.map((a) => ackJson(a, now)) })}\n`);
    else for (const ack of removed.value.removed) io.stdout(`unacked ${id}: ${ackLine(ack, now)}\n`);
    return ok(EXIT.ok);
  } catch (error) {
    return redisFailed(thrownMessage(error));
  } finally {
    await closeRedisClient(redis);
  }
}
