/**
 * @heartbeat-kit/mcp — heartbeat-kit as Model Context Protocol tools: `createHeartbeatMcpServer`
 * builds the server over operations you provide (`heartbeat-kit mcp` provides the CLI's own); serve it
 * on stdio with `serveStdio` from `@heartbeat-kit/mcp/node`, or on a transport of your own.
 * @module @heartbeat-kit/mcp
 */
export {
  createHeartbeatMcpServer,
  HEARTBEAT_MCP_TOOLS,
  writeRefusedMessage,
  type HeartbeatMcpServer,
  type McpTransport,
} from './create-heartbeat-mcp-server.js';
export type { AckInput, ExplainInput, HeartbeatMcpDeps, HistoryInput, McpOutcome, PauseInput, PlanInput } from './heartbeat-mcp-deps.js';
