import { describe, expect, it } from 'vitest';
import { createEventPrinter, QUEUE_ERROR_QUIET_MS } from './worker-events.js';

const printer = (json = false) => {
  const lines: string[] = [];
  let nowMs = 0;
  const print = createEventPrinter({ stderr: (text) => void lines.push(text) }, json, () => nowMs);
  return { lines, print, advance: (ms: number) => void (nowMs += ms) };
};

describe('fleet worker event printer', () => {
  it('says which heartbeat had stopped ticking and that it runs again', () => {
    const { lines, print } = printer();
    print({ type: 'ticks-restarted', heartbeatId: 'api', lostTickMs: Date.UTC(2026, 1, 19, 14, 50), worker: 'w1' });
    print({ type: 'ticks-restarted', heartbeatId: 'web', worker: 'w1' });
    expect(lines).toEqual([
      'heartbeat-kit fleet worker: api: its ticks had stopped (the tick due 2026-02-19T14:50:00.000Z never came); scheduled again\n',
      'heartbeat-kit fleet worker: web: its ticks had stopped (it had no job scheduler); scheduled again\n',
    ]);
  });

  it('prints each BullMQ error text once a minute per queue, however often it repeats', () => {
    const { lines, print, advance } = printer();
    const error = { type: 'queue-error', queue: 'ticks', message: 'CLUSTERDOWN The cluster is down', worker: 'w1' } as const;
    for (let i = 0; i < 50; i += 1) print(error);
    print({ ...error, queue: 'cycles' });
    print({ ...error, message: 'READONLY' });
    advance(QUEUE_ERROR_QUIET_MS - 1);
    print(error);
    advance(1);
    print(error);
    expect(lines).toEqual([
      'heartbeat-kit fleet worker: ticks queue: CLUSTERDOWN The cluster is down (BullMQ retries)\n',
      'heartbeat-kit fleet worker: cycles queue: CLUSTERDOWN The cluster is down (BullMQ retries)\n',
      'heartbeat-kit fleet worker: ticks queue: READONLY (BullMQ retries)\n',
      'heartbeat-kit fleet worker: ticks queue: CLUSTERDOWN The cluster is down (BullMQ retries)\n',
    ]);
  });

  it('with --json prints every event as a JSON line, and BullMQ errors with the same throttle', () => {
    const { lines, print } = printer(true);
    const skip = { type: 'skip', heartbeatId: 'api', slot: 1, reason: 'already-ran', worker: 'w1' } as const;
    const error = { type: 'queue-error', queue: 'outbox', message: 'LOADING', worker: 'w1' } as const;
    print(skip);
    print(error);
    print(error);
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([skip, error]);
  });

  it('prints nothing for the events an operator does not act on', () => {
    const { lines, print } = printer();
    print({ type: 'skip', heartbeatId: 'api', slot: 1, reason: 'already-ran', worker: 'w1' });
    print({ type: 'delivered', heartbeatId: 'api', cycle: 1, id: 'api__1', fence: 1, worker: 'w1' });
    expect(lines).toEqual([]);
  });
});
