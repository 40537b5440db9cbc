import { wallClockIn } from '@heartbeat-kit/core';

/**
 * Date tokens of tracked runbook lines (spec 003, reference §8, DESIGN.md "Runbook"). Only a bare
 * `MM-DD` and `DELETE MM-DD` are visible to the gate; a full `YYYY-MM-DD` is recorded so the
 * validator can say why a line is invisible, but it never makes an item due.
 */

/** A calendar month and day without a year, as written in a runbook line. */
export interface MonthDay {
  readonly month: number;
  readonly day: number;
}

/** A calendar date in some zone. */
export interface CalendarDate extends MonthDay {
  readonly year: number;
}

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

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

/** Whether `month`/`day` name a day in some year (02-29 counts: it exists in leap years). */
export function isValidMonthDay(month: number, day: number): boolean {
  if (!Number.isInteger(month) || !Number.isInteger(day) || month < 1 || month > 12) return false;
  return day >= 1 && day <= (DAYS_IN_MONTH[month - 1] ?? 0);
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
 * The calendar date of `instant` in `zone`, read by core's `wallClockIn`. Throws RangeError on an
 * unknown zone or an invalid Date: callers validate zones at their boundary with core's
 * `resolveTimeZone`.
 */
export function calendarDateIn(instant: Date, zone: string): CalendarDate {
  const clock = wallClockIn(instant, zone);
  if (clock.zone !== zone) throw new RangeError(`Invalid time zone specified: ${zone}`);
  if (Number.isNaN(clock.year)) throw new RangeError('Invalid time value');
  return { year: clock.year, month: clock.month, day: clock.day };
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

// Days since 1970-01-01 of a proleptic Gregorian date; 02-29 in a common year is taken as 02-28.
function dayNumber(year: number, month: number, day: number): number {
  const d = month === 2 && day === 29 && !isLeap(year) ? 28 : day;
  return Math.round(Date.UTC(year, month - 1, d) / 86_400_000);
}

/**
 * Resolves a year-less date to the year that puts it nearest to `today` (DESIGN.md): `DELETE 12-30`
 * read on 01-02 is three days past, `DELETE 01-03` read on 12-28 is six days ahead. On an exact tie
 * (half a leap year away) the past year wins, so a marker never waits an extra half year.
 */
export function nearestOccurrence(md: MonthDay, today: CalendarDate): CalendarDate {
  const t = dayNumber(today.year, today.month, today.day);
  let best: CalendarDate = { year: today.year, month: md.month, day: md.day };
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const year of [today.year - 1, today.year, today.year + 1]) {
    const n = dayNumber(year, md.month, md.day);
    const distance = Math.abs(n - t);
    if (distance < bestDistance || (distance === bestDistance && n < t)) {
      best = { year, month: md.month, day: md.day };
      bestDistance = distance;
    }
  }
  return best;
}

/** Signed days from `today` to the nearest occurrence of `md`: negative = past, 0 = today. */
export function daysFromToday(md: MonthDay, today: CalendarDate): number {
  const occ = nearestOccurrence(md, today);
  return dayNumber(occ.year, occ.month, occ.day) - dayNumber(today.year, today.month, today.day);
}

/** A bare `MM-DD` is due only on that calendar day. */
export function isBareDue(md: MonthDay, today: CalendarDate): boolean {
  return md.month === today.month && md.day === today.day;
}

/** A `DELETE MM-DD` is past when its nearest occurrence is on or before today. */
export function isDeletePast(md: MonthDay, today: CalendarDate): boolean {
  return daysFromToday(md, today) <= 0;
}
