/**
 * A fleet worker process for the multi-process tests: real Redis, fake scanners, a JSONL sink
 * file shared by every worker (one `appendFileSync` per message, atomic for short lines).
 */
import { appendFileSync } from 'node:fs';
import { okAsync } from 'neverthrow';
import { parseRedisUrl } from '../../src/index.js';
import { createFleetWorker } from '../../src/node/index.js';

const env = (name: string): string | undefined => process.env[name];
const number = (name: string): number | undefined => (env(name) === undefined ? undefined : Number(env(name)));

const target = parseRedisUrl(env('FLEET_REDIS_URL') ?? '')._unsafeUnwrap();
const sinkFile = env('FLEET_SINK_FILE') ?? '';
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
      appendFileSync(sinkFile, `${JSON.stringify({ id: delivery.id, heartbeatId: delivery.heartbeatId, cycle: delivery.cycle, summary: delivery.message.summary, pid: process.pid })}\n`);
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
