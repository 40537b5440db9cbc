// `heartbeat-kit mcp`: the heartbeat as MCP tools over stdio, for agents. The server is the optional
// package @heartbeat-kit/mcp (the MCP SDK is large; a plain install and the cycle path never load
// it); the tools' operations are this CLI's own commands (mcp/operations.ts).
import { parseArgs } from 'node:util';
import { serveStdio } from '@heartbeat-kit/mcp/node';
import packageJson from '../../package.json' with { type: 'json' };
import { EXIT } from '../exit-codes.js';
import type { Command } from '../io.js';
import { cliMcpOperations } from './mcp/operations.js';

/** Help text of `heartbeat-kit mcp`. */
export const MCP_HELP = `Usage: heartbeat-kit mcp [options]

Serves the heartbeat as a Model Context Protocol server on stdin/stdout (for Claude Code, Codex
and other agents; see docs/mcp.md). Needs the optional package @heartbeat-kit/mcp.

Tools (compact JSON): status, plan, history, explain, cycle_dry_run (read); ack, pause (with
resume: true to end it), cycle (write: refused unless started with --allow-write).
Resources: heartbeat://config (the effective config), heartbeat://last-report (the last cycle's receipt).

Options:
  --cwd DIR        a directory of the project's git repository (default: current directory)
  --config FILE    heartbeat config (default: as 'cycle', the nearest .claude/HEARTBEAT.md)
  --state FILE     the state file (default: as 'cycle')
  --tmux-socket NAME  as for cycle: the tmux server the cycles look at (tmux -L NAME)
  --allow-write    let the agent ack findings, pause/resume and run real cycles
  -h, --help       show this help

Exit codes: 0 the client closed the connection, 2 usage error, 3 a message over 32 MiB closed it.
`;

const OPTIONS = {
  cwd: { type: 'string' },
  config: { type: 'string' },
  state: { type: 'string' },
  'tmux-socket': { type: 'string' },
  'allow-write': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** `heartbeat-kit mcp`: serves until the client closes stdin or a stop signal arrives. */
export const mcpCommand: Command = async (argv, io) => {
  let values;
  try {
    ({ values } = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    io.stderr(`heartbeat-kit mcp: ${(error as Error).message}. Fix: see 'heartbeat-kit mcp --help'.\n`);
    return EXIT.usage;
  }
  if (values.help === true) {
    io.stdout(MCP_HELP);
    return EXIT.ok;
  }
  const target = { cwd: values.cwd, config: values.config, state: values.state, tmuxSocket: values['tmux-socket'] };
  const end = await serveStdio(cliMcpOperations(io, target, packageJson.version, values['allow-write'] === true), {
    signal: io.shutdownSignal,
    onError: (message) => io.stderr(`heartbeat-kit mcp: ${message}\n`),
  });
  if (end.error === undefined) return EXIT.ok;
  io.stderr(
    `heartbeat-kit mcp: closed the session: ${end.error}. Fix: send smaller arguments (notes are at most 500 characters) and reconnect.\n`,
  );
  return EXIT.failure;
};
