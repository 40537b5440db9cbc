import { TZDate } from '@date-fns/tz';

/** The quiet-hours settings a decision needs. */
export interface QuietHoursSettings {
  readonly enabled: boolean;
  readonly timezone: string;
  readonly start: string;
  readonly end: string;
}

function minuteOfDay(hhmm: string): number {
  const [h, m] = hhmm.split(':');
  return Number(h) * 60 + Number(m);
}

/**
 * True when `now` falls inside the quiet window. The window is `[start, end)` in zone-local
 * minutes of the day, so DST needs no special code; `start > end` crosses midnight and
 * `start == end` is an empty window (an always-quiet schedule is better expressed by pausing it).
 */
export function isQuietTime(now: Date, settings: QuietHoursSettings): boolean {
  if (!settings.enabled) return false;
  const local = new TZDate(now.getTime(), settings.timezone);
  const minute = local.getHours() * 60 + local.getMinutes();
  const start = minuteOfDay(settings.start);
  const end = minuteOfDay(settings.end);
  if (start === end) return false;
  return start < end ? minute >= start && minute < end : minute >= start || minute < end;
}
