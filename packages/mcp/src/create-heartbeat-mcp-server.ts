import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { HeartbeatMcpDeps, McpOutcome } from './heartbeat-mcp-deps.js';

// Bounds on every argument: a runaway or hostile client gets a clear validation error, never a
// 10 MB note written into the ack file or a pathological search.
const NOTE = z.string().min(1).max(500);
const SHORT = z.string().min(1).max(100);

/** The tools, in the order clients list them (at most 8: every tool costs tokens in every agent run). */
export const HEARTBEAT_MCP_TOOLS = ['status', 'plan', 'history', 'explain', 'cycle_dry_run', 'ack', 'pause', 'cycle'] as const;

const WRITE_TOOLS: ReadonlySet<string> = new Set(['ack', 'pause', 'cycle']);

/** The tool error of a write tool on a read-only server. */
export function writeRefusedMessage(tool: string): string {
  return `heartbeat-kit mcp: '${tool}' changes the heartbeat's state and this server is read-only. Fix: restart the server with --allow-write (heartbeat-kit mcp --allow-write).`;
}

/**
 * An MCP server over `deps`, not yet connected: connect it to a transport of your own
 * (`server.connect(transport)`), or serve it on stdio with `serveStdio` from `@heartbeat-kit/mcp/node`.
 *
 * @example
 * ```ts
 * import { createHeartbeatMcpServer, type HeartbeatMcpDeps } from '@heartbeat-kit/mcp';
 * import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
 *
 * declare const myDeps: HeartbeatMcpDeps; // your status, plan, history, … operations
 * const server = createHeartbeatMcpServer(myDeps);
 * await server.connect(new StdioServerTransport());
 * ```
 */
export function createHeartbeatMcpServer(deps: HeartbeatMcpDeps): HeartbeatMcpServer {
  const server = buildMcpServer(deps);
  return {
    // The SDK's server takes its own Transport type; ours is its structural core (see McpTransport).
    connect: (transport) => server.connect(transport),
    close: () => server.close(),
    sdkServer: server,
  };
}

/**
 * An MCP SDK transport as the server needs it (`StdioServerTransport`,
 * `StreamableHTTPServerTransport`, an `InMemoryTransport` … all fit). Declared here, structurally,
 * because the SDK's own declaration needs the DOM library (`HeadersInit`) in the embedder's tsconfig.
 */
export interface McpTransport {
  start(): Promise<void>;
  send(message: never, options?: never): Promise<void>;
  close(): Promise<void>;
}

/** A heartbeat MCP server, not yet connected. */
export interface HeartbeatMcpServer {
  /** Serves the tools over `transport` until it closes. */
  readonly connect: (transport: McpTransport) => Promise<void>;
  /** Closes the transport and the session. */
  readonly close: () => Promise<void>;
  /**
   * The SDK's `McpServer`, for what this interface leaves out (cast it to `McpServer` from
   * `@modelcontextprotocol/sdk/server/mcp.js`); typed `unknown` for the same DOM-library reason.
   */
  readonly sdkServer: unknown;
}

/** The SDK server with the tools and resources registered (serveStdio uses it directly). */
export function buildMcpServer(deps: HeartbeatMcpDeps): McpServer {
  const server = new McpServer({ name: 'heartbeat-kit', version: deps.version });
  const run: RunTool = async (tool, operation) => {
    if (WRITE_TOOLS.has(tool) && !deps.allowWrite) return toolError(writeRefusedMessage(tool));
    return asToolResult(await operation());
  };
  registerReadTools(server, deps, run);
  registerWriteTools(server, deps, run);
  registerResources(server, deps);
  return server;
}

/** Runs one tool's operation, refusing a write tool on a read-only server. */
type RunTool = (tool: string, operation: () => Promise<McpOutcome>) => Promise<CallToolResult>;

const read = { readOnlyHint: true, openWorldHint: false } as const;
const write = { readOnlyHint: false, destructiveHint: false, openWorldHint: false } as const;

function registerReadTools(server: McpServer, deps: HeartbeatMcpDeps, run: RunTool): void {
  server.registerTool(
    'status',
    {
      description: 'The heartbeat now: last cycle, next slot, open findings, breakers, acks and pause.',
      annotations: read,
    },
    () => run('status', deps.status),
  );
  server.registerTool(
    'plan',
    {
      description: 'Coming slots and what each will do (runs, critical-only, quiet hours, paused), runs of equal slots merged.',
      inputSchema: { hours: z.number().int().min(1).max(168).default(24).describe('how far ahead, in hours') },
      annotations: read,
    },
    ({ hours }) => run('plan', () => deps.plan({ hours })),
  );
  server.registerTool(
    'history',
    {
      description: 'Receipts of the latest slots: ran (status, delivery), or skipped/paused and why.',
      inputSchema: {
        since: SHORT.optional().describe('an ISO instant or a duration back from now, e.g. 2h'),
        limit: z.number().int().min(1).max(200).default(10).describe('at most this many, the newest'),
      },
      annotations: read,
    },
    ({ since, limit }) => run('history', () => deps.history({ since, limit })),
  );
  server.registerTool(
    'explain',
    {
      description:
        'Why each finding was reported or held now (new, changed, repeat, dedup, outside hours, acked, unconfirmed, breaker): a dry-run decision, writes nothing.',
      inputSchema: { match: SHORT.optional().describe('only findings whose subject, category or fingerprint contains this') },
      annotations: read,
    },
    ({ match }) => run('explain', () => deps.explain({ match })),
  );
  server.registerTool(
    'cycle_dry_run',
    {
      description: 'Run one cycle as a rehearsal: what would be sent, delivering and writing nothing.',
      annotations: read,
    },
    () => run('cycle_dry_run', deps.cycleDryRun),
  );
}

function registerWriteTools(server: McpServer, deps: HeartbeatMcpDeps, run: RunTool): void {
  server.registerTool(
    'ack',
    {
      description:
        'Acknowledge a finding (selector: fingerprint, category or subject) with a note: not reported while unchanged. Needs --allow-write.',
      inputSchema: {
        selector: SHORT,
        note: NOTE,
        for: SHORT.optional().describe('e.g. 4h'),
        until: SHORT.optional().describe('ISO instant'),
        snooze: z.boolean().optional().describe('also end when the finding clears'),
      },
      annotations: write,
    },
    (input) => run('ack', () => deps.ack(input)),
  );
  server.registerTool(
    'pause',
    {
      description: 'Pause the heartbeat with a note (or resume: true to end the pause). Needs --allow-write.',
      inputSchema: {
        resume: z.boolean().optional().describe('end the pause instead'),
        note: NOTE.optional().describe('why (required to pause)'),
        for: SHORT.optional().describe('e.g. 2h'),
        until: SHORT.optional().describe('ISO instant'),
        scanners: z.array(SHORT).max(16).optional().describe('pause only these scanners'),
        exceptCritical: z.boolean().optional().describe('still report P0/P1 findings'),
      },
      annotations: write,
    },
    (input) => run('pause', () => deps.pause(input)),
  );
  server.registerTool(
    'cycle',
    {
      description: 'Run one real cycle now: deliver to the configured sinks, save state and receipt. Needs --allow-write.',
      annotations: { ...write, openWorldHint: true },
    },
    () => run('cycle', deps.cycle),
  );
}

function registerResources(server: McpServer, deps: HeartbeatMcpDeps): void {
  server.registerResource(
    'config',
    'heartbeat://config',
    { description: 'The effective heartbeat configuration (HEARTBEAT.md with defaults applied).', mimeType: 'application/json' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: resourceText(await deps.config()) }] }),
  );
  server.registerResource(
    'last-report',
    'heartbeat://last-report',
    { description: 'The last cycle receipt and the message it sent, if any.', mimeType: 'application/json' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: resourceText(await deps.lastReport()) }] }),
  );
}

/** Compact JSON: agents pay for every token, whitespace included. */
function asToolResult(outcome: McpOutcome): CallToolResult {
  if (!outcome.ok) return toolError(outcome.message);
  return { content: [{ type: 'text', text: JSON.stringify(outcome.value) }] };
}

function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

function resourceText(outcome: McpOutcome): string {
  return JSON.stringify(outcome.ok ? outcome.value : { error: outcome.message });
}
