import { createHash } from 'node:crypto';
import { redactSecrets } from '@heartbeat-kit/core';
import { stripTerminalEscapes } from '@heartbeat-kit/core/host';

/** How many trailing lines of a pane count: the last 20, as the original heartbeat reads them with `tail -20` (spec 000). */
export const PANE_TAIL_LINES = 20;

/**
 * Normalises `tmux capture-pane -p` output for comparison across cycles: escapes and controls
 * stripped, trailing spaces and trailing blank rows (unused pane height) removed, the last 20
 * lines kept, secrets redacted so neither state nor logs hold them.
 */
export function normalisePaneCapture(stdout: string): string {
  const lines = stripTerminalEscapes(stdout)
    .split(/\r?\n/)
    .map((line) => line.trimEnd());
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  return redactSecrets(lines.slice(-PANE_TAIL_LINES).join('\n'));
}

/** sha256 (hex) of the normalised capture: the value core compares between cycles for ORCH_IDLE. */
export function hashPaneCapture(stdout: string): string {
  return createHash('sha256').update(normalisePaneCapture(stdout), 'utf8').digest('hex');
}
