/**
 * The fleet outbox's sink circuit breaker, per heartbeat, against a real redis-server and a real
 * HTTP receiver on 127.0.0.1 that answers 503 and then 200. Nothing here counts time: the test
 * waits for behaviour (cycles, a trip, held messages, deliveries) and the timeout is a backstop.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errAsync, okAsync, ResultAsync } from 'neverthrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Receipt, SinkError } from '@heartbeat-kit/core';
import {
  createFleetScheduler,
  createFleetWorker,
  createRedisReceiptStore,
  fleetKeys,
  type FleetEvent,
  type FleetSink,
} from '../src/node/index.js';
import { createFakeResolver } from '../src/testing/index.js';
import { useRedis } from './support/redis-server.js';

const redis = useRedis();
let server: Server;
let url: string;
// What the receiver answers, and what it was sent (message id and the status it answered).
let answer = 503;
const requests: { id: string; status: number }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const status = answer;
      requests.push({ id: (JSON.parse(body) as { id: string }).id, status });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const waitFor = async (predicate: () => boolean | Promise<boolean>): Promise<void> => {
  while (!(await predicate())) await sleep(50);
};

/** A webhook sink as the CLI's answers: a non-2xx status is a failure coded `HTTP <status>`. */
const webhook: FleetSink = {
  name: 'webhook',
  deliver: (delivery) =>
    ResultAsync.fromPromise(
      fetch(url, { method: 'POST', body: JSON.stringify({ id: delivery.id, summary: delivery.message.summary }) }),
      (error): SinkError => ({ kind: 'delivery-failed', message: `webhook unreachable: ${(error as Error).message}` }),
    ).andThen((response) =>
      response.ok
        ? okAsync(undefined)
        : errAsync<void, SinkError>({
            kind: 'delivery-failed',
            code: `HTTP ${response.status}`,
            message: `webhook answered HTTP ${response.status}`,
          }),
    ),
};

describe('fleet outbox: sink circuit breaker', () => {
  it('a webhook answering 503 trips the heartbeat breaker once (one SINK_FAILING), its messages are held and tried only on back-off cycles (receipts: held), and every message is delivered once it answers 200', async () => {
    const prefix = 'sink-breaker';
    const intervalMs = 300;
    const fakes = createFakeResolver();
    const events: FleetEvent[] = [];
    const scheduler = createFleetScheduler({ target: redis.target, prefix });
    const worker = createFleetWorker({
      target: redis.target,
      prefix,
      sink: webhook,
      // Trip after 2 cycles failing the same way; back off to every 4th cycle.
      resolve: async (heartbeat, slot) =>
        (await fakes(heartbeat, slot)).map((setup) => ({ ...setup, config: { ...setup.config, breaker: { after: 2, backoffCap: 4 } } })),
      onEvent: (event) => events.push(event),
    });
    // A new finding every cycle: every cycle has a message for the outbox.
    (await scheduler.add({ id: 'hooked', intervalMs, source: { kind: 'scanners', set: 'fake', reportEvery: 1 } }))._unsafeUnwrap();
    const of = <T extends FleetEvent['type']>(type: T) => events.filter((e): e is Extract<FleetEvent, { type: T }> => e.type === type);
    const breaker = () => of('sink-breaker');

    // While the receiver answers 503: run until messages were held back over several cycles.
    await waitFor(() => of('cycle').length >= 12 && breaker().filter((e) => e.kind === 'held').length >= 3);
    const tripped = breaker().filter((e) => e.kind === 'tripped');
    expect(tripped).toHaveLength(1);
    expect(tripped[0]!.advisory?.line).toMatch(/^SINK_FAILING: webhook — HTTP 503 since \d\d:\d\d, 2 cycles; reports stay undelivered/);
    expect(tripped[0]!.advisory?.action).toContain('webhook answered HTTP 503');
    expect(requests.every((r) => r.status === 503)).toBe(true);
    const receiptsNow = async (): Promise<Receipt[]> => [
      ...(
        await createRedisReceiptStore({
          redis: redis.client,
          key: fleetKeys(prefix).receipts('hooked'),
          clock: { now: () => new Date() },
        }).list()
      )._unsafeUnwrap().receipts,
    ];
    await waitFor(async () => (await receiptsNow()).some((r) => r.kind === 'ran' && r.delivery === 'held'));
    // Back-off: on some cycles the breaker held every message back instead of trying it.
    expect(
      new Set(
        breaker()
          .filter((e) => e.kind === 'held')
          .map((e) => e.cycle),
      ).size,
    ).toBeGreaterThanOrEqual(1);

    // The receiver recovers; no new cycles after this point, so the outbox can drain.
    answer = 200;
    await waitFor(() => breaker().some((e) => e.kind === 'recovered'));
    (await scheduler.remove('hooked'))._unsafeUnwrap();
    await scheduler.close();
    const reported = new Set(
      of('cycle')
        .filter((c) => c.report)
        .map((c) => `hooked__${c.cycle}`),
    );
    await waitFor(() => [...reported].every((id) => requests.some((r) => r.id === id && r.status === 200)));
    await worker.close();

    // Nothing lost, nothing twice: every enqueued message reached the receiver with a 200 exactly once.
    const okIds = requests.filter((r) => r.status === 200).map((r) => r.id);
    expect(new Set(okIds).size).toBe(okIds.length);
    for (const id of reported) expect(okIds, id).toContain(id);
    expect(breaker().filter((e) => e.kind === 'tripped')).toHaveLength(1);
    const recovered = breaker().filter((e) => e.kind === 'recovered');
    expect(recovered).toHaveLength(1);
    expect(recovered[0]!.line).toMatch(/^webhook sink recovered: a delivery worked after \d+ failed deliveries in a row \(HTTP 503/);
    const state = JSON.parse((await redis.client.get(fleetKeys(prefix).state('hooked'))) ?? '{}') as { fleet: { sinkBreaker?: unknown } };
    expect(state.fleet.sinkBreaker).toBeUndefined();
    // The receipts say which slots' reports were held (neither delivered nor failed).
    const receipts = await receiptsNow();
    expect(receipts.filter((r) => r.kind === 'ran' && r.delivery === 'held').length).toBeGreaterThanOrEqual(1);
    expect(receipts.filter((r) => r.kind === 'ran' && r.delivery === 'queued').length).toBeGreaterThanOrEqual(2);
  }, 900_000);
});
