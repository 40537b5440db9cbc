import { wallClockIn } from './wall-clock.js';

/**
 * Days on the calendar without a time or a zone (`2026-12-31`, a year-less `12-31`), and the day
 * arithmetic on them that runbook date tokens need. A zone matters only when an instant is read as
 * a day ({@link calendarDateIn}, through `wallClockIn`); after that the arithmetic is on the
 * proleptic Gregorian calendar, where every day is a day, whatever DST did to its length.
 */

/** A calendar month and day without a year, as written in a runbook line (`12-31`). */
export interface MonthDay {
  /** Month of the year, 1–12. */
  readonly month: number;
  /** Day of the month, 1–31. */
  readonly day: number;
}

/** A calendar date in some zone. */
export interface CalendarDate extends MonthDay {
  /** Full year, e.g. 2026. */
  readonly year: number;
}

const MS_PER_DAY = 86_400_000;

/**
 * The calendar date of `instant` on the wall of `zone`, read by `wallClockIn` (so it agrees with
 * every other zone-local decision). Like `wallClockIn`, a zone `Intl` rejects is read as UTC and an
 * invalid Date gives NaN fields: validate zones first with `resolveTimeZone`.
 */
export function calendarDateIn(instant: Date, zone: string): CalendarDate {
  const clock = wallClockIn(instant, zone);
  return { year: clock.year, month: clock.month, day: clock.day };
}

/** Whether `year`, `month`, `day` name a day that exists (`2027-02-29` does not). */
export function isValidCalendarDate(date: CalendarDate): boolean {
  const { year, month, day } = date;
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return false;
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  // Day 0 of the next month is the last day of this one; UTC, so no zone can shift it.
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

// Days since 1970-01-01 of a valid date. UTC midnights are exactly a day apart, which no local
// midnight is on a DST day: that is why the arithmetic is done in UTC and not in the zone.
function dayNumber(date: CalendarDate): number {
  const ms = new Date(0).setUTCFullYear(date.year, date.month - 1, date.day); // years 0–99 stay themselves
  return Math.round(ms / MS_PER_DAY);
}

/** Signed calendar days from `from` to `to`: 1 from `12-31` to the next `01-01`, negative when `to` is earlier. */
export function daysBetween(from: CalendarDate, to: CalendarDate): number {
  return dayNumber(to) - dayNumber(from);
}

/** The date `days` calendar days after `date` (before it when negative): `2026-12-31` + 1 = `2027-01-01`. */
export function addCalendarDays(date: CalendarDate, days: number): CalendarDate {
  const moved = new Date(0);
  moved.setUTCFullYear(date.year, date.month - 1, date.day + days);
  return { year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() };
}

/** `md` in `year`; `02-29` in a common year is that year's `02-28`, the last day of its February. */
export function monthDayInYear(md: MonthDay, year: number): CalendarDate {
  return { year, month: md.month, day: Math.min(md.day, daysInMonth(year, md.month)) };
}

/**
 * The occurrence of a year-less `md` nearest to `today` (DESIGN.md, runbook dates): `12-30` read on
 * `2027-01-02` is `2026-12-30`, `01-03` read on `2026-12-28` is `2027-01-03`. On an exact tie (half a
 * leap year away) the earlier one wins. `02-29` in a common year is its `02-28`
 * (the last day of its February), so the result is always a real date.
 */
export function nearestMonthDay(md: MonthDay, today: CalendarDate): CalendarDate {
  let best = monthDayInYear(md, today.year);
  let bestDistance = Math.abs(daysBetween(today, best));
  for (const year of [today.year - 1, today.year + 1]) {
    const candidate = monthDayInYear(md, year);
    const offset = daysBetween(today, candidate);
    if (Math.abs(offset) < bestDistance || (Math.abs(offset) === bestDistance && offset < 0)) {
      best = candidate;
      bestDistance = Math.abs(offset);
    }
  }
  return best;
}
