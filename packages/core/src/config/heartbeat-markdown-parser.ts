import { err, ok, type Result } from 'neverthrow';
import { formatDays } from '../time/calendar.js';
import type { CategoryTable } from '../domain/category-table.js';
import { heartbeatConfigSchema, heartbeatConfigSchemaFor, type HeartbeatConfig } from './heartbeat-config-schema.js';
import { readHeartbeatSettings, type ReadSettings } from './heartbeat-markdown-reader.js';
import type { ConfigSection } from './config-section.js';

/** Where the heartbeat configuration lives, relative to the project root: `.claude/HEARTBEAT.md`, where the original heartbeat reads it (spec 000). */
export const DEFAULT_HEARTBEAT_FILE = '.claude/HEARTBEAT.md';

/** A value in HEARTBEAT.md that cannot be used, with where it is and how to fix it. */
export interface HeartbeatConfigError {
  /** Discriminant. */
  readonly kind: 'invalid-heartbeat-config';
  /** The file name given to the parser (default `.claude/HEARTBEAT.md`). */
  readonly file: string;
  /** 1-based line of the offending value. */
  readonly line: number;
  /** Heading and key as written, e.g. `Active Hours → Start`. */
  readonly key: string;
  /** The value as written (escapes stripped, shortened). */
  readonly value: string;
  /** What is wrong, as the end of a sentence about the value: `has minutes 60; minutes go 00–59.` */
  readonly message: string;
  /** What to write instead: `write a time HH:MM on the 24-hour clock, such as 08:30.` */
  readonly fix: string;
}

/** A parsed HEARTBEAT.md. */
export interface ParsedHeartbeatConfig {
  /** The configuration, spec defaults filled in. */
  readonly config: HeartbeatConfig;
  /** False for a missing, empty or whitespace-only file (the startup line says `HEARTBEAT.md: missing`). */
  readonly found: boolean;
  /** Unknown sections and keys, duplicate keys and ignored lines; tolerated, never fatal. */
  readonly warnings: readonly string[];
  /** `missing` (no text), `empty` (only whitespace: defaults, by the spec) or `found`. */
  readonly presence: 'found' | 'empty' | 'missing';
  /** False when the file has text but not one heading or key heartbeat-kit recognises. */
  readonly recognised: boolean;
}

/** Options of {@link parseHeartbeatConfig}. */
export interface ParseHeartbeatConfigOptions {
  /** Name used in errors and warnings; default `.claude/HEARTBEAT.md`. */
  readonly file?: string;
  /**
   * The host's category table: a check may not take one of its categories (the CLI passes the
   * CoBuilder table, `DEFAULT_CATEGORIES` of `@heartbeat-kit/scanners`). Default: none reserved.
   */
  readonly categories?: CategoryTable;
  /** The host's scanners' names: a check may not be called like one (the CLI passes `BUILTIN_SCANNERS`). Default: none reserved. */
  readonly scanners?: readonly string[];
  /** The host's scanners' config sections: their headings and keys are read too (the CLI passes `BUILTIN_CONFIG_SECTIONS`). Default: none. */
  readonly sections?: readonly ConfigSection[];
}

/**
 * Parses `.claude/HEARTBEAT.md` (the original heartbeat's sections and keys, spec 000, plus
 * heartbeat-kit's extra keys). Missing, empty or whitespace-only text gives the defaults silently (the
 * operator may not have configured it yet: it is neither created nor warned about; spec 000); unknown
 * sections and keys become warnings; the first unusable value is an error that names the line,
 * the key and the fix. Never throws, whatever the text.
 *
 * @example
 * ```ts
 * import { parseHeartbeatConfig } from '@heartbeat-kit/core';
 *
 * const parsed = parseHeartbeatConfig('## Active Hours\n- Start: 9\n- End: 18\n- Timezone: Europe/Berlin\n');
 * if (parsed.isErr()) {
 *   const e = parsed.error; // e.g. ".claude/HEARTBEAT.md:2: Active Hours → Start: "25" has hour 25; hours go 00–23."
 *   console.error(`${e.file}:${e.line}: ${e.key} "${e.value}" ${e.message} Fix: ${e.fix}`);
 * } else {
 *   console.log(parsed.value.config.activeHours); // { start: '09:00', end: '18:00', weekend: false, timeZone: 'Europe/Berlin' }
 * }
 * ```
 */
export function parseHeartbeatConfig(
  markdown: string | undefined,
  options: ParseHeartbeatConfigOptions = {},
): Result<ParsedHeartbeatConfig, HeartbeatConfigError> {
  const file = options.file ?? DEFAULT_HEARTBEAT_FILE;
  const text = markdown ?? '';
  const warnings: string[] = [];
  const schema =
    options.categories === undefined && options.scanners === undefined && options.sections === undefined
      ? heartbeatConfigSchema
      : heartbeatConfigSchemaFor(options);
  if (text.trim() === '')
    return ok({
      config: schema.parse({}),
      found: false,
      warnings,
      presence: markdown === undefined ? 'missing' : 'empty',
      recognised: true,
    });
  const read = readHeartbeatSettings(text, file, warnings, options.sections);
  if (read.isErr()) {
    const { line, key, value, message, fix } = read.error;
    return err({ kind: 'invalid-heartbeat-config', file, line, key, value, message, fix });
  }
  const weekendWarning = weekendContradiction(read.value, file);
  if (weekendWarning !== undefined) warnings.push(weekendWarning);
  return checkSchema(read.value, file, schema).map((config) => ({
    config,
    found: true,
    warnings,
    presence: 'found' as const,
    recognised: read.value.recognised,
  }));
}

/** `Weekend: true` with `Days` that list no weekend day (or the reverse): Days wins, and a warning says so. */
function weekendContradiction({ draft, fieldLines }: ReadSettings, file: string): string | undefined {
  const { days: activeDaysSet, weekend: weekendFlag } = draft.activeHours;
  if (
    activeDaysSet !== undefined &&
    weekendFlag !== undefined &&
    weekendFlag !== (activeDaysSet.includes('Sat') || activeDaysSet.includes('Sun'))
  ) {
    const weekendLine = fieldLines.get('activeHours.weekend') ?? 1;
    return `${file}:${weekendLine}: Weekend: ${weekendFlag} is ignored: Days (line ${fieldLines.get('activeHours.days') ?? '?'}) lists the active days (${formatDays(activeDaysSet)}).`;
  }
  return undefined;
}

/** The draft through the schema, which fills in the defaults. */
function checkSchema(
  { draft, fieldLines }: ReadSettings,
  file: string,
  schema: typeof heartbeatConfigSchema,
): Result<HeartbeatConfig, HeartbeatConfigError> {
  const checked = schema.safeParse(draft);
  if (checked.success) return ok(checked.data);
  // Each reader validates its value, so this is a guard against the two drifting apart; what only the
  // whole can tell (a check's shell string, duplicate names) carries its own fix.
  const issue = checked.error.issues[0];
  const segments = issue?.path.map(String) ?? [];
  const path = segments.join('.');
  let line: number | undefined;
  for (let n = segments.length; n > 0 && line === undefined; n--) line = fieldLines.get(segments.slice(0, n).join('.'));
  const params = issue?.code === 'custom' ? (issue.params as { fix?: unknown } | undefined) : undefined;
  const check = segments[0] === 'checks' ? draft.checks?.[Number(segments[1])] : undefined;
  if (check !== undefined) {
    const field = segments[2];
    const missing = issue?.code === 'invalid_type' && field !== undefined && !Object.hasOwn(check, field);
    return err({
      kind: 'invalid-heartbeat-config',
      file,
      line: line ?? fieldLines.get(`checks.${segments[1]}.name`) ?? 1,
      key: `Checks → ${check.name}${field === undefined ? '' : ` → ${field}`}`,
      value: field === 'run' && typeof check.run === 'string' ? check.run.slice(0, 80) : '',
      message: missing ? `is missing: check ${check.name} has no ${field} line.` : `${issue?.message ?? 'is not valid'}.`,
      fix: `${typeof params?.fix === 'string' ? params.fix : missing ? `add "- ${field}: …" under "- name: ${check.name}"` : 'see docs/checks.md'}.`,
    });
  }
  return err({
    kind: 'invalid-heartbeat-config',
    file,
    line: line ?? 1,
    key: path,
    value: '',
    message: `is not valid: ${issue?.message ?? 'unknown problem'}.`,
    fix: typeof params?.fix === 'string' ? `${params.fix}.` : 'see the comments in a file written by `heartbeat-kit init`.',
  });
}

/**
 * One line for a human: `.claude/HEARTBEAT.md:4: Active Hours → Start: "08:60" has minutes 60;
 * minutes go 00–59. Fix: write a time HH:MM on the 24-hour clock, such as 08:30.`
 */
export function formatHeartbeatConfigError(error: HeartbeatConfigError): string {
  const value = error.value.replace(/\s+/g, ' ');
  return `${error.file}:${error.line}: ${error.key}: "${value}" ${error.message} Fix: ${error.fix}`;
}
