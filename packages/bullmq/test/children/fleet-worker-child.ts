/**
 * A fleet worker process for the multi-process tests: real Redis, fake scanners, a JSONL sink
 * file shared by every worker (one `appendFileSync` per message, atomic for short lines).
 * With FLEET_HOLD_FIRST_DELIVERY=<file>, the first worker to claim that file (exclusive create)
 * writes its pid there and never finishes its first delivery, so a test can kill it mid-cycle
 * at a known step instead of after a guessed delay.
 */
import { appendFileSync, closeSync, openSync, writeSync } from 'node:fs';
import { okAsync, ResultAsync } from 'neverthrow';
import { parseRedisUrl } from '../../src/index.js';
import { createFleetWorker } from '../../src/node/index.js';

const env = (name: string): string | undefined => process.env[name];
const number = (name: string): number | undefined => (env(name) === undefined ? undefined : Number(env(name)));

const target = parseRedisUrl(env('FLEET_REDIS_URL') ?? '')._unsafeUnwrap();
const sinkFile = env('FLEET_SINK_FILE') ?? '';
const holdGate = env('FLEET_HOLD_FIRST_DELIVERY');
/** True once, in the one worker that claimed the gate file. */
const claimHold = (): boolean => {
  if (holdGate === undefined) return false;
  let fd: number;
  try {
    fd = openSync(holdGate, 'wx');
  } catch {
    return false;
  }
  writeSync(fd, `${process.pid}\n`);
  closeSync(fd);
  return true;
};
const worker = createFleetWorker({
  target,
  prefix: env('FLEET_PREFIX') ?? 'hbk',
  journal: true,
  ...(number('FLEET_CONCURRENCY') === undefined ? {} : { concurrency: number('FLEET_CONCURRENCY')! }),
  ...(number('FLEET_LOCK_TTL_MS') === undefined ? {} : { lockTtlMs: number('FLEET_LOCK_TTL_MS')! }),
  ...(number('FLEET_JOB_LOCK_MS') === undefined ? {} : { jobLockMs: number('FLEET_JOB_LOCK_MS')! }),
  ...(number('FLEET_STALLED_MS') === undefined ? {} : { stalledIntervalMs: number('FLEET_STALLED_MS')! }),
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
