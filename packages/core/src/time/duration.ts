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
  /** Which rule the text broke. */
  readonly reason: 'no-duration' | 'no-unit' | 'unknown-unit' | 'not-positive' | 'too-large';
  /** The end of a sentence about the value: `has no duration (a number with a unit).` */
  readonly message: string;
}

// First number not glued to a word or sign before it (so `P0`, `v2` and `-5` are not durations).
const FIRST_NUMBER = /(?<![\p{L}\p{N}_.-])(\d{1,15}(?:\.\d{1,6})?)(?![\d.])/u;
// A number followed by an optional word: the word decides whether it is a unit.
const COMPONENT = /\s*(\d{1,15}(?:\.\d{1,6})?)\s*(\p{L}+)?/uy;
const JOINER = /\s*(?:,|and\b|\+)?/y;

/**
 * Reads the first duration in free text: `90 min`, `4h`, `2h30m`, `1 hour 30 minutes`,
 * `4 hours with no commits`, `uncommitted changes older than 1 hour`. Words after the duration
 * are ignored (the spec writes conditions in prose). A bare number means `defaultUnit`; without
 * one it is an error, so a config never guesses seconds where the user meant minutes.
 */
export function parseDuration(text: string, defaultUnit?: DurationUnit): Result<number, DurationError> {
  const first = FIRST_NUMBER.exec(text);
  if (!first) return err({ reason: 'no-duration', message: 'has no duration (a number with a unit).' });
  let position = first.index;
  let total = 0;
  let components = 0;
  for (;;) {
    COMPONENT.lastIndex = position;
    const match = COMPONENT.exec(text);
    if (!match) break;
    const amount = Number(match[1]);
    const word = match[2]?.toLowerCase();
    const unit = word === undefined ? undefined : UNIT_WORDS[word];
    if (unit === undefined) {
      if (components > 0) break; // prose after a complete duration, e.g. `4 hours 2 beads`
      if (word !== undefined && isUnitTypo(word)) return err({ reason: 'unknown-unit', message: `has an unknown unit "${word}".` });
      if (defaultUnit === undefined) return err({ reason: 'no-unit', message: 'has a number but no unit.' });
      total = amount * UNIT_MS[defaultUnit];
      components = 1;
      break;
    }
    total += amount * UNIT_MS[unit];
    components += 1;
    position = COMPONENT.lastIndex;
    JOINER.lastIndex = position;
    if (JOINER.exec(text)) position = JOINER.lastIndex;
  }
  const ms = Math.round(total);
  if (!(ms > 0)) return err({ reason: 'not-positive', message: 'must be longer than zero.' });
  if (!Number.isSafeInteger(ms)) return err({ reason: 'too-large', message: 'is too large.' });
  return ok(ms);
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
