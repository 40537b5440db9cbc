/**
 * @heartbeat-kit/mcp/node — serving the heartbeat's MCP server on this process's stdin/stdout.
 * @module @heartbeat-kit/mcp/node
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { buildMcpServer } from '../create-heartbeat-mcp-server.js';
import type { HeartbeatMcpDeps } from '../heartbeat-mcp-deps.js';

/**
 * The largest JSON-RPC message read from stdin (the SDK's default is 10 MiB, and a bigger one
 * closes the connection). Above the SDK's: a client's oversized argument (a 10 MB note) is then a
 * validation error naming the argument, and the session goes on.
 */
export const MAX_STDIO_MESSAGE_BYTES = 32 * 1024 * 1024;

/** Options of {@link serveStdio}. */
export interface ServeStdioOptions {
  /** Stops serving when it aborts. */
  readonly signal?: AbortSignal;
  /** Where transport errors go (a malformed line, a message over the limit): one line each. */
  readonly onError?: (message: string) => void;
  /** Default {@link MAX_STDIO_MESSAGE_BYTES}. */
  readonly maxMessageBytes?: number;
}

/** How serving ended: the client closed stdin, the signal aborted, or the transport failed (`error`). */
export interface ServeStdioEnd {
  readonly error?: string;
}

/**
 * Serves `deps` over stdio until the client closes stdin, the transport fails or `signal` aborts.
 * Nothing else may write to stdout meanwhile: it carries the protocol.
 */
export async function serveStdio(deps: HeartbeatMcpDeps, options: ServeStdioOptions = {}): Promise<ServeStdioEnd> {
  const server = buildMcpServer(deps);
  const transport = new StdioServerTransport(process.stdin, process.stdout, {
    maxBufferSize: options.maxMessageBytes ?? MAX_STDIO_MESSAGE_BYTES,
  });
  let fatal: string | undefined;
  const ended = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
    server.server.onerror = (error) => {
      options.onError?.(error.message);
      if (/exceeded maximum size/.test(error.message)) fatal = error.message;
    };
    process.stdin.once('end', () => resolve());
    options.signal?.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.connect(transport);
  await ended;
  await server.close();
  // The transport only pauses stdin: a paused pipe would keep the process alive after the session.
  process.stdin.destroy();
  return fatal === undefined ? {} : { error: fatal };
}
