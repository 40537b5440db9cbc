/**
 * A loopback monitor for `--ping` tests: records every ping (method, path, query, body) and
 * answers as the test says: a status, or `hang` (never answers: the slow monitor).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/** One ping as the monitor saw it. */
export interface ReceivedPing {
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly body: string;
}

/** A running monitor. */
export interface PingReceiver {
  /** The base URL to pass to `--ping` (`http://127.0.0.1:PORT/ping/<check>`). */
  readonly url: string;
  readonly pings: ReceivedPing[];
  /** Resolves once `count` pings arrived. */
  readonly received: (count: number) => Promise<void>;
}

/** Call at the top of a test file; every monitor is closed after each test. */
export function usePingReceivers(): (answer?: (ping: ReceivedPing) => number | 'hang') => Promise<PingReceiver> {
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
  return async (answer = () => 200) => {
    const pings: ReceivedPing[] = [];
    const waiters: { count: number; resolve: () => void }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        const ping = { method: req.method ?? '', path: url.pathname, query: Object.fromEntries(url.searchParams), body };
        pings.push(ping);
        for (const waiter of waiters.filter((w) => pings.length >= w.count)) waiter.resolve();
        const status = answer(ping);
        if (status !== 'hang') res.writeHead(status).end('OK');
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}/ping/check-1`,
      pings,
      received: (count) => (pings.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve }))),
    };
  };
}

/** A loopback URL nothing listens on (a port taken and released): pings to it are refused. */
export async function refusedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/ping/check-1`;
}
