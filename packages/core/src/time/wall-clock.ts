import { TZDate } from '@date-fns/tz';

/**
 * The wall clock and calendar of an instant in an IANA zone, read through @date-fns/tz (the date
 * library the project chose). Every zone-local decision (active hours, quiet hours, runbook date
 * tokens, the local timestamps of messages) reads its clock here, so they cannot disagree about
 * DST or the day boundary.
 */

/** What a clock on the wall of `zone` shows at an instant. All fields are NaN for an invalid Date. */
export interface WallClock {
  /** Full year, e.g. 2026. */
  readonly year: number;
  /** Month of the year, 1–12. */
  readonly month: number;
  /** Day of the month, 1–31. */
  readonly day: number;
  /** Day of the week, 0 = Sunday … 6 = Saturday (the `WEEKDAY_NAMES` order). */
  readonly weekday: number;
  /** Hour, 0–23. */
  readonly hour: number;
  /** Minute, 0–59. */
  readonly minute: number;
  /** Second, 0–59. */
  readonly second: number;
  /** Minutes since local midnight, 0–1439. */
  readonly minuteOfDay: number;
  /** The zone actually read: the one asked for, or `UTC` when it is not a zone `Intl` knows. */
  readonly zone: string;
}

// Zones Intl accepted, so the check (which builds a formatter) runs once per zone. Only accepted
// names are kept, so arbitrary bad names cannot grow the set.
const knownZones = new Set<string>(['UTC']);

/** True when `Intl.DateTimeFormat` accepts `zone` exactly as written (remembered per accepted zone). */
export function isKnownZone(zone: string): boolean {
  if (knownZones.has(zone)) return true;
  // @date-fns/tz alone would read `Bad+05` as UTC+5 (it falls back to an offset found anywhere in
  // the name); Intl is the arbiter of what a zone is, as in `normalizeTimeZone`.
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    return false;
  }
  knownZones.add(zone);
  return true;
}

function invalidClock(zone: string): WallClock {
  const nan = Number.NaN;
  return { year: nan, month: nan, day: nan, weekday: nan, hour: nan, minute: nan, second: nan, minuteOfDay: nan, zone };
}

// The calendar and clock fields of a Date, named as its getters name them (`getUTCHours`, `getHours`).
type ClockField = 'FullYear' | 'Month' | 'Date' | 'Day' | 'Hours' | 'Minutes' | 'Seconds';

// One mapping from getters to a WallClock for both readings below, so the UTC fast path and the
// zone reading cannot drift apart (month 0–11 → 1–12, minute of the day).
function clockOf(read: (field: ClockField) => number, zone: string): WallClock {
  const hour = read('Hours');
  const minute = read('Minutes');
  return {
    year: read('FullYear'),
    month: read('Month') + 1,
    day: read('Date'),
    weekday: read('Day'),
    hour,
    minute,
    second: read('Seconds'),
    minuteOfDay: hour * 60 + minute,
    zone,
  };
}

/**
 * The wall clock of `instant` in `zone`. A zone `Intl` rejects is read as UTC and says so in
 * `zone` (a decision must not crash on an unvalidated config; validate first with
 * `resolveTimeZone`). `UTC` is read from the Date itself, so a UTC heartbeat never loads ICU's
 * zone data.
 */
export function wallClockIn(instant: Date, zone: string): WallClock {
  const usedZone = isKnownZone(zone) ? zone : 'UTC';
  const time = instant.getTime();
  if (Number.isNaN(time)) return invalidClock(usedZone);
  if (usedZone === 'UTC') return clockOf((field) => instant[`getUTC${field}`](), usedZone);
  const local = new TZDate(time, usedZone);
  return clockOf((field) => local[`get${field}`](), usedZone);
}
