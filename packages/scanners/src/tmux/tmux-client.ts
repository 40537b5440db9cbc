import { err, ok, type Result } from 'neverthrow';
import type { CommandRunner } from '@heartbeat-kit/core';
import { firstStderrLine, mapConcurrent, oncePerCycle, PER_SCANNER_CONCURRENCY, runTool, type DurationMeter } from '../scanner-support.js';
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
export type TmuxClientError =
  { readonly kind: 'tool-missing'; readonly message: string } | { readonly kind: 'failed'; readonly message: string };

/** Lists sessions with `-F` (never the padded default form); no server = zero sessions. */
export async function listTmuxSessions(
  deps: TmuxDeps,
  signal: AbortSignal,
  meter: DurationMeter,
): Promise<Result<readonly TmuxSession[], TmuxClientError>> {
  const file = deps.tmuxFile ?? 'tmux';
  const outcome = await runTool(
    deps.runner,
    {
      file,
      args: [...CLIENT_FLAGS, ...(deps.tmuxArgs ?? []), 'list-sessions', '-F', TMUX_SESSION_FORMAT],
      profile: 'tmux',
      // A listing, asked first by two scanners: a cycle may start it before they ask.
      speculative: true,
    },
    signal,
    meter,
  );
  if (outcome.kind === 'missing') return err({ kind: 'tool-missing', message: outcome.reason });
  if (outcome.kind === 'failed') return err({ kind: 'failed', message: outcome.reason });
  return interpretListSessions(outcome.output).mapErr((e): TmuxClientError => ({
    kind: 'failed',
    message:
      e.kind === 'tmux-failed'
        ? `tmux list-sessions exited ${e.exitCode}: ${firstStderrLine(e.stderr)}`
        : `tmux list-sessions: malformed line ${e.line}`,
  }));
}

/** The capture-pane target of a session: its `$id` when known (exact, rename-proof), else `=name:` (exact match, pane form). */
export function paneTarget(session: Pick<TmuxSession, 'id' | 'name'>): string {
  return /^\$\d+$/.test(session.id) ? session.id : `=${session.name}:`;
}

/** Captures the visible pane of a session (`capture-pane -p`). */
export async function capturePane(
  deps: TmuxDeps,
  session: Pick<TmuxSession, 'id' | 'name'>,
  signal: AbortSignal,
  meter: DurationMeter,
): Promise<Result<string, TmuxClientError>> {
  const file = deps.tmuxFile ?? 'tmux';
  const outcome = await runTool(
    deps.runner,
    { file, args: [...CLIENT_FLAGS, ...(deps.tmuxArgs ?? []), 'capture-pane', '-p', '-t', paneTarget(session)], profile: 'tmux' },
    signal,
    meter,
  );
  if (outcome.kind === 'missing') return err({ kind: 'tool-missing', message: outcome.reason });
  if (outcome.kind === 'failed') return err({ kind: 'failed', message: outcome.reason });
  if (outcome.output.exitCode !== 0)
    return err({
      kind: 'failed',
      message: `tmux capture-pane exited ${outcome.output.exitCode}: ${firstStderrLine(outcome.output.stderr)}`,
    });
  return ok(outcome.output.stdout);
}

/** Lists tmux sessions, once per cycle for every scanner that needs them. */
export interface TmuxSessionsSource {
  /** `list-sessions`; calls with the same `cycle` (the cycle's `now` object) share one run. */
  readonly list: (cycle: Date, signal: AbortSignal, meter: DurationMeter) => Promise<Result<readonly TmuxSession[], TmuxClientError>>;
}

/**
 * Creates a {@link TmuxSessionsSource}: the orchestrator and idle-orchestrator scanners share one
 * `list-sessions` per cycle. Keyed by the `now` object, so cycles never share a listing.
 */
export function createTmuxSessionsSource(deps: TmuxDeps): TmuxSessionsSource {
  return {
    list: oncePerCycle(
      (cycle) => cycle,
      (signal, meter) => listTmuxSessions(deps, signal, meter),
    ),
  };
}

// A pane capture without -e holds no control characters (tmux interprets them), so a marker
// made of them cannot be forged by what an agent prints.
const MARK = '\x01HK-CAPTURE\x1f';
/** Panes captured by one tmux client; more go to further calls, so one argument list stays small. */
export const CAPTURES_PER_CALL = 50;

/**
 * Captures the visible panes of many sessions with one tmux client per {@link CAPTURES_PER_CALL}
 * sessions (`capture-pane -p -t A ; display-message -p MARK ; …`), in the order given. tmux stops a
 * command sequence at the first failure (a session that ended since the listing); the sessions
 * from there on are captured one by one, so each failure is reported as {@link capturePane} does.
 */
export async function capturePanes(
  deps: TmuxDeps,
  sessions: readonly Pick<TmuxSession, 'id' | 'name'>[],
  signal: AbortSignal,
  meter: DurationMeter,
): Promise<readonly Result<string, TmuxClientError>[]> {
  const file = deps.tmuxFile ?? 'tmux';
  const chunks: (readonly Pick<TmuxSession, 'id' | 'name'>[])[] = [];
  for (let start = 0; start < sessions.length; start += CAPTURES_PER_CALL) chunks.push(sessions.slice(start, start + CAPTURES_PER_CALL));
  const perChunk = await mapConcurrent(chunks, PER_SCANNER_CONCURRENCY, async (chunk) => {
    const results: Result<string, TmuxClientError>[] = [];
    const args: string[] = [...CLIENT_FLAGS, ...(deps.tmuxArgs ?? [])];
    chunk.forEach((session, i) =>
      args.push(...(i === 0 ? [] : [';']), 'capture-pane', '-p', '-t', paneTarget(session), ';', 'display-message', '-p', `${MARK}${i}`),
    );
    const outcome = await runTool(deps.runner, { file, args, profile: 'tmux' }, signal, meter);
    if (outcome.kind === 'missing')
      return chunk.map((): Result<string, TmuxClientError> => err({ kind: 'tool-missing', message: outcome.reason }));
    const captured: string[] = [];
    if (outcome.kind === 'output') {
      const parts = outcome.output.stdout.split(MARK);
      // parts[k + 1] starts with "k\n"; the last part is what followed the last marker.
      for (let i = 0; i < chunk.length && i + 1 < parts.length; i += 1) {
        if (!parts[i + 1]!.startsWith(`${i}\n`)) break;
        captured.push(i === 0 ? parts[0]! : parts[i]!.slice(`${i - 1}\n`.length));
      }
    }
    for (const text of captured) results.push(ok(text));
    for (const session of chunk.slice(captured.length)) results.push(await capturePane(deps, session, signal, meter));
    return results;
  });
  return perChunk.flat();
}
