import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ResultAsync, errAsync, okAsync } from 'neverthrow';
import { heldWhy } from '@heartbeat-kit/core/host';
import type { FleetSink } from '@heartbeat-kit/bullmq/node';
import type { CliIo } from '../../io.js';
import type { SinkSpec } from '../../sinks/sink-spec.js';
import { createCycleDeps, resolvePath } from '../../wiring/cycle-deps.js';

/**
 * The worker's sink. stdout and JSONL keep the heartbeat id and the stable message id (so a
 * reader can drop a re-delivery); webhook and command sinks get the message as `cycle` sends it.
 */
export function createFleetSink(spec: SinkSpec, io: CliIo): FleetSink {
  switch (spec.kind) {
    case 'stdout':
      return {
        name: 'stdout',
        deliver: (delivery) => {
          io.stdout(`[${delivery.heartbeatId} cycle ${delivery.cycle}] ${delivery.message.content}\n`);
          return okAsync(undefined);
        },
      };
    case 'file': {
      const path = resolvePath(io.cwd, spec.path);
      return {
        name: 'file',
        deliver: (delivery) =>
          ResultAsync.fromPromise(
            mkdir(dirname(path), { recursive: true }).then(() => appendFile(path, `${JSON.stringify(delivery)}\n`, 'utf8')),
            (error) => ({ kind: 'delivery-failed' as const, message: `cannot append to ${path}: ${(error as Error).message}` }),
          ),
      };
    }
    case 'webhook':
    case 'command':
    case 'inbox':
    case 'tmux': {
      const sink = createCycleDeps({ cwd: io.cwd, statePath: io.cwd, sink: spec, io }).sink;
      // The outbox knows delivered or not: a held message (a busy pane) is not delivered, so it is retried.
      return {
        name: spec.kind,
        deliver: (delivery) =>
          sink.deliver(delivery.message).andThen((sent) => {
            const why = heldWhy(sent);
            return why === undefined
              ? okAsync(undefined)
              : errAsync({ kind: 'delivery-failed' as const, message: `held: ${why}`, code: 'held' });
          }),
      };
    }
  }
}
