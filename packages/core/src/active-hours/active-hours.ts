import { ALL_DAYS, formatDays, formatTimeOfDay, parseTimeOfDay, WEEKDAY_NAMES, WORKING_DAYS, type Weekday } from '../time/calendar.js';
import { wallClockIn } from '../time/wall-clock.js';

/**
 * Active hours: `[start, end)` compared as zone-local minute-of-day, on the active days of the
 * local calendar. Comparing the local wall clock (not an elapsed time) is what makes DST need no
 * special code: on a 23- or 25-hour day the window still opens and closes at the same wall-clock
 * times.
 */

/** The window, on the zone's wall clock and calendar. */
export interface ActiveHoursWindow {
  /** Opening time (inclusive): `HH:MM`, or a whole hour 0–23 (the spec's form). */
  readonly start: number | string;
  /** Closing time (exclusive): `HH:MM` (`24:00` is midnight), or a whole hour 0–24. */
  readonly end: number | string;
  /** When false (and `days` is absent), Saturday and Sunday of the local calendar are outside. */
  readonly weekend: boolean;
  /** The active days of the local calendar; when set, it decides instead of `weekend`. */
  readonly days?: readonly Weekday[] | undefined;
  /** IANA zone the wall clock is read in; validate it first with `resolveTimeZone`. */
  readonly timeZone: string;
}

/** Where an instant falls relative to the active-hours window. */
export interface ActiveHoursStatus {
  /** True inside the window. */
  readonly inside: boolean;
  /** Zone-local minutes since midnight, 0–1439 (NaN for an invalid Date). */
  readonly localMinuteOfDay: number;
  /** Zone-local day of the week, 0 = Sunday … 6 = Saturday (NaN for an invalid Date). */
  readonly localWeekday: number;
  /** The zone actually used: the given one, or `UTC` when it was not a valid zone. */
  readonly zone: string;
}

/**
 * Minutes since midnight of a window bound: a whole hour (the spec's `8`) or `HH:MM`. NaN for a
 * bound no schema would pass, so an unvalidated window is outside rather than a crash.
 */
export function boundMinutes(bound: number | string, which: 'start' | 'end'): number {
  if (typeof bound === 'number')
    return Number.isInteger(bound) && bound >= 0 && bound <= (which === 'end' ? 24 : 23) ? bound * 60 : Number.NaN;
  return parseTimeOfDay(bound, { allowMidnightEnd: which === 'end' }).unwrapOr(Number.NaN);
}

/**
 * True when `minuteOfDay` is inside `[start, end)` (bounds as in {@link ActiveHoursWindow}).
 * `start > end` is an overnight window (22:00 → 06:00 covers 22:00–05:59); `start == end` is
 * always active, because an empty window would silently switch the heartbeat off, which nobody
 * writes on purpose.
 */
export function isMinuteInWindow(minuteOfDay: number, start: number | string, end: number | string): boolean {
  const from = boundMinutes(start, 'start');
  const to = boundMinutes(end, 'end') % 1440;
  if (Number.isNaN(from) || Number.isNaN(to)) return false;
  if (from === to) return true;
  return from < to ? minuteOfDay >= from && minuteOfDay < to : minuteOfDay >= from || minuteOfDay < to;
}

/** The active days of a window: `days` when set, else every day (`weekend`) or Monday to Friday. */
export function activeDays(hours: Pick<ActiveHoursWindow, 'weekend' | 'days'>): readonly Weekday[] {
  return hours.days ?? (hours.weekend ? ALL_DAYS : WORKING_DAYS);
}

/**
 * Where `instant` falls in the window. The day rule looks at the calendar day of the local time,
 * as OpenClaw's `activeHours.days` does: with Mon–Fri an overnight window opened on Friday at 22:00
 * closes at Saturday 00:00, and Sunday 22:00 is still outside (Monday 00:00 is inside). An invalid
 * Date is outside: only the critical scans run, which is the safe side.
 */
export function activeHoursStatus(instant: Date, hours: ActiveHoursWindow): ActiveHoursStatus {
  const local = wallClockIn(instant, hours.timeZone);
  if (Number.isNaN(local.minuteOfDay))
    return { inside: false, localMinuteOfDay: local.minuteOfDay, localWeekday: local.weekday, zone: local.zone };
  const day = WEEKDAY_NAMES[local.weekday];
  const inside = day !== undefined && activeDays(hours).includes(day) && isMinuteInWindow(local.minuteOfDay, hours.start, hours.end);
  return { inside, localMinuteOfDay: local.minuteOfDay, localWeekday: local.weekday, zone: local.zone };
}

/** True when `instant` is inside the active-hours window (see {@link activeHoursStatus}). */
export function isWithinActiveHours(instant: Date, hours: ActiveHoursWindow): boolean {
  return activeHoursStatus(instant, hours).inside;
}

function boundText(bound: number | string, which: 'start' | 'end', spec: boolean): string {
  const minutes = boundMinutes(bound, which);
  if (Number.isNaN(minutes)) return String(bound);
  return spec ? String(minutes / 60) : formatTimeOfDay(minutes);
}

/**
 * The window in a few words: `8-22` when both bounds are whole hours (the form the online message prints; spec 000),
 * `08:30-18:15` otherwise, followed by the days when they were set (`08:30-18:15 Mon-Fri`).
 */
export function formatActiveHours(hours: Pick<ActiveHoursWindow, 'start' | 'end' | 'days'>): string {
  const spec = boundMinutes(hours.start, 'start') % 60 === 0 && boundMinutes(hours.end, 'end') % 60 === 0;
  const range = `${boundText(hours.start, 'start', spec)}-${boundText(hours.end, 'end', spec)}`;
  return hours.days === undefined ? range : `${range} ${formatDays(hours.days)}`;
}
