import { err, ok, type Result } from 'neverthrow';
import { formatDays, formatTimeOfDay, parseDays, parseTimeOfDay, type Weekday } from '../time/calendar.js';
import { normalizeTimeZone } from '../time/time-zone.js';
import { splitCommaList } from '../text/comma-list.js';
import { ENV_NAME_PATTERN } from '../command/child-environment.js';
import { stripTerminalEscapes } from '../text/sanitize.js';
import { formatDuration, parseDuration, parseDurationStrict, type DurationUnit } from '../time/duration.js';
import { heartbeatConfigSchema, type HeartbeatConfig } from './heartbeat-config-schema.js';
import { MAX_REPEAT_INTERVAL_MS, MAX_REPEAT_STEPS } from './repeat-limits.js';

/** Where the heartbeat configuration lives, relative to the project root (spec 000). */
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
}

interface Problem {
  readonly message: string;
  readonly fix: string;
}

interface Draft {
  activeHours: { start?: string; end?: string; weekend?: boolean; days?: Weekday[]; timeZone?: string };
  intervalMs?: number;
  catchUp?: { policy?: 'skip' | 'latest-once' | 'all'; cap?: number };
  breaker?: { after?: number; backoffCap?: number };
  expectedOrchestrators?: string[];
  orchestratorPrefix?: string;
  gitStaleMs?: number;
  staleTaskMs?: number;
  orchIdleMs?: number;
  operatorIdleMs?: number;
  dedupWindowMs?: number;
  repeat?: { all?: number[]; immediate?: number[]; advisory?: number[]; normal?: number[] };
  costAlertTokens?: number;
  actionableBudgetTokens?: number;
  alertInProgressChanged?: boolean;
  gchatPollCommand?: string[];
  pipelineDashboardCommand?: string[];
  envAllow?: string[];
}

interface SetterContext {
  readonly draft: Draft;
  readonly warn: (message: string) => void;
  /** The value before markdown marks are trimmed (a trailing `*` can be meaningful). */
  readonly raw: string;
}

/** Sets a field and names it (for duplicate warnings), accepts a no-op (undefined), or rejects. */
type Setter = (value: string, context: SetterContext) => string | Problem | undefined;

type Section =
  | 'root'
  | 'active hours'
  | 'beads'
  | 'orchestrators'
  | 'git'
  | 'stale tasks'
  | 'idle orchestrators'
  | 'heartbeat'
  | 'gchat'
  | 'pipelines'
  | 'environment';

const SECTION_NAMES: Readonly<Record<string, Section>> = {
  'heartbeat configuration': 'root',
  'heartbeat config': 'root',
  'scan parameters': 'root',
  'active hours': 'active hours',
  beads: 'beads',
  orchestrators: 'orchestrators',
  orchestrator: 'orchestrators',
  git: 'git',
  'stale tasks': 'stale tasks',
  'stale task': 'stale tasks',
  'idle orchestrators': 'idle orchestrators',
  heartbeat: 'heartbeat',
  gchat: 'gchat',
  'google chat': 'gchat',
  pipelines: 'pipelines',
  pipeline: 'pipelines',
  'pipeline status': 'pipelines',
  environment: 'environment',
};

const MAX_LINE = 10_000;
const MAX_VALUE_SHOWN = 80;

// ---- value readers ------------------------------------------------------------------------

function timeOfDay(field: 'start' | 'end'): Setter {
  return (value, { draft }) => {
    const parsed = parseTimeOfDay(value, { allowMidnightEnd: field === 'end' });
    if (parsed.isErr()) return parsed.error;
    draft.activeHours[field] = formatTimeOfDay(parsed.value);
    return `activeHours.${field}`;
  };
}

const days: Setter = (value, { draft }) => {
  const parsed = parseDays(value);
  if (parsed.isErr()) return parsed.error;
  draft.activeHours.days = parsed.value;
  return 'activeHours.days';
};

function booleanValue(value: string): boolean | undefined {
  const v = value.toLowerCase();
  if (v === 'true' || v === 'yes' || v === 'on') return true;
  if (v === 'false' || v === 'no' || v === 'off') return false;
  return undefined;
}

const weekend: Setter = (value, { draft }) => {
  const b = booleanValue(value);
  if (b === undefined) return { message: 'is not true or false.', fix: 'write true to scan on Saturday and Sunday, false not to.' };
  draft.activeHours.weekend = b;
  return 'activeHours.weekend';
};

const timeZone: Setter = (value, { draft }) => {
  const v = value.toLowerCase();
  if (v === '' || v === 'system' || v === 'local') {
    delete draft.activeHours.timeZone;
    return 'activeHours.timeZone';
  }
  const zone = normalizeTimeZone(value);
  if (zone === undefined) {
    return {
      message: 'is not an IANA time zone.',
      fix: 'use a name such as Europe/Berlin or America/New_York, or system for the machine’s zone.',
    };
  }
  draft.activeHours.timeZone = zone;
  return 'activeHours.timeZone';
};

type DurationField = 'intervalMs' | 'gitStaleMs' | 'staleTaskMs' | 'orchIdleMs' | 'operatorIdleMs' | 'dedupWindowMs';

// A condition (`Threshold: 4 hours with no commits`) is prose around its duration; a setting
// (`Interval: 10 minutes`) is the duration alone, so `Interval: 10 minutes of nothing` is an error.
function duration(field: DurationField, defaultUnit: DurationUnit, example: string, form: 'prose' | 'value' = 'prose'): Setter {
  const parse = form === 'value' ? parseDurationStrict : parseDuration;
  return (value, { draft }) => {
    const parsed = parse(value, defaultUnit);
    if (parsed.isErr())
      return { message: parsed.error.message, fix: `write ${form === 'value' ? 'only ' : ''}a duration such as ${example}.` };
    draft[field] = parsed.value;
    return field;
  };
}

function tokens(field: 'costAlertTokens' | 'actionableBudgetTokens'): Setter {
  return (value, { draft }) => {
    const match = /^(\d[\d,_ ]{0,20})\s*(?:tokens?)?$/i.exec(value);
    const n = match?.[1] === undefined ? Number.NaN : Number(match[1].replace(/[,_ ]/g, ''));
    if (!Number.isSafeInteger(n) || n <= 0)
      return { message: 'is not a positive number of tokens.', fix: 'write a whole number such as 20000.' };
    draft[field] = n;
    return field;
  };
}

// `Repeat: 30m, 2h, 8h`: the intervals after the first, second, … report of an unchanged finding.
function repeat(field: 'all' | 'immediate' | 'advisory' | 'normal'): Setter {
  const fix = 'write intervals from shortest to longest, separated by commas, such as 30m, 2h, 8h (bare numbers are minutes).';
  return (value, { draft }) => {
    const parts = value.split(/[,;]/).map((part) => part.trim());
    if (parts.length > MAX_REPEAT_STEPS) return { message: `has ${parts.length} intervals; at most ${MAX_REPEAT_STEPS} are allowed.`, fix };
    const intervals: number[] = [];
    for (const part of parts) {
      if (part === '') return { message: 'has an empty interval.', fix };
      const parsed = parseDurationStrict(part, 'm');
      if (parsed.isErr()) return { message: `has "${shorten(part)}", which ${parsed.error.message}`, fix };
      if (parsed.value > MAX_REPEAT_INTERVAL_MS)
        return { message: `has ${formatDuration(parsed.value)}, longer than ${formatDuration(MAX_REPEAT_INTERVAL_MS)}.`, fix };
      const previous = intervals.at(-1);
      if (previous !== undefined && parsed.value < previous) {
        return {
          message: `gets shorter (${formatDuration(parsed.value)} after ${formatDuration(previous)}); repeats of an unchanged finding may only slow down.`,
          fix,
        };
      }
      intervals.push(parsed.value);
    }
    draft.repeat = { ...draft.repeat, [field]: intervals };
    return `repeat.${field}`;
  };
}

const catchUpPolicy: Setter = (value, { draft }) => {
  const v = value.toLowerCase().replace(/[\s_]+/g, '-');
  if (v !== 'skip' && v !== 'latest-once' && v !== 'all')
    return { message: 'is not a catch-up policy.', fix: 'write skip, latest-once (the default: one cycle now) or all.' };
  draft.catchUp = { ...draft.catchUp, policy: v };
  return 'catchUp.policy';
};

const catchUpCap: Setter = (value, { draft }) => {
  const n = /^\d{1,3}$/.test(value) ? Number(value) : Number.NaN;
  if (!(n >= 0 && n <= 100)) return { message: 'is not a number of cycles 0–100.', fix: 'write a small whole number such as 3.' };
  draft.catchUp = { ...draft.catchUp, cap: n };
  return 'catchUp.cap';
};

const breakerAfter: Setter = (value, { draft }) => {
  const match = /^(\d{1,3})(?:\s*cycles?)?$/i.exec(value);
  const n = /^off$/i.test(value) ? 0 : match?.[1] === undefined ? Number.NaN : Number(match[1]);
  if (!(n >= 0 && n <= 100))
    return {
      message: 'is not a number of cycles 0–100.',
      fix: 'write how many failing cycles in a row trip the breaker, such as 3 (off or 0 turns it off).',
    };
  draft.breaker = { ...draft.breaker, after: n };
  return 'breaker.after';
};

const breakerBackoffCap: Setter = (value, { draft }) => {
  const match = /^(\d{1,3})(?:\s*cycles?)?$/i.exec(value);
  const n = match?.[1] === undefined ? Number.NaN : Number(match[1]);
  if (!(n >= 1 && n <= 100))
    return { message: 'is not a number of cycles 1–100.', fix: 'write the longest back-off in cycles, such as 8 (1 = never skip a run).' };
  draft.breaker = { ...draft.breaker, backoffCap: n };
  return 'breaker.backoffCap';
};

const expected: Setter = (value, { draft }) => {
  draft.expectedOrchestrators = splitCommaList(value);
  return 'expectedOrchestrators';
};

const prefix: Setter = (value, { draft }) => {
  if (value === '' || /\s/.test(value)) return { message: 'is not a session-name prefix.', fix: 'write one word such as orch-.' };
  draft.orchestratorPrefix = value;
  return 'orchestratorPrefix';
};

function command(field: 'gchatPollCommand' | 'pipelineDashboardCommand', example: string): Setter {
  return (value, { draft }) => {
    const fix = `write the command as a JSON array such as ${example}, or as words separated by spaces.`;
    let argv: unknown;
    if (value.startsWith('[')) {
      try {
        argv = JSON.parse(value) as unknown;
      } catch {
        return { message: 'is not a valid JSON array.', fix };
      }
    } else {
      argv = value.split(/\s+/).filter((word) => word !== '');
    }
    if (!Array.isArray(argv) || argv.length === 0 || !argv.every((word): word is string => typeof word === 'string' && word !== '')) {
      return { message: 'is not a command (a non-empty list of non-empty words).', fix };
    }
    draft[field] = argv;
    return field;
  };
}

// Reads the raw value: trimming markdown marks would eat the `*` of a final `XDG_*`.
const envAllow: Setter = (_value, { draft, raw }) => {
  let value = raw
    .trim()
    .replace(/^\*+\s+/, '')
    .replace(/^`+|`+$/g, '');
  if (value.startsWith('**') && value.endsWith('**') && value.length >= 4) value = value.slice(2, -2);
  const names = splitCommaList(value, { spaces: true });
  const bad = names.find((name) => !ENV_NAME_PATTERN.test(name));
  if (bad !== undefined)
    return {
      message: `holds "${shorten(bad)}", which is not a variable name.`,
      fix: 'list names separated by commas, such as BEADS_DIR, HTTPS_PROXY, XDG_* (a trailing * is a prefix).',
    };
  draft.envAllow = names;
  return 'envAllow';
};

const beadsAlert: Setter = (value, { draft, warn }) => {
  if (/in[\s_-]?progress/i.test(value) && /chang/i.test(value)) {
    draft.alertInProgressChanged = true;
    return 'alertInProgressChanged';
  }
  if (/\bP[01]\b/i.test(value)) return undefined; // always on: the spec's P0/P1 scan
  warn(`condition "${shorten(value)}" is not one heartbeat-kit checks — ignored.`);
  return undefined;
};

const orchestratorAlert: Setter = (value, { warn }) => {
  if (!/missing/i.test(value)) warn(`condition "${shorten(value)}" is not one heartbeat-kit checks — ignored.`);
  return undefined;
};

const gitAlert = duration('gitStaleMs', 'h', 'uncommitted changes older than 1 hour');

const HEARTBEAT_KEYS: Readonly<Record<string, Setter>> = {
  interval: duration('intervalMs', 's', '600 seconds or 10 minutes', 'value'),
  'catch up': catchUpPolicy,
  'catch up cap': catchUpCap,
  'breaker after': breakerAfter,
  'breaker back off cap': breakerBackoffCap,
  'dedup window': duration('dedupWindowMs', 'm', '30 minutes', 'value'),
  repeat: repeat('all'),
  'repeat immediate': repeat('immediate'),
  'repeat advisory': repeat('advisory'),
  'repeat normal': repeat('normal'),
  'operator idle': duration('operatorIdleMs', 'm', '5 minutes', 'value'),
  'cost alert': tokens('costAlertTokens'),
  'actionable budget': tokens('actionableBudgetTokens'),
  'message budget': tokens('actionableBudgetTokens'),
  timezone: timeZone,
  'time zone': timeZone,
};

const SECTION_KEYS: Readonly<Record<Section, Readonly<Record<string, Setter>>>> = {
  root: HEARTBEAT_KEYS,
  heartbeat: HEARTBEAT_KEYS,
  'active hours': {
    start: timeOfDay('start'),
    end: timeOfDay('end'),
    weekend,
    days,
    'active days': days,
    timezone: timeZone,
    'time zone': timeZone,
  },
  beads: { 'alert if': beadsAlert },
  orchestrators: { expected, 'alert if': orchestratorAlert, prefix },
  git: { 'alert if': gitAlert, threshold: gitAlert },
  'stale tasks': { threshold: duration('staleTaskMs', 'h', '4 hours with no commits') },
  'idle orchestrators': { threshold: duration('orchIdleMs', 'm', '30 minutes with no tool calls') },
  gchat: { 'poll command': command('gchatPollCommand', '["python3", ".claude/scripts/gchat-poll-replies.py"]') },
  pipelines: { 'dashboard command': command('pipelineDashboardCommand', '["python3", "dashboard.py"]') },
  environment: { allow: envAllow },
};

/** Upstream settings-table keys (reference cobuilder.md §5), accepted in any section. */
const LEGACY_KEYS: Readonly<Record<string, Setter>> = {
  'heartbeat interval': duration('intervalMs', 's', '600'),
  'active hours start': timeOfDay('start'),
  'active start hour': timeOfDay('start'),
  'active hours end': timeOfDay('end'),
  'active end hour': timeOfDay('end'),
  'weekend active': weekend,
  'active days': days,
  timezone: timeZone,
  'stale threshold hours': duration('staleTaskMs', 'h', '4'),
  'idle threshold minutes': duration('orchIdleMs', 'm', '30'),
  'cost alert threshold': tokens('costAlertTokens'),
};

// ---- line handling ------------------------------------------------------------------------

function normalizeName(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ')
    .trim();
}

function shorten(text: string): string {
  return text.length > MAX_VALUE_SHOWN ? `${text.slice(0, MAX_VALUE_SHOWN - 1)}…` : text;
}

/** Blanks out `<!-- … -->` (also across lines) while keeping line numbers. */
function stripHtmlComments(lines: readonly string[]): string[] {
  let inComment = false;
  return lines.map((line) => {
    let out = '';
    let rest = line;
    for (;;) {
      if (inComment) {
        const close = rest.indexOf('-->');
        if (close === -1) return out;
        rest = rest.slice(close + 3);
        inComment = false;
      }
      const open = rest.indexOf('<!--');
      if (open === -1) return out + rest;
      out += rest.slice(0, open);
      rest = rest.slice(open + 4);
      inComment = true;
    }
  });
}

// Loops instead of an anchored regex: `[*\s]+$` backtracks quadratically on long blank runs.
function trimMarks(text: string): string {
  const isMark = (ch: string | undefined): boolean => ch === '*' || ch === '`' || (ch !== undefined && ch.trim() === '');
  let from = 0;
  let to = text.length;
  while (from < to && isMark(text[from])) from++;
  while (to > from && isMark(text[to - 1])) to--;
  return text.slice(from, to);
}

function hasOwn<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/**
 * Parses `.claude/HEARTBEAT.md` (spec 000 format plus heartbeat-kit's extra keys). Missing,
 * empty or whitespace-only text gives the defaults silently, as the spec requires; unknown
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
  if (text.trim() === '')
    return ok({
      config: heartbeatConfigSchema.parse({}),
      found: false,
      warnings,
      presence: markdown === undefined ? 'missing' : 'empty',
      recognised: true,
    });
  let recognised = false;

  const draft: Draft = { activeHours: {} };
  const fieldLines = new Map<string, number>();
  const lines = stripHtmlComments(text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/));
  let section: Section | undefined = 'root';
  let sectionTitle = '';
  let fence: string | undefined;

  for (let index = 0; index < lines.length; index++) {
    const lineNo = index + 1;
    const raw = lines[index] ?? '';
    const warn = (message: string): void => {
      warnings.push(`${file}:${lineNo}: ${message}`);
    };
    if (raw.length > MAX_LINE) {
      warn(`line longer than ${MAX_LINE} characters — ignored.`);
      continue;
    }
    const line = stripTerminalEscapes(raw);
    const fenceMatch = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fenceMatch?.[1] !== undefined) {
      const marker = fenceMatch[1];
      if (fence === undefined) fence = marker[0];
      else if (marker[0] === fence) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;

    const heading = /^ {0,3}#{1,6}(?:[ \t]+(.*))?$/.exec(line);
    if (heading) {
      sectionTitle = (heading[1] ?? '')
        .replace(/[ \t]#+[ \t]*$/, '')
        .replace(/[*`:]+/g, '')
        .trim();
      const name = normalizeName(sectionTitle);
      section = hasOwn(SECTION_NAMES, name);
      if (section !== undefined) recognised = true;
      if (section === undefined) warn(`unknown section "${shorten(sectionTitle)}" — its lines are ignored.`);
      continue;
    }

    const item = /^[ \t]*[-*+][ \t]+(.*)$/.exec(line);
    if (!item) continue; // prose between settings is allowed
    const body = item[1] ?? '';
    const colon = body.indexOf(':');
    const keyText = colon === -1 ? '' : trimMarks(body.slice(0, colon));
    if (colon === -1 || !/^\p{L}[\p{L}\p{N} _-]{0,60}$/u.test(keyText)) {
      if (section !== undefined && section !== 'root') warn(`"${shorten(body.trim())}" is not "Key: value" — ignored.`);
      continue;
    }
    const key = normalizeName(keyText);
    const value = trimMarks(body.slice(colon + 1));
    const setter = (section === undefined ? undefined : hasOwn(SECTION_KEYS[section], key)) ?? hasOwn(LEGACY_KEYS, key);
    if (setter === undefined) {
      if (section !== undefined)
        warn(`unknown key "${shorten(keyText)}"${section === 'root' ? '' : ` under ${shorten(sectionTitle)}`} — ignored.`);
      continue;
    }
    recognised = true;
    const outcome = setter(value, { draft, warn, raw: body.slice(colon + 1) });
    if (typeof outcome === 'object') {
      return err({
        kind: 'invalid-heartbeat-config',
        file,
        line: lineNo,
        key: section === 'root' || sectionTitle === '' ? keyText : `${sectionTitle} → ${keyText}`,
        value: shorten(value),
        message: outcome.message,
        fix: outcome.fix,
      });
    }
    if (outcome !== undefined) {
      const previous = fieldLines.get(outcome);
      if (previous !== undefined) warn(`"${shorten(keyText)}" also set on line ${previous}; this line wins.`);
      fieldLines.set(outcome, lineNo);
    }
  }

  const { days: activeDaysSet, weekend: weekendFlag } = draft.activeHours;
  if (
    activeDaysSet !== undefined &&
    weekendFlag !== undefined &&
    weekendFlag !== (activeDaysSet.includes('Sat') || activeDaysSet.includes('Sun'))
  ) {
    const weekendLine = fieldLines.get('activeHours.weekend') ?? 1;
    warnings.push(
      `${file}:${weekendLine}: Weekend: ${weekendFlag} is ignored: Days (line ${fieldLines.get('activeHours.days') ?? '?'}) lists the active days (${formatDays(activeDaysSet)}).`,
    );
  }

  const checked = heartbeatConfigSchema.safeParse(draft);
  if (!checked.success) {
    // Each reader validates its value, so this is a guard against the two drifting apart.
    const issue = checked.error.issues[0];
    const path = issue?.path.map(String).join('.') ?? '';
    return err({
      kind: 'invalid-heartbeat-config',
      file,
      line: fieldLines.get(path) ?? fieldLines.get(path.split('.')[0] ?? '') ?? 1,
      key: path,
      value: '',
      message: `is not valid: ${issue?.message ?? 'unknown problem'}.`,
      fix: 'see the comments in a file written by `heartbeat-kit init`.',
    });
  }
  return ok({ config: checked.data, found: true, warnings, presence: 'found', recognised });
}

/**
 * One line for a human: `.claude/HEARTBEAT.md:4: Active Hours → Start: "08:60" has minutes 60;
 * minutes go 00–59. Fix: write a time HH:MM on the 24-hour clock, such as 08:30.`
 */
export function formatHeartbeatConfigError(error: HeartbeatConfigError): string {
  const value = error.value.replace(/\s+/g, ' ');
  return `${error.file}:${error.line}: ${error.key}: "${value}" ${error.message} Fix: ${error.fix}`;
}
