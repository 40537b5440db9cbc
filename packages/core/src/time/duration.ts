import { err, ok, type Result } from 'neverthrow';

/** Units a duration may be written in; also the unit a bare number means for a given key. */
export type DurationUnit = 'ms' | 's' | 'm' | 'h' | 'd';

const UNIT_MS: Readonly<Record<DurationUnit, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

const UNIT_WORDS: Readonly<Record<string, DurationUnit>> = {
  ms: 'ms',
  msec: 'ms',
  msecs: 'ms',
  millisecond: 'ms',
  milliseconds: 'ms',
  s: 's',
  sec: 's',
  secs: 's',
  second: 's',
  seconds: 's',
  m: 'm',
  min: 'm',
  mins: 'm',
  minute: 'm',
  minutes: 'm',
  h: 'h',
  hr: 'h',
  hrs: 'h',
  hour: 'h',
  hours: 'h',
  d: 'd',
  day: 'd',
  days: 'd',
};

const UNIT_NAMES: Readonly<Record<DurationUnit, string>> = { ms: 'milliseconds', s: 'seconds', m: 'minutes', h: 'hours', d: 'days' };

/** Why a text is not a duration; `message` completes a sentence about the value. */
export interface DurationError {
  /** Which rule the text broke (`extra-text` only from {@link parseDurationStrict}). */
  readonly reason: 'no-duration' | 'no-unit' | 'unknown-unit' | 'not-positive' | 'too-large' | 'extra-text';
  /** The end of a sentence about the value: `has no duration (a number with a unit).` */
  readonly message: string;
}

// First number not glued to a word or sign before it (so `P0`, `v2` and `-5` are not durations).
const FIRST_NUMBER = /(?<![\p{L}\p{N}_.-])(\d{1,15}(?:\.\d{1,6})?)(?![\d.])/u;
// A number followed by an optional word: the word decides whether it is a unit.
const COMPONENT = /\s*(\d{1,15}(?:\.\d{1,6})?)(\s*)(\p{L}+)?/uy;
const JOINER = /\s*(?:,|and\b|\+)?/y;

// A duration read from `text`, with where it starts and ends, so the strict reader can tell
// whether anything stands around it.
interface ScannedDuration {
  readonly ms: number;
  readonly start: number;
  readonly end: number;
}

// The reading both parsers share: from the first number, units and joiners until a word that is not
// a unit. `end` stops after the last unit, never after a dangling joiner (`30m and`).
function scanDuration(text: string, defaultUnit: DurationUnit | undefined): Result<ScannedDuration, DurationError> {
  const first = FIRST_NUMBER.exec(text);
  if (!first) return err({ reason: 'no-duration', message: 'has no duration (a number with a unit).' });
  let position = first.index;
  let end = position;
  let total = 0;
  let components = 0;
  for (;;) {
    COMPONENT.lastIndex = position;
    const match = COMPONENT.exec(text);
    if (!match) break;
    const amount = Number(match[1]);
    const word = match[3]?.toLowerCase();
    const unit = word === undefined ? undefined : UNIT_WORDS[word];
    if (unit === undefined) {
      if (components > 0) break; // prose after a complete duration, e.g. `4 hours 2 beads`
      if (word !== undefined && isUnitTypo(word)) return err({ reason: 'unknown-unit', message: `has an unknown unit "${word}".` });
      if (defaultUnit === undefined) return err({ reason: 'no-unit', message: 'has a number but no unit.' });
      total = amount * UNIT_MS[defaultUnit];
      components = 1;
      // The bare number ends before the spaces and the word after it.
      end = match.index + match[0].length - (match[2]?.length ?? 0) - (match[3]?.length ?? 0);
      break;
    }
    total += amount * UNIT_MS[unit];
    components += 1;
    position = COMPONENT.lastIndex;
    end = position;
    JOINER.lastIndex = position;
    if (JOINER.exec(text)) position = JOINER.lastIndex;
  }
  return ok({ ms: Math.round(total), start: first.index, end });
}

// A duration is a whole positive number of milliseconds that arithmetic on it keeps exact.
function inRange(ms: number): Result<number, DurationError> {
  if (!(ms > 0)) return err({ reason: 'not-positive', message: 'must be longer than zero.' });
  if (!Number.isSafeInteger(ms)) return err({ reason: 'too-large', message: 'is too large.' });
  return ok(ms);
}

/**
 * Reads the first duration in free text: `90 min`, `4h`, `2h30m`, `1 hour 30 minutes`,
 * `4 hours with no commits`, `uncommitted changes older than 1 hour`. Words after the duration
 * are ignored (the spec writes conditions in prose). A bare number means `defaultUnit`; without
 * one it is an error, so a config never guesses seconds where the user meant minutes.
 */
export function parseDuration(text: string, defaultUnit?: DurationUnit): Result<number, DurationError> {
  return scanDuration(text, defaultUnit).andThen((scanned) => inRange(scanned.ms));
}

/**
 * Reads a text that is a duration and nothing else, for flags and config values: `30m`, `90s`,
 * `1h30m`, `2 hours`, `1 hour 30 minutes`, and a bare number in `defaultUnit` when the flag or key
 * documents one. Words before or after it (`30 minutes of nothing`, `2 hours ago`) are an
 * `extra-text` error rather than ignored, so a value never means less than it says. Accepts only
 * what {@link parseDuration} accepts, with the same value.
 */
export function parseDurationStrict(text: string, defaultUnit?: DurationUnit): Result<number, DurationError> {
  const leading = /^\s*/.exec(text)?.[0].length ?? 0;
  const trailing = text.length - text.trimEnd().length;
  const scanned = scanDuration(text, defaultUnit);
  if (scanned.isErr()) {
    // A number buried in prose is prose: say so rather than reporting on the number.
    if (scanned.error.reason === 'no-duration' || /^\s*\d/.test(text)) return err(scanned.error);
    return err({ reason: 'extra-text', message: 'is not only a duration.' });
  }
  const { ms, start, end } = scanned.value;
  const before = text.slice(leading, start).trim();
  if (before !== '') return err({ reason: 'extra-text', message: `has "${clip(before)}" before the duration.` });
  const after = text.slice(end, text.length - trailing).trim();
  if (after !== '') return err({ reason: 'extra-text', message: `has "${clip(after)}" after the duration.` });
  return inRange(ms);
}

// Quoted text in a message stays short and on one line, whatever the input was.
function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length > 24 ? `${line.slice(0, 23)}…` : line;
}

// A word right after the number that starts like a unit (`minuts`, `hourz`, `secnds`) is a typo,
// not prose: guessing the default unit would silently change the meaning by a factor of 60.
function isUnitTypo(word: string): boolean {
  return /^(?:mi|ms|se|ho|hr|da|mn)/.test(word);
}

/**
 * Writes `ms` in the largest unit that divides it exactly (`1 hour`, `90 minutes`, `45 seconds`),
 * so {@link parseDuration} reads back the same number.
 */
export function formatDuration(ms: number): string {
  for (const unit of ['d', 'h', 'm', 's'] as const) {
    const size = UNIT_MS[unit];
    if (ms % size === 0) {
      const amount = ms / size;
      const name = UNIT_NAMES[unit];
      return `${amount} ${amount === 1 ? name.slice(0, -1) : name}`;
    }
  }
  return `${ms} ${ms === 1 ? 'millisecond' : 'milliseconds'}`;
}
