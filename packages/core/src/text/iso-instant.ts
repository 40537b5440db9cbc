import { err, ok, type Result } from 'neverthrow';

/** Why a string is not a strict ISO-8601 instant. */
export interface IsoInstantError {
  readonly kind: 'invalid-iso-instant';
  /** What is wrong, as the end of a sentence: `has no day 30 in month 02.` */
  readonly message: string;
}

// RFC 3339 profile of ISO 8601: a full date, a time with optional seconds and fraction, and a zone.
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2})?)$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * Parses a strict ISO-8601 instant (`2026-02-19T14:50:00Z`, `2026-02-19T15:50+01:00`). Unlike
 * `new Date(text)`, it never rolls an impossible date over (`2026-02-30` is not March 2) and never
 * guesses a zone: a date-time without `Z` or an offset is rejected, because the machine's zone
 * would silently decide which instant it means.
 *
 * @example
 * ```ts
 * import { parseIsoInstant } from '@heartbeat-kit/core';
 *
 * parseIsoInstant('2026-02-19T14:50:00Z').isOk(); // true
 * parseIsoInstant('2026-02-30T10:00:00Z').isErr(); // true: February has no day 30
 * ```
 */
export function parseIsoInstant(text: string): Result<Date, IsoInstantError> {
  const fail = (message: string) => err<Date, IsoInstantError>({ kind: 'invalid-iso-instant', message });
  const m = INSTANT.exec(text);
  if (!m) {
    if (/^\d{4}-\d{2}-\d{2}(?:[Tt]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?$/.test(text)) return fail('has no time zone.');
    return fail('is not an ISO-8601 date-time.');
  }
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [number, number, number, number, number];
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (month < 1 || month > 12) return fail(`has no month ${m[2]}.`);
  if (day < 1 || day > daysInMonth(year, month)) return fail(`has no day ${m[3]} in month ${m[2]} of ${m[1]}.`);
  if (hour > 23) return fail(`has no hour ${m[4]}.`);
  if (minute > 59) return fail(`has no minute ${m[5]}.`);
  if (second > 59) return fail(`has no second ${m[6]}.`);
  let offsetMinutes = 0;
  if (m[8] === undefined) {
    const oh = Number(m[10]);
    const om = m[11] === undefined ? 0 : Number(m[11]);
    if (oh > 23 || om > 59) return fail(`has no zone offset ${m[9]}${m[10]}${m[11] === undefined ? '' : `:${m[11]}`}.`);
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const millis = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000);
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  // Date.UTC maps years 0–99 to 1900–1999; setUTCFullYear puts them back.
  const date = new Date(utc);
  date.setUTCFullYear(year);
  return ok(new Date(date.getTime() - offsetMinutes * 60_000));
}
