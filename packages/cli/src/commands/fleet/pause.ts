// `fleet pause` and `fleet resume`: one heartbeat's operator pause in Redis, beside its state.
import { closeRedisClient, createRedisClient, createRedisPauseStore, fleetKeys } from '@heartbeat-kit/bullmq/node';
import { describePause, type Pause } from '@heartbeat-kit/core/host';
import { ok } from 'neverthrow';
import { EXIT } from '../../exit-codes.js';
import { notInFleet, redisFailed, thrownMessage, type FleetOutcome } from './output.js';
import type { RegistryTarget } from './registrations.js';

/**
 * `fleet pause ID …`: the heartbeat must be registered; the pause (checked already) replaces any
 * earlier one. A `rehearsal` (`--now`) prints the pause and writes nothing.
 */
export async function fleetPause(at: RegistryTarget, id: string, pause: Pause, rehearsal = false): Promise<FleetOutcome> {
  const { io } = at;
  const keys = fleetKeys(at.prefix);
  const redis = createRedisClient(at.target);
  try {
    if ((await redis.hexists(keys.registry, id)) === 0) return notInFleet(id);
    if (rehearsal) {
      io.stderr(`heartbeat-kit fleet pause: rehearsal at ${pause.since} (--now): nothing was written.\n`);
      io.stdout(
        at.json
          ? `${JSON.stringify({ id, paused: pause, key: keys.pause(id), rehearsal: true })}\n`
          : `would pause ${id}: ${describePause(pause)}\n`,
      );
      return ok(EXIT.ok);
    }
    const store = createRedisPauseStore({ redis, key: keys.pause(id) });
    const before = await store.read();
    const written = await store.write(pause);
    if (written.isErr()) return redisFailed(written.error.message);
    const replaced = before.isOk() ? before.value : undefined;
    if (at.json)
      io.stdout(`${JSON.stringify({ id, paused: pause, key: keys.pause(id), ...(replaced === undefined ? {} : { replaced }) })}\n`);
    else {
      if (replaced !== undefined) io.stdout(`replaced the earlier pause of ${id} (${describePause(replaced)})\n`);
      io.stdout(`${id}: ${describePause(pause)}\n`);
    }
    return ok(EXIT.ok);
  } catch (error) {
    return redisFailed(thrownMessage(error));
  } finally {
    await closeRedisClient(redis);
  }
}

/** `fleet resume ID`: ends the heartbeat's pause (a damaged one too); nothing paused is not an error. */
export async function fleetResume(at: RegistryTarget, id: string): Promise<FleetOutcome> {
  const { io } = at;
  const key = fleetKeys(at.prefix).pause(id);
  const redis = createRedisClient(at.target);
  try {
    const cleared = await createRedisPauseStore({ redis, key }).clear();
    if (cleared.isErr()) return redisFailed(cleared.error.message);
    const pause = cleared.value;
    if (at.json) io.stdout(`${JSON.stringify({ id, resumed: pause !== undefined, ...(pause === undefined ? {} : { pause }), key })}\n`);
    else
      io.stdout(
        pause === undefined ? `${id} is not paused: nothing to resume\n` : `resumed ${id}: ended the pause (${describePause(pause)})\n`,
      );
    return ok(EXIT.ok);
  } catch (error) {
    return redisFailed(thrownMessage(error));
  } finally {
    await closeRedisClient(redis);
  }
}
