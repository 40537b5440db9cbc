export { wallClockIn, isKnownZone, type WallClock } from './wall-clock.js';
export { formatLocalTimestamp } from './local-timestamp.js';
export {
  calendarDateIn,
  isValidCalendarDate,
  daysBetween,
  addCalendarDays,
  nearestMonthDay,
  type CalendarDate,
  type MonthDay,
} from './calendar-date.js';
export { normalizeTimeZone, isValidTimeZone, resolveTimeZone, type InvalidTimeZoneError } from './time-zone.js';
export {
  WEEKDAY_NAMES,
  WORKING_DAYS,
  ALL_DAYS,
  parseTimeOfDay,
  formatTimeOfDay,
  canonicalDays,
  parseDays,
  formatDays,
  type Weekday,
  type CalendarProblem,
} from './calendar.js';
export { parseDuration, parseDurationStrict, formatDuration, type DurationUnit, type DurationError } from './duration.js';
