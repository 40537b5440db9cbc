/** A systemd unit file as sections of key → values (a key may repeat, e.g. `ExecStart=`). */
export type UnitFile = ReadonlyMap<string, ReadonlyMap<string, readonly string[]>>;

/**
 * Parses systemd's INI dialect: `[Section]` headers, `Key=Value` lines, `#`/`;` comments,
 * backslash line continuations. Throws on a line that is none of these, naming it.
 */
export function parseUnitFile(text: string): UnitFile {
  const sections = new Map<string, Map<string, string[]>>();
  let current: Map<string, string[]> | undefined;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    let line = (lines[i] ?? '').trim();
    while (line.endsWith('\\') && i + 1 < lines.length) line = `${line.slice(0, -1)} ${(lines[++i] ?? '').trim()}`;
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[([A-Za-z]+)\]$/.exec(line);
    if (header?.[1] !== undefined) {
      current = new Map();
      sections.set(header[1], current);
      continue;
    }
    const pair = /^([A-Za-z][A-Za-z0-9]*)\s*=\s*(.*)$/.exec(line);
    if (pair?.[1] === undefined || current === undefined)
      throw new Error(`line ${i + 1} is not "[Section]" or "Key=Value" inside a section: ${line}`);
    const values = current.get(pair[1]) ?? [];
    values.push(pair[2] ?? '');
    current.set(pair[1], values);
  }
  return sections;
}

/** The single value of `section.key`, or undefined. Throws when the key is set twice. */
export function unitValue(unit: UnitFile, section: string, key: string): string | undefined {
  const values = unit.get(section)?.get(key);
  if (values === undefined) return undefined;
  if (values.length !== 1) throw new Error(`[${section}] ${key}= is set ${values.length} times`);
  return values[0];
}

const SPAN_UNITS: Readonly<Record<string, number>> = {
  ms: 0.001,
  msec: 0.001,
  s: 1,
  sec: 1,
  second: 1,
  seconds: 1,
  m: 60,
  min: 60,
  minute: 60,
  minutes: 60,
  h: 3600,
  hr: 3600,
  hour: 3600,
  hours: 3600,
};

/**
 * Seconds in a systemd time span (`TimeoutStopSec=2min`, `90`, `1min 30s`; a bare number is
 * seconds). Throws on a unit it does not know, so a check never passes on a misread value.
 */
export function parseTimeSpan(value: string): number {
  const parts = value.trim().match(/\d+(?:\.\d+)?\s*[a-z]*/g);
  if (parts === null || parts.join('').replace(/\s/g, '') !== value.replace(/\s/g, ''))
    throw new Error(`not a systemd time span: ${value}`);
  let seconds = 0;
  for (const part of parts) {
    const [, number = '', unit = ''] = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/.exec(part) ?? [];
    const factor = unit === '' ? 1 : Object.hasOwn(SPAN_UNITS, unit) ? SPAN_UNITS[unit] : undefined;
    if (factor === undefined) throw new Error(`unknown time unit "${unit}" in: ${value}`);
    seconds += Number(number) * factor;
  }
  return seconds;
}

/** Splits a crontab entry into its five time fields and the command; undefined for comments and blanks. */
export function parseCrontabLine(line: string): { readonly fields: readonly string[]; readonly command: string } | undefined {
  const trimmed = line.trim();
  if (trimmed === '' || trimmed.startsWith('#')) return undefined;
  const match = /^(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(.+)$/.exec(trimmed);
  if (match === null) throw new Error(`not a crontab entry (five time fields and a command): ${trimmed}`);
  return { fields: match.slice(1, 6), command: match[6] ?? '' };
}

/** The arguments after `heartbeat-kit` in a command line (shell words without quotes or operators). */
export function heartbeatArgs(command: string): readonly string[] {
  const segment = command.split(/&&|>>|>|\|/).find((part) => /\bheartbeat-kit\b/.test(part));
  if (segment === undefined) throw new Error(`no heartbeat-kit invocation in: ${command}`);
  const words = segment.trim().split(/\s+/);
  return words.slice(words.indexOf('heartbeat-kit') + 1);
}
