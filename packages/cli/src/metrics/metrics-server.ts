import { createServer, type Server } from 'node:http';
import type { MetricInputs } from './metric-figures.js';
import type { MetricsListen, MetricsText } from './metrics-export.js';
import { metricsText } from './metrics-export.js';

// A module of its own: only `loop` and `fleet worker` import it, so a one-shot `cycle` never loads node:http.

/** A running `/metrics` endpoint. */
export interface MetricsServer {
  /** The address it listens on, e.g. `http://127.0.0.1:9464/metrics`. */
  readonly url: string;
  readonly close: () => Promise<void>;
}

/**
 * Serves `GET /metrics` (figures computed at each scrape by `inputs`); anything else is 404, a method
 * other than GET or HEAD 405. Rejects when the address cannot be taken (in use, not local).
 */
export async function startMetricsServer(listen: MetricsListen, inputs: () => Promise<MetricInputs>): Promise<MetricsServer> {
  return serveMetrics(listen, async () => metricsText(await inputs()));
}

/** {@link startMetricsServer} for any figures: `render` computes the text at each scrape (the fleet worker's own registry). */
export async function serveMetrics(listen: MetricsListen, render: () => Promise<MetricsText>): Promise<MetricsServer> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found: the figures are at /metrics\n');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    render().then(
      ({ text, contentType }) => response.writeHead(200, { 'content-type': contentType }).end(request.method === 'HEAD' ? undefined : text),
      (error: unknown) =>
        response.writeHead(500, { 'content-type': 'text/plain' }).end(`cannot compute the figures: ${(error as Error).message}\n`),
    );
  });
  // A scraper that keeps its connection open must not hold the loop's exit.
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : listen.port;
  const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
  return {
    url: `http://${host}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
