import {
  type CalendarDate,
  calendarDateIn as coreCalendarDateIn,
  daysBetween,
  isKnownZone,
  isValidCalendarDate,
  type MonthDay,
  nearestMonthDay,
} from '@heartbeat-kit/core/host';

/**
 * Date tokens of tracked runbook lines. Only a bare `MM-DD` and `DELETE MM-DD` are visible to the
 * gate (spec 003, reference §8, DESIGN.md "Runbook"); a full `YYYY-MM-DD` is recorded so the
 * validator can say why a line is invisible, but it never makes an item due.
 */

// The calendar types and their day arithmetic live in core's time module (one place for dates);
// the runbook re-exports the types it has always exported.
export type { CalendarDate, MonthDay };

/** The date tokens found on one line. */
export interface LineTokens {
  /** Bare `MM-DD` tokens (including the date of each `DELETE MM-DD`). */
  readonly bare: readonly MonthDay[];
  /** `DELETE MM-DD` markers (upper case only: that is the form the gate matches). */
  readonly deletes: readonly MonthDay[];
  /** Full `YYYY-MM-DD` dates: invisible to the gate. */
  readonly fullDates: readonly string[];
  /** Tokens shaped like `MM-DD` that name no calendar day (`13-01`, `02-30`). */
  readonly invalid: readonly string[];
}

// A bare token may not touch a word character, `-`, `.`, `/` or `:` on either side, so `2026-10-20`,
// `v1.10-20`, `10-20-2026` and `a/10-20` carry no bare token; a trailing sentence dot is fine.
const BARE = /(?<![\w.\-/:])(\d{2})-(\d{2})(?![\w\-/:]|\.\d)/g;
const DELETE = /(?<![\w-])DELETE\s+(\d{2})-(\d{2})(?![\w\-/:]|\.\d)/g;
const FULL = /(?<![\w.\-/:])(\d{4})-(\d{2})-(\d{2})(?![\w\-/:]|\.\d)/g;

/** Whether `month`/`day` name a day in some year (02-29 counts: it exists in leap years, such as 2000). */
export function isValidMonthDay(month: number, day: number): boolean {
  return isValidCalendarDate({ year: 2000, month, day });
}

/** Reads every date token on one line. Never throws. */
export function scanLineTokens(line: string): LineTokens {
  const bare: MonthDay[] = [];
  const deletes: MonthDay[] = [];
  const invalid: string[] = [];
  for (const m of line.matchAll(BARE)) {
    const month = Number(m[1]);
    const day = Number(m[2]);
    if (isValidMonthDay(month, day)) bare.push({ month, day });
    else invalid.push(m[0]);
  }
  for (const m of line.matchAll(DELETE)) {
    const month = Number(m[1]);
    const day = Number(m[2]);
    if (isValidMonthDay(month, day)) deletes.push({ month, day });
  }
  const fullDates = [...line.matchAll(FULL)].map((m) => m[0]);
  return { bare, deletes, fullDates, invalid };
}

/** `MM-DD` with zero padding. */
export function formatMonthDay(md: MonthDay): string {
  return `${String(md.month).padStart(2, '0')}-${String(md.day).padStart(2, '0')}`;
}

/** `YYYY-MM-DD` with zero padding. */
export function formatCalendarDate(date: CalendarDate): string {
  return `${String(date.year).padStart(4, '0')}-${formatMonthDay(date)}`;
}

/**
 * The calendar date of `instant` in `zone`, read by core's `calendarDateIn`. Throws RangeError on an
 * unknown zone or an invalid Date: callers validate zones at their boundary with core's
 * `resolveTimeZone`.
 */
export function calendarDateIn(instant: Date, zone: string): CalendarDate {
  if (!isKnownZone(zone)) throw new RangeError(`Invalid time zone specified: ${zone}`);
  const date = coreCalendarDateIn(instant, zone);
  if (Number.isNaN(date.year)) throw new RangeError('Invalid time value');
  return date;
}

/**
 * Resolves a year-less date to the year that puts it nearest to `today` (DESIGN.md): `DELETE 12-30`
 * read on 01-02 is three days past, `DELETE 01-03` read on 12-28 is six days ahead. On an exact tie
 * (half a leap year away) the past year wins, so a marker never waits an extra half year. `02-29`
 * in a common year is its `02-28`. Core's `nearestMonthDay`.
 */
export function nearestOccurrence(md: MonthDay, today: CalendarDate): CalendarDate {
  return nearestMonthDay(md, today);
}

/** Signed days from `today` to the nearest occurrence of `md`: negative = past, 0 = today. */
export function daysFromToday(md: MonthDay, today: CalendarDate): number {
  return daysBetween(today, nearestMonthDay(md, today));
}

/**
 * A bare `MM-DD` is due only on that calendar day; `02-29` in a common year on its `02-28`, the day
 * a `DELETE 02-29` is past, so a check date that the year lacks is not skipped by the gate.
 */
export function isBareDue(md: MonthDay, today: CalendarDate): boolean {
  return daysFromToday(md, today) === 0;
}

/** A `DELETE MM-DD` is past when its nearest occurrence is on or before today. */
export function isDeletePast(md: MonthDay, today: CalendarDate): boolean {
  return daysFromToday(md, today) <= 0;
}
