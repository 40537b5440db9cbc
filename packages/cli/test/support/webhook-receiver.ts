/**
 * A local HTTP receiver for `--sink webhook:` tests: answers each request with a status (and a
 * `Location`, to redirect) the test scripts and keeps the `work_found` reports it was sent, with
 * the status each was answered.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/** One `work_found` request as the receiver saw it. */
export interface ReceivedReport {
  /** The status it was answered. */
  readonly status: number;
  readonly content: string;
  /** The message id of the body (`id`). */
  readonly id: string | undefined;
  /** The per-finding ids of the body's `findings`, with their fingerprints. */
  readonly findings: readonly { readonly id: string; readonly fingerprint: string }[];
  /** The request's path (a followed redirect changes it). */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
}

/** A running receiver. */
export interface WebhookReceiver {
  readonly url: string;
  /** A value the answer function may read (tests flip it between cycles). */
  status: number;
  /** Bodies of `work_found` requests, with the status they were answered. */
  readonly reports: ReceivedReport[];
  /** Every request, whatever its body (a GET after a redirect has none). */
  readonly requests: { readonly method: string; readonly path: string }[];
}

/** How to answer one request: a status, or a status with the `Location` to redirect to. */
export type WebhookAnswer = number | { readonly status: number; readonly location: string };

/**
 * Call at the top of a test file: returns a function that starts a receiver on 127.0.0.1 (its
 * `status` starts at 503); every receiver is closed after each test.
 */
export function useWebhookReceivers(): (answer: (receiver: WebhookReceiver, path: string) => WebhookAnswer) => Promise<WebhookReceiver> {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(
      servers.splice(0).map(
        (server) =>
          new Promise<void>((resolve) => {
            server.closeAllConnections();
            server.close(() => resolve());
          }),
      ),
    );
  });
  return async (answer) => {
    const receiver: WebhookReceiver = { url: '', status: 503, reports: [], requests: [] };
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        const path = req.url ?? '/';
        receiver.requests.push({ method: req.method ?? '', path });
        const answered = answer(receiver, path);
        const status = typeof answered === 'number' ? answered : answered.status;
        let message: { kind?: string; content?: string; id?: string; findings?: { id: string; fingerprint: string }[] } = {};
        try {
          message = JSON.parse(body) as typeof message;
        } catch {
          // Not a message (a body-less request).
        }
        if (message.kind === 'work_found' || message.kind === 'resolved')
          receiver.reports.push({
            status,
            content: message.content ?? '',
            id: message.id,
            findings: (message.findings ?? []).map((f) => ({ id: f.id, fingerprint: f.fingerprint })),
            path,
            headers: req.headers,
          });
        res.writeHead(status, typeof answered === 'number' ? {} : { location: answered.location }).end();
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return Object.assign(receiver, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` });
  };
}
