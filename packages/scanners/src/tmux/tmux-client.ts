import { err, ok, type Result } from 'neverthrow';
import type { CommandRunner } from '@heartbeat-kit/core';
import { firstStderrLine, runTool, type DurationMeter } from '../scanner-support.js';
import { interpretListSessions, TMUX_SESSION_FORMAT, type TmuxSession } from './parse-list-sessions.js';

// The runner sets LC_ALL=C, under which tmux prints the tab separators (and any non-ASCII) as `_`;
// `-u` makes it write UTF-8 whatever the locale, so tabs survive and a tab inside a name shows as `\t`.
const CLIENT_FLAGS = ['-u'] as const;

/** How the scanners reach tmux. */
export interface TmuxDeps {
  readonly runner: CommandRunner;
  /** Socket selection put before the subcommand: `['-L', name]` or `['-S', path]`; default none. */
  readonly tmuxArgs?: readonly string[];
  /** The tmux executable (default `tmux`). */
  readonly tmuxFile?: string;
}

/** Why tmux could not be read. */
export type TmuxClientError = { readonly kind: 'tool-missing'; readonly message: string } | { readonly kind: 'failed'; readonly message: string };

/** Lists sessions with `-F` (never the padded default form); no server = zero sessions. */
export async function listTmuxSessions(deps: TmuxDeps, signal: AbortSignal, meter: DurationMeter): Promise<Result<readonly TmuxSession[], TmuxClientError>> {
  const file = deps.tmuxFile ?? 'tmux';
  const outcome = await runTool(deps.runner, { file, args: [...CLIENT_FLAGS, ...(deps.tmuxArgs ?? []), 'list-sessions', '-F', TMUX_SESSION_FORMAT], profile: 'tmux' }, signal, meter);
  if (outcome.kind === 'missing') return err({ kind: 'tool-missing', message: outcome.reason });
  if (outcome.kind === 'failed') return err({ kind: 'failed', message: outcome.reason });
  return interpretListSessions(outcome.output).mapErr((e): TmuxClientError => ({
    kind: 'failed',
    message: e.kind === 'tmux-failed' ? `tmux list-sessions exited ${e.exitCode}: ${firstStderrLine(e.stderr)}` : `tmux list-sessions: malformed line ${e.line}`,
  }));
}

/** The capture-pane target of a session: its `$id` when known (exact, rename-proof), else `=name:` (exact match, pane form). */
export function paneTarget(session: Pick<TmuxSession, 'id' | 'name'>): string {
  return /^\$\d+$/.test(session.id) ? session.id : `=${session.name}:`;
}

/** Captures the visible pane of a session (`capture-pane -p`). */
export async function capturePane(deps: TmuxDeps, session: Pick<TmuxSession, 'id' | 'name'>, signal: AbortSignal, meter: DurationMeter): Promise<Result<string, TmuxClientError>> {
  const file = deps.tmuxFile ?? 'tmux';
  const outcome = await runTool(deps.runner, { file, args: [...CLIENT_FLAGS, ...(deps.tmuxArgs ?? []), 'capture-pane', '-p', '-t', paneTarget(session)], profile: 'tmux' }, signal, meter);
  if (outcome.kind === 'missing') return err({ kind: 'tool-missing', message: outcome.reason });
  if (outcome.kind === 'failed') return err({ kind: 'failed', message: outcome.reason });
  if (outcome.output.exitCode !== 0) return err({ kind: 'failed', message: `tmux capture-pane exited ${outcome.output.exitCode}: ${firstStderrLine(outcome.output.stderr)}` });
  return ok(outcome.output.stdout);
}
