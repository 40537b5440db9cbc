import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { OutboundMessage } from '@heartbeat-kit/core';
import { createWebhookSink } from './webhook-sink.js';

const message: OutboundMessage = {
  kind: 'work_found',
  content: 'WORK_FOUND: P0_WORK_READY',
  summary: 'P0_WORK_READY -- x',
  cycle: 3,
  at: '2026-02-19T14:50:00.000Z',
};

let server: Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

async function listen(answers: number[], headers: IncomingMessage['headers'][] = []): Promise<{ url: string; bodies: string[] }> {
  const bodies: string[] = [];
  server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      bodies.push(body);
      headers.push(req.headers);
      res.statusCode = answers.shift() ?? 200;
      res.end();
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, bodies };
}

describe('webhook sink (real HTTP on 127.0.0.1)', () => {
  it('POSTs the message as JSON and retries 5xx until a 2xx confirms', async () => {
    const { url, bodies } = await listen([503, 500, 204]);
    const result = await createWebhookSink({ url, attempts: 3, backoffMs: () => 1 }).deliver(message);
    expect(result.isOk()).toBe(true);
    expect(bodies).toHaveLength(3);
    expect(JSON.parse(bodies[0]!)).toEqual(message);
  });

  it('fails at once on a 4xx (retrying will not help) and after the last attempt on 5xx', async () => {
    const four = await listen([400, 200]);
    const rejected = await createWebhookSink({ url: four.url, attempts: 3, backoffMs: () => 1 }).deliver(message);
    expect(rejected.isErr() && rejected.error.message).toMatch(/after 1 attempt\(s\): HTTP 400/);
    expect(four.bodies).toHaveLength(1);
    await new Promise<void>((r) => server!.close(() => r()));
    const five = await listen([502, 502]);
    const exhausted = await createWebhookSink({ url: five.url, attempts: 2, backoffMs: () => 1 }).deliver(message);
    expect(exhausted.isErr() && exhausted.error.message).toMatch(/after 2 attempt\(s\): HTTP 502/);
    expect(five.bodies).toHaveLength(2);
  });

  it('times out a server that never answers', async () => {
    server = createServer(() => {
      /* never responds */
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const result = await createWebhookSink({ url, attempts: 1, timeoutMs: 200 }).deliver(message);
    expect(result.isErr()).toBe(true);
    server.closeAllConnections();
  });

  it('sends the same message id in the body and the Idempotency-Key header on every attempt, and the Authorization header', async () => {
    const headers: IncomingMessage['headers'][] = [];
    const { url, bodies } = await listen([503, 204], headers);
    const result = await createWebhookSink({ url, attempts: 3, backoffMs: () => 1, authorization: 'Bearer s3cr3t-token' }).deliver({
      ...message,
      id: 'hb-abc',
    });
    expect(result.isOk()).toBe(true);
    expect(bodies.map((b) => (JSON.parse(b) as { id: string }).id)).toEqual(['hb-abc', 'hb-abc']);
    expect(headers.map((h) => h['idempotency-key'])).toEqual(['hb-abc', 'hb-abc']);
    expect(headers[0]!.authorization).toBe('Bearer s3cr3t-token');
  });

  it('a receiver that never answers costs at most the total delivery budget, not attempts x timeout', async () => {
    server = createServer(() => {
      // never answers
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const result = await createWebhookSink({
      url,
      attempts: 3,
      timeoutMs: 3_600_000,
      totalTimeoutMs: 200,
      backoffMs: () => 3_600_000,
    }).deliver(message);
    expect(result.isErr() && result.error.message).toMatch(/after 1 attempt\(s\): gave up after 200 ms in total/);
    server.closeAllConnections();
  });
});
