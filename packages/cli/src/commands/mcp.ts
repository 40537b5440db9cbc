// `heartbeat-kit mcp`: the heartbeat as MCP tools over stdio, for agents. The server is the optional
// package @heartbeat-kit/mcp (the MCP SDK is large; a plain install and the cycle path never load
// it); the tools' operations are this CLI's own commands (mcp/operations.ts).
import { serveStdio } from '@heartbeat-kit/mcp/node';
import packageJson from '../../package.json' with { type: 'json' };
import { ok } from 'neverthrow';
import { commandFailure, defineCommand } from '../cli-kernel/index.js';
import { EXIT } from '../exit-codes.js';
import { cliMcpOperations } from './mcp/operations.js';

/** `heartbeat-kit mcp`: serves until the client closes stdin or a stop signal arrives. */
export const mcpCommand = defineCommand(
  {
    name: 'mcp',
    usage: '[options]',
    description: `Serves the heartbeat as a Model Context Protocol server on stdin/stdout (for Claude Code, Codex
and other agents; see docs/mcp.md). Needs the optional package @heartbeat-kit/mcp.

Tools (compact JSON): status, plan, history, explain, cycle_dry_run (read); ack, pause (with
resume: true to end it), cycle (write: refused unless started with --allow-write).
Resources: heartbeat://config (the effective config), heartbeat://last-report (the last cycle's receipt).`,
    flags: {
      cwd: { type: 'string', value: 'DIR', help: "a directory of the project's git repository (default: current directory)" },
      config: { type: 'string', value: 'FILE', help: "heartbeat config (default: as 'cycle', the nearest .claude/HEARTBEAT.md)" },
      state: { type: 'string', value: 'FILE', help: "the state file (default: as 'cycle')" },
      'tmux-socket': { type: 'string', value: 'NAME', help: 'as for cycle: the tmux server the cycles look at (tmux -L NAME)' },
      'allow-write': { type: 'boolean', help: 'let the agent ack findings, pause/resume and run real cycles' },
    },
    exitCodes: [
      [EXIT.ok, 'the client closed the connection'],
      [EXIT.usage, 'usage error'],
      [EXIT.failure, 'a message over 32 MiB closed it'],
    ],
  },
  async ({ flags: values, io }) => {
    const target = { cwd: values.cwd, config: values.config, state: values.state, tmuxSocket: values['tmux-socket'] };
    const end = await serveStdio(cliMcpOperations(io, target, packageJson.version, values['allow-write'] === true), {
      signal: io.shutdownSignal,
      onError: (message) => io.stderr(`heartbeat-kit mcp: ${message}\n`),
    });
    if (end.error === undefined) return ok(EXIT.ok);
    return commandFailure(
      `closed the session: ${end.error}. Fix: send smaller arguments (notes are at most 500 characters) and reconnect.`,
    );
  },
);
