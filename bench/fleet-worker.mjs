// One fleet worker process for bench/fleet-bench.mjs: the built @heartbeat-kit/bullmq, fake
// scanners, a sink that only counts, the journal on (the bench reads due and start times from it).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseRedisUrl } from '../packages/bullmq/dist/index.js';
import { createFleetWorker } from '../packages/bullmq/dist/node/index.js';
import { createFakeResolver } from '../packages/bullmq/dist/testing/index.js';

// neverthrow is a dependency of the package, not of the repository root: resolve it from there.
const { okAsync } = createRequire(join(import.meta.dirname, '../packages/bullmq/package.json'))('neverthrow');
const target = parseRedisUrl(process.env.FLEET_REDIS_URL ?? '');
if (target.isErr()) {
  process.stderr.write(`fleet-worker: FLEET_REDIS_URL: ${target.error}\n`);
  process.exit(2);
}
const worker = createFleetWorker({
  target: target.value,
  prefix: process.env.FLEET_PREFIX,
  concurrency: Number(process.env.FLEET_CONCURRENCY ?? 16),
  journal: process.env.FLEET_JOURNAL !== '0',
  resolve: createFakeResolver(),
  sink: { deliver: () => okAsync(undefined) },
});
process.stdout.write(`ready ${worker.id}\n`);
process.on(
  'SIGTERM',
  () =>
    void worker.close().then(() => {
      const usage = process.resourceUsage();
      const cpuMs = Math.round((usage.userCPUTime + usage.systemCPUTime) / 1000);
      process.stdout.write(`maxRSS ${usage.maxRSS} cpuMs ${cpuMs}\n`, () => process.exit(0));
    }),
);
