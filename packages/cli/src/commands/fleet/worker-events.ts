// What `fleet worker` says on stderr: every event as a JSON line with --json; without it, only
// what an operator acts on.
import type { FleetEvent } from '@heartbeat-kit/bullmq/node';
import type { CliIo } from '../../io.js';

/** A Redis outage makes BullMQ repeat one error many times a second: each text is printed once per this. */
export const QUEUE_ERROR_QUIET_MS = 60_000;

const PREFIX = 'heartbeat-kit fleet worker:';

/**
 * The worker's event printer. With `json` every event is one JSON line; without it failures,
 * warnings, the sink breaker, lost locks and restarted ticks are sentences. Either way BullMQ's
 * errors are printed once per distinct text per {@link QUEUE_ERROR_QUIET_MS} (the metrics count
 * every one). `now` is the clock the throttle reads.
 */
export function createEventPrinter(io: Pick<CliIo, 'stderr'>, json: boolean, now: () => number = Date.now): (event: FleetEvent) => void {
  const printedAt = new Map<string, number>();
  const printQueueError = (event: Extract<FleetEvent, { type: 'queue-error' }>): void => {
    const key = `${event.queue}\0${event.message}`;
    const last = printedAt.get(key);
    if (last !== undefined && now() - last < QUEUE_ERROR_QUIET_MS) return;
    if (printedAt.size > 100) printedAt.clear(); // errors with ever-new texts must not grow the map
    printedAt.set(key, now());
    io.stderr(json ? `${JSON.stringify(event)}\n` : `${PREFIX} ${event.queue} queue: ${event.message} (BullMQ retries)\n`);
  };
  return (event) => {
    if (event.type === 'queue-error') printQueueError(event);
    else if (json) io.stderr(`${JSON.stringify(event)}\n`);
    else printOperatorEvent(io, event);
  };
}

function printOperatorEvent(io: Pick<CliIo, 'stderr'>, event: FleetEvent): void {
  if (event.type === 'failed') io.stderr(`${PREFIX} ${event.heartbeatId} slot ${event.slot} failed: ${event.message}\n`);
  else if (event.type === 'cycle' && event.warnings !== undefined)
    for (const warning of event.warnings) io.stderr(`${PREFIX} ${event.heartbeatId} cycle ${event.cycle}: warning: ${warning}\n`);
  else if (event.type === 'sink-breaker' && event.kind !== 'held')
    // The operator's channel is stderr: the sink that fails cannot carry its own advisory.
    io.stderr(
      `${PREFIX} ${event.heartbeatId}: ${event.advisory === undefined ? event.line : `${event.advisory.line}\n  Action: ${event.advisory.action}`}\n`,
    );
  else if (event.type === 'ticks-restarted') {
    const why =
      event.lostTickMs === undefined ? 'it had no job scheduler' : `the tick due ${new Date(event.lostTickMs).toISOString()} never came`;
    io.stderr(`${PREFIX} ${event.heartbeatId}: its ticks had stopped (${why}); scheduled again\n`);
  } else if (event.type === 'stale-write')
    io.stderr(
      `${PREFIX} ${event.heartbeatId} slot ${event.slot}: lost the lock (fence ${event.fence} < ${event.current}); write rejected\n`,
    );
}
