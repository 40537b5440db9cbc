// The setters of HEARTBEAT.md's values: times, days, zones, durations, numbers and repeat schedules.
// Each validates its value and writes the draft, or says what is wrong and how to fix it.
import { formatTimeOfDay, parseDays, parseTimeOfDay } from '../time/calendar.js';
import { normalizeTimeZone } from '../time/time-zone.js';
import { formatDuration, parseDuration, parseDurationStrict, type DurationUnit } from '../time/duration.js';
import { MAX_REPEAT_INTERVAL_MS, MAX_REPEAT_STEPS } from './repeat-limits.js';
import { shorten } from './heartbeat-markdown-text.js';
import type { Problem, Setter } from './heartbeat-setting-draft.js';
import type { SectionSetter } from './config-section.js';

/** `Start` / `End`: a time of day (the end may be 24:00). */
export function timeOfDay(field: 'start' | 'end'): Setter {
  return (value, { draft }) => {
    const parsed = parseTimeOfDay(value, { allowMidnightEnd: field === 'end' });
    if (parsed.isErr()) return parsed.error;
    draft.activeHours[field] = formatTimeOfDay(parsed.value);
    return `activeHours.${field}`;
  };
}

/** `Days`: the active weekdays. */
export const days: Setter = (value, { draft }) => {
  const parsed = parseDays(value);
  if (parsed.isErr()) return parsed.error;
  draft.activeHours.days = parsed.value;
  return 'activeHours.days';
};

/** `true`/`yes`/`on` or `false`/`no`/`off`; undefined for anything else. */
export function booleanValue(value: string): boolean | undefined {
  const v = value.toLowerCase();
  if (v === 'true' || v === 'yes' || v === 'on') return true;
  if (v === 'false' || v === 'no' || v === 'off') return false;
  return undefined;
}

/** `Weekend`: whether Saturday and Sunday are active. */
export const weekend: Setter = (value, { draft }) => {
  const b = booleanValue(value);
  if (b === undefined) return { message: 'is not true or false.', fix: 'write true to scan on Saturday and Sunday, false not to.' };
  draft.activeHours.weekend = b;
  return 'activeHours.weekend';
};

/** `Timezone`: an IANA zone, or system/local (or nothing) for the machine's zone. */
export const timeZone: Setter = (value, { draft }) => {
  const v = value.toLowerCase();
  if (v === '' || v === 'system' || v === 'local') {
    delete draft.activeHours.timeZone;
    return 'activeHours.timeZone';
  }
  const zone = normalizeTimeZone(value);
  if (zone === undefined) {
    return {
      message: 'is not an IANA time zone.',
      fix: 'use a name such as Europe/Berlin or America/New_York, or system for the machine’s zone.',
    };
  }
  draft.activeHours.timeZone = zone;
  return 'activeHours.timeZone';
};

/** A duration setting or condition of config key `field` (in ms); a bare number is in `defaultUnit`. */
// A condition (`Threshold: 4 hours with no commits`) is prose around its duration; a setting
// (`Interval: 10 minutes`) is the duration alone, so `Interval: 10 minutes of nothing` is an error.
export function duration(field: string, defaultUnit: DurationUnit, example: string, form: 'prose' | 'value' = 'prose'): SectionSetter {
  const parse = form === 'value' ? parseDurationStrict : parseDuration;
  return (value, { draft }) => {
    const parsed = parse(value, defaultUnit);
    if (parsed.isErr())
      return { message: parsed.error.message, fix: `write ${form === 'value' ? 'only ' : ''}a duration such as ${example}.` };
    draft[field] = parsed.value;
    return field;
  };
}

/** A positive number of tokens (`20,000 tokens`). */
export function tokens(field: 'costAlertTokens' | 'actionableBudgetTokens'): Setter {
  return (value, { draft }) => {
    const match = /^(\d[\d,_ ]{0,20})\s*(?:tokens?)?$/i.exec(value);
    const n = match?.[1] === undefined ? Number.NaN : Number(match[1].replace(/[,_ ]/g, ''));
    if (!Number.isSafeInteger(n) || n <= 0)
      return { message: 'is not a positive number of tokens.', fix: 'write a whole number such as 20000.' };
    draft[field] = n;
    return field;
  };
}

const REPEAT_FIX = 'write intervals from shortest to longest, separated by commas, such as 30m, 2h, 8h (bare numbers are minutes).';

/** Reads a repeat schedule (`30m, 2h, 8h`): the intervals in ms, or what is wrong and the fix. */
export function parseRepeatValue(value: string): number[] | Problem {
  const fix = REPEAT_FIX;
  const parts = value.split(/[,;]/).map((part) => part.trim());
  if (parts.length > MAX_REPEAT_STEPS) return { message: `has ${parts.length} intervals; at most ${MAX_REPEAT_STEPS} are allowed.`, fix };
  const intervals: number[] = [];
  for (const part of parts) {
    if (part === '') return { message: 'has an empty interval.', fix };
    const parsed = parseDurationStrict(part, 'm');
    if (parsed.isErr()) return { message: `has "${shorten(part)}", which ${parsed.error.message}`, fix };
    if (parsed.value > MAX_REPEAT_INTERVAL_MS)
      return { message: `has ${formatDuration(parsed.value)}, longer than ${formatDuration(MAX_REPEAT_INTERVAL_MS)}.`, fix };
    const previous = intervals.at(-1);
    if (previous !== undefined && parsed.value < previous) {
      return {
        message: `gets shorter (${formatDuration(parsed.value)} after ${formatDuration(previous)}); repeats of an unchanged finding may only slow down.`,
        fix,
      };
    }
    intervals.push(parsed.value);
  }
  return intervals;
}

/** `Repeat: 30m, 2h, 8h`: the intervals after the first, second, … report of an unchanged finding. */
export function repeat(field: 'all' | 'immediate' | 'advisory' | 'normal'): Setter {
  return (value, { draft }) => {
    const intervals = parseRepeatValue(value);
    if (!Array.isArray(intervals)) return intervals;
    draft.repeat = { ...draft.repeat, [field]: intervals };
    return `repeat.${field}`;
  };
}

/** `Catch up`: what to run after missed slots. */
export const catchUpPolicy: Setter = (value, { draft }) => {
  const v = value.toLowerCase().replace(/[\s_]+/g, '-');
  if (v !== 'skip' && v !== 'latest-once' && v !== 'all')
    return { message: 'is not a catch-up policy.', fix: 'write skip, latest-once (the default: one cycle now) or all.' };
  draft.catchUp = { ...draft.catchUp, policy: v };
  return 'catchUp.policy';
};

/** `Catch up cap`: at most this many missed cycles run. */
export const catchUpCap: Setter = (value, { draft }) => {
  const n = /^\d{1,3}$/.test(value) ? Number(value) : Number.NaN;
  if (!(n >= 0 && n <= 100)) return { message: 'is not a number of cycles 0–100.', fix: 'write a small whole number such as 3.' };
  draft.catchUp = { ...draft.catchUp, cap: n };
  return 'catchUp.cap';
};

/** `Breaker after`: failing cycles in a row that trip a scanner's breaker (off or 0: never). */
export const breakerAfter: Setter = (value, { draft }) => {
  const match = /^(\d{1,3})(?:\s*cycles?)?$/i.exec(value);
  const n = /^off$/i.test(value) ? 0 : match?.[1] === undefined ? Number.NaN : Number(match[1]);
  if (!(n >= 0 && n <= 100))
    return {
      message: 'is not a number of cycles 0–100.',
      fix: 'write how many failing cycles in a row trip the breaker, such as 3 (off or 0 turns it off).',
    };
  draft.breaker = { ...draft.breaker, after: n };
  return 'breaker.after';
};

/** `Breaker back off cap`: the longest back-off of a tripped scanner, in cycles. */
export const breakerBackoffCap: Setter = (value, { draft }) => {
  const match = /^(\d{1,3})(?:\s*cycles?)?$/i.exec(value);
  const n = match?.[1] === undefined ? Number.NaN : Number(match[1]);
  if (!(n >= 1 && n <= 100))
    return { message: 'is not a number of cycles 1–100.', fix: 'write the longest back-off in cycles, such as 8 (1 = never skip a run).' };
  draft.breaker = { ...draft.breaker, backoffCap: n };
  return 'breaker.backoffCap';
};
