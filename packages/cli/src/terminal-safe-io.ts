import { sanitizeForTerminal, type TerminalTextMode } from '@heartbeat-kit/core/host';
import type { CliIo } from './io.js';

/**
 * `io` with every write to stdout and stderr passed through core's {@link sanitizeForTerminal}:
 * the one place the CLI filters what reaches a terminal, so a command that prints an untrusted
 * field (a receipt's detail, a tool's message, a file name) cannot emit an escape sequence even
 * when it forgot to sanitise that field. `json`: the output is JSON lines, escaped rather than cut.
 */
export function terminalSafeIo(io: CliIo, mode: TerminalTextMode): CliIo {
  return {
    ...io,
    stdout: (text) => io.stdout(sanitizeForTerminal(text, mode)),
    stderr: (text) => io.stderr(sanitizeForTerminal(text, mode)),
  };
}
