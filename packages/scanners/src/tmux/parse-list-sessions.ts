import { err, ok, type Result } from 'neverthrow';
import type { CommandOutput } from '@heartbeat-kit/core';

/** One tmux session as `list-sessions -F` reports it. */
export interface TmuxSession {
  /** Exact name as tmux prints it (a newline in a name shows as a literal `\n`). */
  readonly name: string;
  /** `$N`: stable across renames, the safest target. */
  readonly id: string;
  /** Epoch seconds of the last client input (not pane output). */
  readonly activity: number | undefined;
  readonly created: number | undefined;
  /** Number of attached clients. */
  readonly attached: number;
  readonly windows: number;
}

/** Fields of {@link TMUX_SESSION_FORMAT}, in order. */
export type TmuxSessionField = 'name' | 'id' | 'activity' | 'created' | 'attached' | 'windows';

/** The field order of {@link TMUX_SESSION_FORMAT}. */
export const TMUX_SESSION_FIELDS: readonly TmuxSessionField[] = ['name', 'id', 'activity', 'created', 'attached', 'windows'];

/** The `-F` format the scanners pass to `tmux list-sessions`: tab-separated, never the padded default form. */
export const TMUX_SESSION_FORMAT =
  '#{session_name}\t#{session_id}\t#{session_activity}\t#{session_created}\t#{session_attached}\t#{session_windows}';

/** Why tmux output could not be used. */
export type TmuxError =
  | { readonly kind: 'malformed-line'; readonly line: number; readonly text: string }
  | { readonly kind: 'tmux-failed'; readonly exitCode: number; readonly stderr: string };

function epoch(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d+$/.test(text)) return undefined;
  return Number(text);
}

function count(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d+$/.test(text)) return undefined;
  return Number(text);
}

/**
 * Parses `tmux list-sessions -F` output in {@link TMUX_SESSION_FORMAT} (or another order of the
 * same fields). A name may itself contain tabs, so the name column takes whatever the fixed
 * columns leave over.
 */
export function parseTmuxSessions(
  stdout: string,
  fields: readonly TmuxSessionField[] = TMUX_SESSION_FIELDS,
): Result<readonly TmuxSession[], TmuxError> {
  const nameIndex = fields.indexOf('name');
  const sessions: TmuxSession[] = [];
  const lines = stdout.split('\n');
  if (lines.at(-1) === '') lines.pop();
  for (const [index, line] of lines.entries()) {
    const parts = line.split('\t');
    const extra = parts.length - fields.length;
    if (extra < 0 || nameIndex === -1) return err({ kind: 'malformed-line', line: index + 1, text: line.slice(0, 200) });
    const values = new Map<TmuxSessionField, string>();
    for (const [i, field] of fields.entries()) {
      if (i < nameIndex) values.set(field, parts[i] ?? '');
      else if (i === nameIndex) values.set(field, parts.slice(i, i + extra + 1).join('\t'));
      else values.set(field, parts[i + extra] ?? '');
    }
    const id = values.get('id');
    const attached = count(values.get('attached'));
    const windows = count(values.get('windows'));
    if (id === undefined || !/^\$\d+$/.test(id) || attached === undefined || windows === undefined) {
      return err({ kind: 'malformed-line', line: index + 1, text: line.slice(0, 200) });
    }
    sessions.push({
      name: values.get('name') ?? '',
      id,
      activity: epoch(values.get('activity')),
      created: epoch(values.get('created')),
      attached,
      windows,
    });
  }
  return ok(sessions);
}

/**
 * True when tmux's stderr says no server is running (socket absent or left behind). The server
 * exits with its last session, so this is how "zero sessions" looks (tools.md §3.5). Other
 * `error connecting to` causes (e.g. Permission denied) are real errors.
 */
export function isNoTmuxServer(stderr: string): boolean {
  const first = stderr.trimStart();
  return first.startsWith('no server running on ') || /^error connecting to .*\(No such file or directory\)/.test(first);
}

/** Reads a finished `tmux list-sessions -F …` run: exit 0 parses, "no server" is zero sessions, anything else is an error. */
export function interpretListSessions(output: CommandOutput): Result<readonly TmuxSession[], TmuxError> {
  if (output.exitCode === 0) return parseTmuxSessions(output.stdout);
  if (isNoTmuxServer(output.stderr)) return ok([]);
  return err({ kind: 'tmux-failed', exitCode: output.exitCode, stderr: output.stderr.slice(0, 500) });
}
