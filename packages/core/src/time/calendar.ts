import { err, ok, type Result } from 'neverthrow';

/**
 * Times of day and days of the week as people write them in a config file (`08:30`, `Mon-Fri`),
 * shared by active hours and WoterClip's quiet hours so both accept and print the same forms.
 */

/** Day names in `Date#getDay()` order (0 = Sunday), the order a zone-local weekday is read in. */
export const WEEKDAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

/** A day of the week, as written in configs and printed back. */
export type Weekday = (typeof WEEKDAY_NAMES)[number];

// Printed Monday first: that is how people write a working week (`Mon-Fri`, `Sat, Sun`).
const DISPLAY_ORDER: readonly Weekday[] = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const FULL_NAMES: readonly string[] = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const ALIASES: Readonly<Record<string, readonly Weekday[]>> = {
  weekdays: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'],
  weekends: ['Sat', 'Sun'],
  weekend: ['Sat', 'Sun'],
  daily: DISPLAY_ORDER,
  everyday: DISPLAY_ORDER,
  all: DISPLAY_ORDER,
};

/** Monday to Friday: the days of a window whose `weekend` flag is false. */
export const WORKING_DAYS: readonly Weekday[] = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'];

/** Every day of the week, Monday first. */
export const ALL_DAYS: readonly Weekday[] = DISPLAY_ORDER;

/** Why a time of day or a day list could not be read: the sentence end and the fix. */
export interface CalendarProblem {
  /** The end of a sentence about the value: `has minutes 60; minutes go 00–59.` */
  readonly message: string;
  /** What to write instead. */
  readonly fix: string;
}

/**
 * Minutes since midnight of `08:30`, `8:30`, `8` or `08` (a bare number is a whole hour). With
 * `allowMidnightEnd`, `24` and `24:00` mean the midnight that ends the day (1440), which only an
 * end bound may say.
 */
export function parseTimeOfDay(text: string, options: { readonly allowMidnightEnd?: boolean } = {}): Result<number, CalendarProblem> {
  const example = options.allowMidnightEnd === true ? '18:15 (or 24:00 for midnight)' : '08:30';
  const fix = `write a time HH:MM on the 24-hour clock, such as ${example}.`;
  const match = /^(\d{1,2})(?:[:.h](\d{2}))?$/.exec(text.trim());
  if (!match) return err({ message: 'is not a time of day.', fix });
  const hours = Number(match[1]);
  const minutes = match[2] === undefined ? 0 : Number(match[2]);
  if (minutes > 59) return err({ message: `has minutes ${match[2] ?? ''}; minutes go 00–59.`, fix });
  if (hours === 24 && minutes === 0 && options.allowMidnightEnd === true) return ok(1440);
  if (hours > 23)
    return err({
      message: `has hour ${match[1] ?? ''}; hours go 00–23${options.allowMidnightEnd === true ? ' (24:00 is midnight)' : ''}.`,
      fix,
    });
  return ok(hours * 60 + minutes);
}

/** `HH:MM` of a minute of the day (1440 prints as `24:00`). */
export function formatTimeOfDay(minuteOfDay: number): string {
  const hours = Math.floor(minuteOfDay / 60);
  const minutes = minuteOfDay % 60;
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}

function dayIndex(word: string): number | undefined {
  const w = word.toLowerCase();
  if (w.length < 2) return undefined;
  // A prefix of one full name: Mon, Tues, Thurs, Wednesday; `Tu`, `Th`, `Sa`, `Su` are unique too.
  const hits = FULL_NAMES.flatMap((name, index) => (name.startsWith(w) ? [index] : []));
  return hits.length === 1 ? hits[0] : undefined;
}

/** The days in display order (Monday first), each once. */
export function canonicalDays(days: Iterable<Weekday>): Weekday[] {
  const set = new Set(days);
  return DISPLAY_ORDER.filter((day) => set.has(day));
}

/**
 * The days of `Mon-Fri`, `Sun`, `Mon, Wed, Fri`, `Fri-Mon` (a range may wrap past Sunday),
 * `Monday–Friday`, `weekdays`, `weekends` or `daily`; case does not matter. Monday first, each once.
 */
export function parseDays(text: string): Result<Weekday[], CalendarProblem> {
  const fix = 'write days such as Mon-Fri, Sun, or Mon, Wed, Fri (a range may wrap: Fri-Mon).';
  // Whitespace collapsed first, so the range pattern below never backtracks over a long run.
  // Case kept, so an error quotes the day as written.
  const normalized = text
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/ ?(?:[-–—]|\bto\b) ?/gi, '-')
    .replace(/\bevery day\b/gi, 'daily');
  const tokens = normalized.split(/[\s,;/&+]+|\band\b/i).filter((token) => token !== '');
  if (tokens.length === 0) return err({ message: 'lists no day.', fix });
  const days = new Set<Weekday>();
  for (const token of tokens) {
    const lower = token.toLowerCase();
    const alias = Object.hasOwn(ALIASES, lower) ? ALIASES[lower] : undefined;
    if (alias !== undefined) {
      for (const day of alias) days.add(day);
      continue;
    }
    const parts = token.split('-');
    const indexes = parts.map(dayIndex);
    if (parts.length > 2 || indexes.some((index) => index === undefined)) {
      const bad = parts.find((part) => dayIndex(part) === undefined) ?? token;
      return err({ message: `holds "${bad}", which is not a day of the week.`, fix });
    }
    const from = indexes[0]!;
    const to = indexes.at(-1)!;
    // Walk forward from the first day to the last, wrapping past Saturday.
    for (let i = from; ; i = (i + 1) % 7) {
      days.add(WEEKDAY_NAMES[i]!);
      if (i === to) break;
    }
  }
  return ok(canonicalDays(days));
}

/**
 * The shortest way to write `days` that the Days parser reads back to the same set: runs of
 * three or more consecutive days (Monday first) as a range, the rest listed. `Mon-Fri`, `Sat, Sun`,
 * `Mon, Wed, Fri`, `Mon-Sun`.
 */
export function formatDays(days: readonly Weekday[]): string {
  const set = new Set(days);
  const parts: string[] = [];
  let index = 0;
  while (index < DISPLAY_ORDER.length) {
    if (!set.has(DISPLAY_ORDER[index]!)) {
      index++;
      continue;
    }
    let last = index;
    while (last + 1 < DISPLAY_ORDER.length && set.has(DISPLAY_ORDER[last + 1]!)) last++;
    if (last - index >= 2) parts.push(`${DISPLAY_ORDER[index]!}-${DISPLAY_ORDER[last]!}`);
    else for (let i = index; i <= last; i++) parts.push(DISPLAY_ORDER[i]!);
    index = last + 1;
  }
  return parts.join(', ');
}
