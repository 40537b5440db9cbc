/**
 * A fleet worker process for the multi-process tests: real Redis, fake scanners, a JSONL sink
 * file shared by every worker (one `appendFileSync` per message, atomic for short lines).
 * With FLEET_HOLD_FIRST_DELIVERY=<file>, the first worker to claim that file (exclusive create)
 * writes its pid there and never finishes its first delivery, so a test can kill it mid-cycle
 * at a known step instead of after a guessed delay. FLEET_HOLD_FIRST_SCAN=<file> does the same
 * inside the first scan (the cycle holds the heartbeat lock and has committed nothing).
 */
import { appendFileSync, closeSync, openSync, writeSync } from 'node:fs';
import type { Scanner } from '@heartbeat-kit/core';
import { ok, okAsync, ResultAsync } from 'neverthrow';
import { parseRedisUrl } from '../../src/index.js';
import { createFleetWorker } from '../../src/node/index.js';
import { createFakeResolver } from '../../src/testing/index.js';

const env = (name: string): string | undefined => process.env[name];
const number = (name: string): number | undefined => (env(name) === undefined ? undefined : Number(env(name)));

const target = parseRedisUrl(env('FLEET_REDIS_URL') ?? '')._unsafeUnwrap();
const sinkFile = env('FLEET_SINK_FILE') ?? '';
const holdGate = env('FLEET_HOLD_FIRST_DELIVERY');
const scanGate = env('FLEET_HOLD_FIRST_SCAN');
/** True once, in the one worker that claimed the gate file. */
const claimHold = (gate = holdGate): boolean => {
  if (gate === undefined) return false;
  let fd: number;
  try {
    fd = openSync(gate, 'wx');
  } catch {
    return false;
  }
  writeSync(fd, `${process.pid}\n`);
  closeSync(fd);
  return true;
};
const fakes = createFakeResolver();
const worker = createFleetWorker({
  target,
  prefix: env('FLEET_PREFIX') ?? 'hbk',
  journal: true,
  resolve: async (heartbeat, slot) => {
    const setup = await fakes(heartbeat, slot);
    if (setup.isErr() || scanGate === undefined) return setup;
    const scanners = setup.value.scanners.map((scanner): Scanner => ({
      ...scanner,
      scan: (context) => (claimHold(scanGate) ? new Promise<never>(() => undefined) : scanner.scan(context)),
    }));
    return ok({ ...setup.value, scanners });
  },
  ...(number('FLEET_CONCURRENCY') === undefined ? {} : { concurrency: number('FLEET_CONCURRENCY')! }),
  ...(number('FLEET_LOCK_TTL_MS') === undefined ? {} : { lockTtlMs: number('FLEET_LOCK_TTL_MS')! }),
  ...(number('FLEET_MIN_REPLICA_ACKS') === undefined ? {} : { minReplicaAcks: number('FLEET_MIN_REPLICA_ACKS')! }),
  ...(number('FLEET_JOB_LOCK_MS') === undefined ? {} : { jobLockMs: number('FLEET_JOB_LOCK_MS')! }),
  ...(number('FLEET_STALLED_MS') === undefined ? {} : { stalledIntervalMs: number('FLEET_STALLED_MS')! }),
  ...(number('FLEET_TICK_WATCHDOG_MS') === undefined ? {} : { tickWatchdogMs: number('FLEET_TICK_WATCHDOG_MS')! }),
  sink: {
    deliver: (delivery) => {
      if (claimHold()) return new ResultAsync(new Promise<never>(() => undefined));
      appendFileSync(
        sinkFile,
        `${JSON.stringify({ id: delivery.id, heartbeatId: delivery.heartbeatId, cycle: delivery.cycle, summary: delivery.message.summary, pid: process.pid })}\n`,
      );
      return okAsync(undefined);
    },
  },
});
process.stdout.write(`ready ${worker.id}\n`);
const stop = (): void => {
  void worker.close().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
