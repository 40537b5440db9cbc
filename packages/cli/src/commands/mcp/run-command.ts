import type { McpOutcome } from '@heartbeat-kit/mcp';
import { EXIT } from '../../exit-codes.js';
import type { CliIo, Command } from '../../io.js';

/** Where every tool's commands look: the flags `heartbeat-kit mcp` was started with. */
export interface McpTarget {
  readonly cwd?: string | undefined;
  readonly config?: string | undefined;
  readonly state?: string | undefined;
  /** `--tmux-socket`, for the commands that run a cycle. */
  readonly tmuxSocket?: string | undefined;
}

/**
 * Runs one of the CLI's own commands in-process with `--json` and captured output: a tool decides
 * exactly what the command decides, and its error is the command's stderr text, fix included.
 * Nothing reaches the real stdout, which carries the MCP protocol.
 */
export async function runJsonCommand(
  io: CliIo,
  command: Command,
  args: readonly string[],
  ok: (code: number) => boolean = (code) => code === EXIT.ok,
): Promise<McpOutcome & { readonly warnings?: readonly string[] }> {
  let out = '';
  let err = '';
  const captured: CliIo = {
    ...io,
    stdout: (text) => void (out += text),
    stderr: (text) => void (err += text),
    info: () => undefined,
  };
  const code = await command(['--json', ...args], captured);
  if (!ok(code)) return { ok: false, message: err.trim() === '' ? `exited ${code} without a message` : err.trim() };
  try {
    return { ok: true, value: JSON.parse(out) as unknown };
  } catch {
    return { ok: false, message: `heartbeat-kit mcp: the command printed no JSON (exit ${code}): ${err.trim() || out.slice(0, 200)}` };
  }
}

/** The `--cwd`/`--config`/`--state` flags a command takes, from the server's target. */
export function targetFlags(target: McpTarget, take: readonly ('cwd' | 'config' | 'state' | 'tmuxSocket')[]): string[] {
  const flags: string[] = [];
  for (const name of take) {
    const value = target[name];
    if (value !== undefined) flags.push(`--${name === 'tmuxSocket' ? 'tmux-socket' : name}=${value}`);
  }
  return flags;
}
