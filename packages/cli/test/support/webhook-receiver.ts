/**
 * A local HTTP receiver for `--sink webhook:` tests: answers each request with a status the test
 * scripts and keeps the `work_found` reports it was sent, with the status each was answered.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/** A running receiver. */
export interface WebhookReceiver {
  readonly url: string;
  /** A value the answer function may read (tests flip it between cycles). */
  status: number;
  /** Bodies of `work_found` requests, with the status they were answered. */
  readonly reports: { status: number; content: string }[];
}

/**
 * Call at the top of a test file: returns a function that starts a receiver on 127.0.0.1 (its
 * `status` starts at 503); every receiver is closed after each test.
 */
export function useWebhookReceivers(): (answer: (receiver: WebhookReceiver) => number) => Promise<WebhookReceiver> {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  });
  return async (answer) => {
    const receiver: WebhookReceiver = { url: '', status: 503, reports: [] };
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        const message = JSON.parse(body) as { kind: string; content: string };
        const status = answer(receiver);
        if (message.kind === 'work_found') receiver.reports.push({ status, content: message.content });
        res.writeHead(status).end();
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return Object.assign(receiver, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` });
  };
}
