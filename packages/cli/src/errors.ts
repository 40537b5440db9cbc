import type { CliIo } from './io.js';

/** Edit distance (insert, delete, substitute, swap of neighbours) between two short names. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i]!;
      const above = d[i - 1]!;
      row[j] = Math.min(above[j]! + 1, row[j - 1]! + 1, above[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The candidate a mistyped name most likely meant, for "did you mean": a unique prefix, else the
 * closest name within an edit distance of 2 (1 for names of up to 4 letters). Undefined when
 * nothing is close, so a wild guess is never offered.
 */
export function suggestName(input: string, candidates: readonly string[]): string | undefined {
  const typed = input.toLowerCase();
  const prefixed = candidates.filter((c) => typed.length >= 2 && c.startsWith(typed));
  if (prefixed.length === 1) return prefixed[0];
  const limit = typed.length <= 4 ? 1 : 2;
  const ranked = candidates
    .map((c) => ({ c, d: distance(typed, c) }))
    .filter((r) => r.d <= limit)
    .sort((x, y) => x.d - y.d);
  return ranked.length > 0 && (ranked.length === 1 || ranked[0]!.d < ranked[1]!.d) ? ranked[0]!.c : undefined;
}

/**
 * The message of the error for an unknown (sub)command, after `heartbeat-kit COMMAND: `:
 * `unknown subcommand 'chek'. Did you mean `check`? Fix: run 'heartbeat-kit help runbook' for the list.`
 */
export function unknownNameMessage(command: string, kind: 'command' | 'subcommand', name: string, candidates: readonly string[]): string {
  const guess = suggestName(name, candidates);
  const list = command === '' ? "'heartbeat-kit help'" : `'heartbeat-kit help ${command}'`;
  return `unknown ${kind} '${name}'.${guess === undefined ? '' : ` Did you mean \`${guess}\`?`} Fix: run ${list} for the list.`;
}

/**
 * The one error line for an unknown (sub)command: `heartbeat-kit runbook: unknown subcommand 'chek'.
 * Did you mean `check`? Fix: run 'heartbeat-kit help runbook' for the list.`
 */
export function unknownNameError(
  io: CliIo,
  command: string,
  kind: 'command' | 'subcommand',
  name: string,
  candidates: readonly string[],
): void {
  const where = command === '' ? 'heartbeat-kit' : `heartbeat-kit ${command}`;
  io.stderr(`${where}: ${unknownNameMessage(command, kind, name, candidates)}\n`);
}

/** The kind of a line on stderr, as `--json` labels it. */
type LineKind = 'error' | 'warning' | 'info';

/**
 * One stderr line as a JSON object: `{ error | warning | info, command, fix?, didYouMean? }`.
 * A stderr line is a warning when its text starts with `warning:` (`heartbeat-kit cycle: warning: …`,
 * or a located `FILE:LINE: warning: …`), else an error; info lines come from {@link printInfo}.
 */
function lineAsJson(line: string, fallbackCommand: string, channel: 'stderr' | 'info'): string {
  if (line.startsWith('{')) return line; // already JSON (fleet worker events)
  const prefixed = /^heartbeat-kit(?: ([a-z][a-z -]*?))?: (.*)$/.exec(line);
  const command = prefixed?.[1] ?? (prefixed ? null : fallbackCommand);
  let text = prefixed?.[2] ?? line;
  let kind: LineKind = channel === 'info' ? 'info' : 'error';
  if (channel === 'stderr' && /^warning: /.test(text)) {
    kind = 'warning';
    text = text.slice('warning: '.length);
  } else if (channel === 'stderr' && prefixed === null) {
    // `runbook.md:9: warning: …` (a validation line): the severity follows the location.
    const located = /^(.+?:\d+): (error|warning): (.*)$/.exec(line);
    if (located !== null) {
      kind = located[2] === 'warning' ? 'warning' : 'error';
      text = `${located[1]}: ${located[3]}`;
    }
  }
  const fixAt = text.indexOf(' Fix: ');
  const message = fixAt >= 0 ? text.slice(0, fixAt) : text;
  const fix = fixAt >= 0 ? text.slice(fixAt + ' Fix: '.length) : undefined;
  const didYouMean = /Did you mean `([^`]+)`\?/.exec(message)?.[1];
  return JSON.stringify({
    [kind]: message,
    command,
    ...(fix === undefined ? {} : { fix }),
    ...(didYouMean === undefined ? {} : { didYouMean }),
  });
}

/**
 * With `--json`, whatever a command writes to stderr becomes one JSON object per line, so a
 * program reading `--json` output never has to parse prose. Commands keep writing the one text
 * style (`heartbeat-kit <command>: <problem>. Fix: <how>`, `warning:` for a warning) and need no
 * JSON branch of their own; informational lines go through {@link printInfo}.
 */
export function withJsonStderr(io: CliIo, command: string): CliIo {
  const asJson = (channel: 'stderr' | 'info') => (text: string) => {
    const lines = text.split('\n').filter((line) => line.trim() !== '');
    if (lines.length > 0) io.stderr(`${lines.map((line) => lineAsJson(line, command, channel)).join('\n')}\n`);
  };
  return { ...io, stderr: asJson('stderr'), info: asJson('info') };
}

/** Writes an informational line: stderr as it is, `{"info": …}` with `--json` (never `{"error": …}`). */
export function printInfo(io: CliIo, text: string): void {
  (io.info ?? io.stderr)(text);
}

/** A dependency the CLI can run without; the commands that need it load it on demand. */
export interface OptionalPackage {
  readonly name: string;
  /** What it brings, for the message that says how to add it. */
  readonly why: string;
}

/** Whether `error` is Node's "cannot find package NAME" (not a missing file inside an installed package). */
export function isMissingPackage(error: unknown, name: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === 'ERR_MODULE_NOT_FOUND' && typeof message === 'string' && message.includes(`Cannot find package '${name}'`);
}

/**
 * `message. Fix: fix`, unless the message already ends with a fix of its own (a refused FIFO or
 * link names the file and what to do), so a line never carries two.
 */
export function withFix(message: string, fix: string): string {
  return message.includes(' Fix: ') ? message : `${message.replace(/\.$/, '')}. Fix: ${fix}`;
}
