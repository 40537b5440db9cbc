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

describe('webhook redirects (issue 25 item 9: two real receivers on 127.0.0.1, two origins)', () => {
  const receivers: Server[] = [];
  afterEach(() => Promise.all(receivers.splice(0).map((s) => new Promise<void>((r) => s.close(() => r())))));

  /** A receiver answering each request by `answer(path)`: a status, or a status and a Location. */
  async function receiver(
    answer: (path: string) => number | { status: number; location: string },
  ): Promise<{ origin: string; seen: { method: string; path: string; body: string; authorization?: string | undefined }[] }> {
    const seen: { method: string; path: string; body: string; authorization?: string | undefined }[] = [];
    const s = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', path: req.url ?? '', body, authorization: req.headers.authorization });
        const a = answer(req.url ?? '');
        res.writeHead(typeof a === 'number' ? a : a.status, typeof a === 'number' ? {} : { location: a.location }).end();
      });
    });
    receivers.push(s);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
    return { origin: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, seen };
  }

  it('a 307 to another origin is a failed delivery naming the Location, never delivered there, not retried (default)', async () => {
    const other = await receiver(() => 200);
    const hook = await receiver(() => ({ status: 307, location: `${other.origin}/stolen?token=abc` }));
    const result = await createWebhookSink({
      url: `${hook.origin}/hook`,
      attempts: 3,
      backoffMs: () => 1,
      authorization: 'Bearer s3cr3t',
    }).deliver(message);
    expect(result.isErr()).toBe(true);
    const error = result._unsafeUnwrapErr();
    expect(error.message).toBe(
      `webhook ${hook.origin} failed after 1 attempt(s): HTTP 307 redirect to ${other.origin}/stolen?…; not followed (redirects are not followed by default). Fix: point --sink webhook: at the new address`,
    );
    expect(error.code).toBe('HTTP 307');
    expect(hook.seen).toHaveLength(1);
    expect(other.seen).toEqual([]);
  });

  it('with followRedirects same-origin: a 307/308 within the origin is followed (POST, body, Authorization kept); another origin never', async () => {
    const other = await receiver(() => 200);
    const hook = await receiver((path) =>
      path === '/hook' ? { status: 307, location: '/v2/hook' } : path === '/v2/hook' ? { status: 308, location: `${other.origin}/x` } : 500,
    );
    const sink = (url: string) =>
      createWebhookSink({ url, attempts: 3, backoffMs: () => 1, authorization: 'Bearer s3cr3t', followRedirects: 'same-origin' });
    // /hook → /v2/hook (same origin, followed) → another origin (refused).
    const refused = await sink(`${hook.origin}/hook`).deliver(message);
    expect(refused._unsafeUnwrapErr().message).toBe(
      `webhook ${hook.origin} failed after 1 attempt(s): HTTP 308 redirect to ${other.origin}/x; not followed: another origin than ${hook.origin} (only same-origin redirects are followed). Fix: point --sink webhook: at the new address if you trust it`,
    );
    expect(other.seen).toEqual([]);
    expect(hook.seen.map((s) => [s.method, s.path])).toEqual([
      ['POST', '/hook'],
      ['POST', '/v2/hook'],
    ]);
    expect(hook.seen.map((s) => s.authorization)).toEqual(['Bearer s3cr3t', 'Bearer s3cr3t']);
    expect(JSON.parse(hook.seen[1]!.body)).toEqual(message);

    const landing = await receiver((path) => (path === '/hook' ? { status: 307, location: '/v2/hook' } : 204));
    expect((await sink(`${landing.origin}/hook`).deliver(message)).isOk()).toBe(true);
    expect(landing.seen.map((s) => [s.method, s.path, s.authorization])).toEqual([
      ['POST', '/hook', 'Bearer s3cr3t'],
      ['POST', '/v2/hook', 'Bearer s3cr3t'],
    ]);
    expect(JSON.parse(landing.seen[1]!.body)).toEqual(message);

    // Without the opt-in the same receiver is a failed delivery that names the same-origin Location.
    landing.seen.length = 0;
    const plain = await createWebhookSink({ url: `${landing.origin}/hook`, attempts: 3, backoffMs: () => 1 }).deliver(message);
    expect(plain._unsafeUnwrapErr().message).toBe(
      `webhook ${landing.origin} failed after 1 attempt(s): HTTP 307 redirect to ${landing.origin}/v2/hook; not followed (redirects are not followed by default). Fix: point --sink webhook: at the new address, or pass --sink-same-origin-redirects`,
    );
    expect(landing.seen).toHaveLength(1);
  });

  it('with same-origin: a 301/302/303 is not followed (it would turn the POST into a GET), nor a redirect loop past 5', async () => {
    const moved = await receiver(() => ({ status: 302, location: '/elsewhere' }));
    const sink = (url: string) => createWebhookSink({ url, attempts: 2, backoffMs: () => 1, followRedirects: 'same-origin' });
    expect((await sink(`${moved.origin}/hook`).deliver(message))._unsafeUnwrapErr().message).toContain(
      `HTTP 302 redirect to ${moved.origin}/elsewhere; not followed: a 302 would turn the POST into a GET without the message`,
    );
    expect(moved.seen.map((s) => s.method)).toEqual(['POST']);
    const loop = await receiver(() => ({ status: 307, location: '/hook' }));
    expect((await sink(`${loop.origin}/hook`).deliver(message))._unsafeUnwrapErr().message).toContain(
      'not followed: more than 5 redirects in a row',
    );
    expect(loop.seen).toHaveLength(6);
  });
});
