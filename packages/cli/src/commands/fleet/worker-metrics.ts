// `fleet worker --metrics-textfile/--metrics-listen`: the worker's figures (metrics/fleet-metrics.ts)
// served and written. Imported only when a metrics flag is given: prom-client and node:http stay unloaded otherwise.
import type { FleetEvent, FleetJobEvent, FleetWorker } from '@heartbeat-kit/bullmq/node';
import type { CliIo } from '../../io.js';
import { createFleetMetrics, type FleetMetricsSource } from '../../metrics/fleet-metrics.js';
import { writeMetricsText, type MetricsFlags } from '../../metrics/metrics-export.js';
import { serveMetrics, type MetricsServer } from '../../metrics/metrics-server.js';
import { ok, type Result } from 'neverthrow';
import { usageFailure, type CommandFailure } from '../../cli-kernel/index.js';

/** How often the textfile is rewritten when no job ends (queue depths and `up` stay fresh on an idle worker). */
export const TEXTFILE_REFRESH_MS = 15_000;

/** A fleet worker's metrics outputs: feed them the worker's events and jobs, attach the worker, close last. */
export interface WorkerMetrics {
  readonly onEvent: (event: FleetEvent) => void;
  readonly onJob: (event: FleetJobEvent) => void;
  /** Starts sampling `worker` and rewriting the textfile (after every job, and every {@link TEXTFILE_REFRESH_MS}). */
  readonly attach: (worker: FleetWorker) => Promise<void>;
  /** After the worker closed: stops the endpoint and writes the last textfile (`worker_up` 0). */
  readonly close: () => Promise<void>;
}

/**
 * Starts the `/metrics` endpoint (before the worker, so a taken port is exit 2 with nothing started)
 * and returns the outputs; or the usage error.
 */
export async function startWorkerMetrics(io: CliIo, flags: MetricsFlags): Promise<Result<WorkerMetrics, CommandFailure>> {
  const metrics = createFleetMetrics();
  let worker: FleetWorker | undefined;
  let closed = false;
  const source = (): FleetMetricsSource => ({
    workerId: worker?.id ?? 'starting',
    up: () => worker !== undefined && !closed,
    paused: () => closed || (worker?.paused() ?? true),
    queueCounts: () => (worker === undefined ? Promise.reject(new Error('no worker yet')) : worker.queueCounts()),
    registeredHeartbeats: () => (worker === undefined ? Promise.reject(new Error('no worker yet')) : worker.registeredHeartbeats()),
  });
  const render = () => metrics.render(source());

  let server: MetricsServer | undefined;
  if (flags.listen !== undefined) {
    const { host, port } = flags.listen;
    try {
      server = await serveMetrics(flags.listen, render);
    } catch (error) {
      return usageFailure(
        `--metrics-listen ${host}:${port}: cannot listen (${(error as Error).message}). Fix: pick a free port, or stop what holds it.`,
      );
    }
    io.stderr(`heartbeat-kit fleet worker: metrics at ${server.url}\n`);
  }

  const writer = textfileWriter(io, flags.textfile, render);
  let timer: NodeJS.Timeout | undefined;
  return ok({
    onEvent: metrics.onEvent,
    onJob: (event) => {
      metrics.onJob(event);
      if (event.phase === 'end') void writer.request();
    },
    attach: async (attached) => {
      worker = attached;
      await writer.request();
      if (flags.textfile !== undefined) timer = setInterval(() => void writer.request(), TEXTFILE_REFRESH_MS);
    },
    close: async () => {
      closed = true;
      clearInterval(timer);
      await server?.close();
      await writer.request();
    },
  });
}

/**
 * Rewrites the textfile on request, one write at a time: requests during a write coalesce into one
 * more write after it, so every job's end is in a write that began after it, and a busy worker does
 * not queue a write per job. A failing write is said once, until one works again.
 */
function textfileWriter(io: CliIo, path: string | undefined, render: Parameters<typeof writeMetricsText>[1]) {
  let running: Promise<void> | undefined;
  let again = false;
  let failing = false;
  const quietIo = { stderr: (text: string) => (failing ? undefined : io.stderr(text)) };
  const writeLoop = async (file: string): Promise<void> => {
    try {
      while (again) {
        again = false;
        failing = !(await writeMetricsText(file, render, quietIo, 'fleet worker'));
      }
    } finally {
      // In the same turn as the last check of `again`: a request after it starts a new loop.
      running = undefined;
    }
  };
  return {
    request: (): Promise<void> => {
      if (path === undefined) return Promise.resolve();
      again = true;
      running ??= writeLoop(path);
      return running;
    },
  };
}
