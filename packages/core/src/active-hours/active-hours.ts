/**
 * Active hours: `[start, end)` whole hours compared as zone-local minute-of-day. Comparing the
 * local wall clock (not an elapsed time) is what makes DST need no special code: on a 23- or
 * 25-hour day the window still opens and closes at the same wall-clock hours.
 */

/** The window, in whole hours of the zone's wall clock. */
export interface ActiveHoursWindow {
  /** First active hour, 0–23 (inclusive). */
  readonly start: number;
  /** Hour at which the window closes, 0–24 (exclusive); 24 is midnight. */
  readonly end: number;
  /** When false, Saturday and Sunday (of the local calendar day) are outside. */
  readonly weekend: boolean;
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

const WEEKDAYS: Readonly<Record<string, number>> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

interface ZoneFormatter {
  readonly format: Intl.DateTimeFormat;
  /** The zone reported back: the one asked for, or `UTC` when it was not a valid zone. */
  readonly zone: string;
}

// Building a DateTimeFormat is far slower than formatting with one, and a loop asks every 10 min.
const formatters = new Map<string, ZoneFormatter>();

function formatterFor(zone: string): ZoneFormatter {
  const cached = formatters.get(zone);
  if (cached) return cached;
  let made: ZoneFormatter;
  try {
    made = { format: new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', weekday: 'short', hour: '2-digit', minute: '2-digit' }), zone };
  } catch {
    // An unvalidated zone must not crash a cycle; the UTC fallback is visible in the status.
    // Not cached, so arbitrary bad names cannot grow the map.
    return formatterFor('UTC');
  }
  formatters.set(zone, made);
  return made;
}

interface LocalTime {
  readonly minuteOfDay: number;
  readonly weekday: number;
  readonly zone: string;
}

function localTime(instant: Date, zone: string): LocalTime {
  // UTC's wall clock is the Date's own: no Intl, so a UTC heartbeat never loads ICU's zone data.
  if (zone === 'UTC') return { minuteOfDay: instant.getUTCHours() * 60 + instant.getUTCMinutes(), weekday: instant.getUTCDay(), zone };
  const { format, zone: resolvedZone } = formatterFor(zone);
  if (Number.isNaN(instant.getTime())) return { minuteOfDay: Number.NaN, weekday: Number.NaN, zone: resolvedZone };
  let hour = 0;
  let minute = 0;
  let weekday = Number.NaN;
  for (const part of format.formatToParts(instant)) {
    if (part.type === 'hour') hour = Number(part.value) % 24; // some ICU builds print 24 for midnight
    else if (part.type === 'minute') minute = Number(part.value);
    else if (part.type === 'weekday') weekday = WEEKDAYS[part.value] ?? Number.NaN;
  }
  return { minuteOfDay: hour * 60 + minute, weekday, zone: resolvedZone };
}

/**
 * True when `minuteOfDay` is inside `[start, end)` hours. `start > end` is an overnight window
 * (22 → 6 covers 22:00–05:59); `start == end` is always active, because an empty window would
 * silently switch the heartbeat off, which nobody writes on purpose.
 */
export function isMinuteInWindow(minuteOfDay: number, start: number, end: number): boolean {
  if (start === end) return true;
  const from = start * 60;
  const to = end * 60;
  return start < end ? minuteOfDay >= from && minuteOfDay < to : minuteOfDay >= from || minuteOfDay < to;
}

/**
 * Where `instant` falls in the window. The weekend rule looks at the calendar day of the local
 * time, so with `weekend: false` an overnight window opened on Friday at 22:00 closes at
 * Saturday 00:00, and Sunday 22:00 is still outside (Monday 00:00 is inside). An invalid Date is
 * outside: only the critical scans run, which is the safe side.
 */
export function activeHoursStatus(instant: Date, hours: ActiveHoursWindow): ActiveHoursStatus {
  const local = localTime(instant, hours.timeZone);
  if (Number.isNaN(local.minuteOfDay)) return { inside: false, localMinuteOfDay: local.minuteOfDay, localWeekday: local.weekday, zone: local.zone };
  const isWeekend = local.weekday === 0 || local.weekday === 6;
  const inside = (hours.weekend || !isWeekend) && isMinuteInWindow(local.minuteOfDay, hours.start, hours.end);
  return { inside, localMinuteOfDay: local.minuteOfDay, localWeekday: local.weekday, zone: local.zone };
}

/** True when `instant` is inside the active-hours window (see {@link activeHoursStatus}). */
export function isWithinActiveHours(instant: Date, hours: ActiveHoursWindow): boolean {
  return activeHoursStatus(instant, hours).inside;
}
