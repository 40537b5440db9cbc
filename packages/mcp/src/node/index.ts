/**
 * @heartbeat-kit/mcp/node — serving the heartbeat's MCP server on this process's stdin/stdout.
 * @module @heartbeat-kit/mcp/node
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createHeartbeatMcpServer } from '../create-heartbeat-mcp-server.js';
import type { HeartbeatMcpDeps } from '../heartbeat-mcp-deps.js';

/**
 * Serves `deps` over stdio until the client closes stdin or `signal` aborts. Resolves then.
 * Nothing else may write to stdout meanwhile: it carries the protocol.
 */
export async function serveStdio(deps: HeartbeatMcpDeps, signal?: AbortSignal): Promise<void> {
  const server = createHeartbeatMcpServer(deps);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
    signal?.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
