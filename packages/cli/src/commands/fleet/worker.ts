// `heartbeat-kit fleet worker`: runs a fleet worker until SIGINT/SIGTERM, its events on stderr.
import type { RedisTarget } from '@heartbeat-kit/bullmq';
import { createFleetWorker, type FleetEvent } from '@heartbeat-kit/bullmq/node';
import { err, ok } from 'neverthrow';
import { EXIT } from '../../exit-codes.js';
import { printInfo } from '../../errors.js';
import type { CliIo } from '../../io.js';
import { createFleetSink } from './fleet-sink.js';
import type { FleetOutcome } from './output.js';
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
  const worker = createFleetWorker({
    target,
    prefix,
    sink: createFleetSink(options.sink, io),
    resolve: createProjectResolver(io, options.fakeScanners),
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    ...(options.lockTtlMs === undefined ? {} : { lockTtlMs: options.lockTtlMs }),
    ...(options.minReplicaAcks === undefined ? {} : { minReplicaAcks: options.minReplicaAcks }),
    onEvent: (event) => {
      metrics?.onEvent(event);
      if (json) io.stderr(`${JSON.stringify(event)}\n`);
      else printEvent(io, event);
    },
    ...(metrics === undefined ? {} : { onJob: metrics.onJob }),
  });
  await metrics?.attach(worker);
  printInfo(io, `heartbeat-kit fleet worker: ${worker.id} running (prefix ${prefix}); stop with Ctrl-C\n`);
  if (!io.shutdownSignal.aborted)
    await new Promise<void>((resolve) => io.shutdownSignal.addEventListener('abort', () => resolve(), { once: true }));
  await worker.close();
  await metrics?.close();
  return ok(EXIT.ok);
}

// Without --json only what an operator acts on is printed: failures, warnings, the sink breaker and lost locks.
function printEvent(io: CliIo, event: FleetEvent): void {
  if (event.type === 'failed') io.stderr(`heartbeat-kit fleet worker: ${event.heartbeatId} slot ${event.slot} failed: ${event.message}\n`);
  else if (event.type === 'cycle' && event.warnings !== undefined)
    for (const warning of event.warnings)
      io.stderr(`heartbeat-kit fleet worker: ${event.heartbeatId} cycle ${event.cycle}: warning: ${warning}\n`);
  else if (event.type === 'sink-breaker' && event.kind !== 'held')
    // The operator's channel is stderr: the sink that fails cannot carry its own advisory.
    io.stderr(
      `heartbeat-kit fleet worker: ${event.heartbeatId}: ${event.advisory === undefined ? event.line : `${event.advisory.line}\n  Action: ${event.advisory.action}`}\n`,
    );
  else if (event.type === 'stale-write')
    io.stderr(
      `heartbeat-kit fleet worker: ${event.heartbeatId} slot ${event.slot}: lost the lock (fence ${event.fence} < ${event.current}); write rejected\n`,
    );
}
