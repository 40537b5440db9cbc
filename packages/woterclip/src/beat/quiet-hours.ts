import { formatDays, type PlanJudge, wallClockIn, type Weekday, WEEKDAY_NAMES } from '@heartbeat-kit/core/host';

/** The quiet-hours settings a decision needs. */
export interface QuietHoursSettings {
  readonly enabled: boolean;
  readonly timezone: string;
  readonly start: string;
  readonly end: string;
  /** Quiet only on these days of the local calendar; absent = every day. */
  readonly days?: readonly Weekday[] | undefined;
}

function minuteOfDay(hhmm: string): number {
  const [h, m] = hhmm.split(':');
  return Number(h) * 60 + Number(m);
}

/**
 * True when `now` falls inside the quiet window. The window is `[start, end)` in zone-local
 * minutes of the day, so DST needs no special code; `start > end` crosses midnight and
 * `start == end` is an empty window (an always-quiet schedule is better expressed by pausing it;
 * a whole quiet day is `00:00`–`24:00` with `days`). `days` is judged by the local calendar day
 * of `now`, so a Friday 22:00–07:00 window with `days: Fri` ends at Saturday 00:00.
 */
export function isQuietTime(now: Date, settings: QuietHoursSettings): boolean {
  if (!settings.enabled) return false;
  const local = wallClockIn(now, settings.timezone);
  if (settings.days !== undefined && !settings.days.includes(WEEKDAY_NAMES[local.weekday]!)) return false;
  const minute = local.minuteOfDay;
  const start = minuteOfDay(settings.start);
  const end = minuteOfDay(settings.end);
  if (start === end) return false;
  return start < end ? minute >= start && minute < end : minute >= start || minute < end;
}

/**
 * What a WoterClip beat does at each slot of `heartbeat-kit plan` (its `woterclip` verdict): runs,
 * or its quiet-hours behaviour inside the window; undefined when quiet hours are off.
 */
export function quietHoursPlanJudge(settings: QuietHoursSettings & { readonly behavior: 'skip' | 'triage-only' }): PlanJudge | undefined {
  if (!settings.enabled) return undefined;
  const label = `${settings.start}–${settings.end}${settings.days === undefined ? '' : ` ${formatDays(settings.days)}`} ${settings.timezone}`;
  return {
    at: (instant) =>
      isQuietTime(instant, settings)
        ? { verdict: settings.behavior, reason: `WoterClip quiet hours ${label} (${settings.behavior})` }
        : { verdict: 'runs', reason: 'outside WoterClip quiet hours' },
  };
}
