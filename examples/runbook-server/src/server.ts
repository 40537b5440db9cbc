import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRulesGate, parseSystemStatus, runChecklistTick, validateRunbook, type GateMode } from '@heartbeat-kit/runbook';

/** Options of {@link startRunbookServer}. */
export interface RunbookServerOptions {
  /** IANA zone in which `MM-DD` dates are due (default UTC). */
  readonly timeZone?: string;
  /** `shadow` tags every checklist task with the gate's verdict; `enforce` lets a quiet verdict skip it. */
  readonly gateMode?: GateMode;
  /** Minimum time between checklist ticks (default 30 min, as the spec's server). */
  readonly intervalMs?: number;
  /** Clock for ticks that do not name their instant (default the system clock). */
  readonly now?: () => Date;
}

/** A running server; `url` is `http://127.0.0.1:<port>`. */
export interface RunbookServer {
  readonly url: string;
  readonly server: Server;
  readonly close: () => Promise<void>;
}

const MAX_BODY_BYTES = 1_000_000;

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(typeof body.error === 'string' ? body.error : `HTTP ${status}`);
  }
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, { error: `body larger than ${MAX_BODY_BYTES} bytes` });
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = `${JSON.stringify(body, null, 2)}\n`;
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

/**
 * Starts the server on 127.0.0.1 and a free port. Routes:
 *
 * - `PUT /runbook` (markdown body): the spec's tracked-item date check. 400 with line-numbered
 *   errors when it fails, else 200 with the warnings; only an accepted runbook replaces the old one.
 * - `GET /runbook`: the stored markdown (404 before the first accepted PUT).
 * - `POST /tick` (JSON `{ status, now? }`, `status` a version-1 system status snapshot): one checklist
 *   tick — preconditions, the deterministic rules gate, then the task to create or why not.
 */
export async function startRunbookServer(options: RunbookServerOptions = {}): Promise<RunbookServer> {
  let runbookText: string | null = null;
  const timeZone = options.timeZone ?? 'UTC';
  const settings = { intervalMs: options.intervalMs ?? 1_800_000, disabled: false, gateMode: options.gateMode ?? 'shadow' } as const;
  const gate = createRulesGate();
  const clock = options.now ?? (() => new Date());

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const route = `${request.method ?? ''} ${new URL(request.url ?? '/', 'http://127.0.0.1').pathname}`;
    switch (route) {
      case 'GET /runbook':
        if (runbookText === null) return send(response, 404, { error: 'no runbook yet; PUT one to /runbook' });
        response.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8' });
        response.end(runbookText);
        return;
      case 'PUT /runbook': {
        const text = await readBody(request);
        const validation = validateRunbook(text);
        const issues = (list: typeof validation.errors) =>
          list.map((issue) => ({ line: issue.line, code: issue.code, message: issue.message }));
        if (!validation.accepted) {
          return send(response, 400, {
            accepted: false,
            trackedItemCount: validation.trackedItemCount,
            errors: issues(validation.errors),
            warnings: issues(validation.warnings),
          });
        }
        runbookText = text;
        return send(response, 200, {
          accepted: true,
          trackedItemCount: validation.trackedItemCount,
          warnings: issues(validation.warnings),
        });
      }
      case 'POST /tick': {
        let body: unknown;
        try {
          body = JSON.parse(await readBody(request)) as unknown;
        } catch {
          throw new HttpError(400, { error: 'body is not JSON; send {"status": <system status snapshot>, "now"?: ISO}' });
        }
        const input = (typeof body === 'object' && body !== null ? body : {}) as { status?: unknown; now?: unknown };
        const status = parseSystemStatus(input.status, 'status');
        if (status.isErr()) throw new HttpError(400, { error: 'invalid status snapshot', problems: status.error.problems });
        const now = typeof input.now === 'string' ? new Date(input.now) : clock();
        if (Number.isNaN(now.getTime())) throw new HttpError(400, { error: `now "${String(input.now)}" is not an ISO instant` });
        const decision = await runChecklistTick({ runbookText, status: status.value, now, timeZone, settings }, { gate });
        const verdict = decision.verdict;
        return send(response, 200, {
          decision: decision.kind,
          ...(decision.kind === 'skip' ? { reason: decision.reason, detail: decision.detail } : { task: decision.task }),
          ...(verdict === undefined ? {} : { verdict }),
        });
      }
      default:
        return send(response, 404, { error: `no route ${route}; try PUT /runbook, GET /runbook, POST /tick` });
    }
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (error instanceof HttpError) send(response, error.status, error.body);
      else send(response, 500, { error: error instanceof Error ? error.message : String(error) });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
