import { err, ok, type Result } from 'neverthrow';
import { compilePanePrompt, DEFAULT_PANE_PROMPT } from './pane-prompt.js';

/** How long a pane must stay unchanged, and what its prompt looks like (`--sink tmux:…`). */
export interface TmuxSinkSettings {
  readonly idleMs: number;
  readonly prompt: RegExp;
}

/** Seconds a pane must show the same text before the tmux sink types into it, by default. */
export const DEFAULT_TMUX_IDLE_SECONDS = 2;

/** The settings with nothing set: 2 s idle, Claude Code's or Codex's prompt. */
export const DEFAULT_TMUX_SINK_SETTINGS: TmuxSinkSettings = {
  idleMs: DEFAULT_TMUX_IDLE_SECONDS * 1000,
  prompt: new RegExp(`^(?:${DEFAULT_PANE_PROMPT})`, 'u'),
};

/**
 * Reads `HEARTBEAT_TMUX_IDLE_SECONDS` (0–600, default {@link DEFAULT_TMUX_IDLE_SECONDS}) and
 * `HEARTBEAT_TMUX_PROMPT` (a regular expression matched at a line start; default: Claude Code's or
 * Codex's prompt). The error names the variable and the fix.
 */
export function tmuxSinkSettings(env: Readonly<Record<string, string | undefined>>): Result<TmuxSinkSettings, string> {
  const rawIdle = env.HEARTBEAT_TMUX_IDLE_SECONDS;
  const idle = rawIdle === undefined || rawIdle === '' ? DEFAULT_TMUX_IDLE_SECONDS : Number(rawIdle);
  if (!Number.isFinite(idle) || idle < 0 || idle > 600 || !/^\d+(\.\d+)?$/.test(String(rawIdle ?? idle)))
    return err(
      `HEARTBEAT_TMUX_IDLE_SECONDS=${JSON.stringify(String(rawIdle).slice(0, 40))} is not a number of seconds from 0 to 600. Fix: e.g. HEARTBEAT_TMUX_IDLE_SECONDS=2`,
    );
  const source =
    env.HEARTBEAT_TMUX_PROMPT === undefined || env.HEARTBEAT_TMUX_PROMPT === '' ? DEFAULT_PANE_PROMPT : env.HEARTBEAT_TMUX_PROMPT;
  const prompt = source.length > 300 ? undefined : compilePanePrompt(source);
  // A pattern matching an empty line would take any pane for an idle prompt.
  if (prompt === undefined || prompt.test(''))
    return err(
      `HEARTBEAT_TMUX_PROMPT=${JSON.stringify(source.slice(0, 80))} is not a usable prompt pattern (a regular expression of at most 300 characters that does not match an empty line). Fix: e.g. HEARTBEAT_TMUX_PROMPT='> ' or unset it for the Claude Code / Codex default`,
    );
  return ok({ idleMs: Math.round(idle * 1000), prompt });
}
