// `heartbeat-kit fleet worker`: runs a fleet worker until SIGINT/SIGTERM, its events on stderr.
import type { RedisTarget } from '@heartbeat-kit/bullmq';
import { createFleetWorker, DEFAULT_TICK_WATCHDOG_MS } from '@heartbeat-kit/bullmq/node';
import { formatDuration } from '@heartbeat-kit/core/host';
import { err, ok } from 'neverthrow';
import { EXIT } from '../../exit-codes.js';
import { printInfo } from '../../errors.js';
import type { CliIo } from '../../io.js';
import { createFleetSink } from './fleet-sink.js';
import type { FleetOutcome } from './output.js';
import { createEventPrinter } from './worker-events.js';
import { createProjectResolver } from './project-resolver.js';
import type { WorkerOptions } from './request.js';

/** Processes the fleet's slots, cycles and outbox until the shutdown signal; exit 0 once closed. */
export async function runWorker(
  io: CliIo,
  target: RedisTarget,
  prefix: string,
  options: WorkerOptions,
  json: boolean,
): Promise<FleetOutcome> {
  const { textfile, listen } = options.metrics;
  const started =
    textfile === undefined && listen === undefined
      ? undefined
      : await (await import('./worker-metrics.js')).startWorkerMetrics(io, options.metrics);
  if (started?.isErr() === true) return err(started.error);
  const metrics = started?.unwrapOr(undefined);
  const printEvent = createEventPrinter(io, json);
  const worker = createFleetWorker({
    target,
    prefix,
    sink: createFleetSink(options.sink, io),
    resolve: createProjectResolver(io, options.fakeScanners),
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    ...(options.lockTtlMs === undefined ? {} : { lockTtlMs: options.lockTtlMs }),
    ...(options.tickWatchdogMs === undefined ? {} : { tickWatchdogMs: options.tickWatchdogMs }),
    ...(options.minReplicaAcks === undefined ? {} : { minReplicaAcks: options.minReplicaAcks }),
    onEvent: (event) => {
      metrics?.onEvent(event);
      printEvent(event);
    },
    ...(metrics === undefined ? {} : { onJob: metrics.onJob }),
  });
  await metrics?.attach(worker);
  // The watchdog is said because "off" (or a long sweep) means a failover can stop a heartbeat for good.
  const watchdogMs = options.tickWatchdogMs ?? DEFAULT_TICK_WATCHDOG_MS;
  const watchdog = watchdogMs === 0 ? 'tick watchdog off' : `tick watchdog every ${formatDuration(watchdogMs)}`;
  printInfo(io, `heartbeat-kit fleet worker: ${worker.id} running (prefix ${prefix}), ${watchdog}; stop with Ctrl-C\n`);
  if (!io.shutdownSignal.aborted)
    await new Promise<void>((resolve) => io.shutdownSignal.addEventListener('abort', () => resolve(), { once: true }));
  await worker.close();
  await metrics?.close();
  return ok(EXIT.ok);
}
