import { TZDate } from '@date-fns/tz';
import { addDays, differenceInCalendarDays, isLeapYear } from 'date-fns';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addCalendarDays,
  calendarDateIn,
  daysBetween,
  isValidCalendarDate,
  monthDayInYear,
  nearestMonthDay,
  type CalendarDate,
  type MonthDay,
} from './calendar-date.js';

const d = (year: number, month: number, day: number): CalendarDate => ({ year, month, day });

// Zones ahead of and behind UTC, with and without DST, with half-hour offsets and DST steps, and
// the two ends of the date line.
const ZONES = [
  'UTC',
  'Europe/Berlin',
  'America/New_York',
  'America/Los_Angeles',
  'America/St_Johns',
  'America/Santiago',
  'Asia/Tokyo',
  'Asia/Kolkata',
  'Australia/Lord_Howe',
  'Pacific/Kiritimati',
  'Pacific/Pago_Pago',
] as const;

describe('calendar days', () => {
  it('year ends: 12-31 and the next 01-01 are one day apart', () => {
    expect(daysBetween(d(2026, 12, 31), d(2027, 1, 1))).toBe(1);
    expect(daysBetween(d(2027, 1, 1), d(2026, 12, 31))).toBe(-1);
    expect(addCalendarDays(d(2026, 12, 31), 1)).toEqual(d(2027, 1, 1));
    expect(addCalendarDays(d(2027, 1, 1), -1)).toEqual(d(2026, 12, 31));
    expect(nearestMonthDay({ month: 1, day: 1 }, d(2026, 12, 31))).toEqual(d(2027, 1, 1));
    expect(nearestMonthDay({ month: 12, day: 31 }, d(2027, 1, 1))).toEqual(d(2026, 12, 31));
  });

  it('02-29 in a common year is its 02-28, and the result is always a real date', () => {
    expect(monthDayInYear({ month: 2, day: 29 }, 2027)).toEqual(d(2027, 2, 28));
    expect(monthDayInYear({ month: 2, day: 29 }, 2028)).toEqual(d(2028, 2, 29));
    expect(monthDayInYear({ month: 2, day: 29 }, 2100)).toEqual(d(2100, 2, 28)); // not a leap year
    expect(nearestMonthDay({ month: 2, day: 29 }, d(2027, 3, 1))).toEqual(d(2027, 2, 28));
    expect(nearestMonthDay({ month: 2, day: 29 }, d(2028, 3, 1))).toEqual(d(2028, 2, 29));
    expect(isValidCalendarDate(d(2027, 2, 29))).toBe(false);
    expect(isValidCalendarDate(d(2000, 2, 29))).toBe(true);
    expect(addCalendarDays(d(2028, 2, 28), 1)).toEqual(d(2028, 2, 29));
    expect(addCalendarDays(d(2027, 2, 28), 1)).toEqual(d(2027, 3, 1));
  });

  it('a tie half a leap year away goes to the past', () => {
    // 2028-01-01 is 183 days before 2028-07-02 and 2029-01-01 is 183 days after it.
    expect(daysBetween(d(2028, 1, 1), d(2028, 7, 2))).toBe(183);
    expect(daysBetween(d(2028, 7, 2), d(2029, 1, 1))).toBe(183);
    expect(nearestMonthDay({ month: 1, day: 1 }, d(2028, 7, 2))).toEqual(d(2028, 1, 1));
  });

  it('DST days are one calendar day each, and the day of an instant follows the zone', () => {
    // Europe/Berlin: 2026-03-29 has 23 hours, 2026-10-25 has 25.
    expect(daysBetween(calendarDateIn(new Date('2026-03-28T23:30:00Z'), 'Europe/Berlin'), d(2026, 3, 30))).toBe(1);
    expect(calendarDateIn(new Date('2026-03-28T22:59:59Z'), 'Europe/Berlin')).toEqual(d(2026, 3, 28));
    expect(calendarDateIn(new Date('2026-03-28T23:00:00Z'), 'Europe/Berlin')).toEqual(d(2026, 3, 29));
    expect(calendarDateIn(new Date('2026-10-25T22:59:59Z'), 'Europe/Berlin')).toEqual(d(2026, 10, 25));
    expect(calendarDateIn(new Date('2026-10-25T23:00:00Z'), 'Europe/Berlin')).toEqual(d(2026, 10, 26));
    // America/New_York falls back at 02:00 local on 2026-11-01: 04:59Z is still 11-01, 05:00Z too.
    expect(calendarDateIn(new Date('2026-11-02T04:59:59Z'), 'America/New_York')).toEqual(d(2026, 11, 1));
    expect(calendarDateIn(new Date('2026-11-02T05:00:00Z'), 'America/New_York')).toEqual(d(2026, 11, 2));
    // Australia/Lord_Howe (UTC+11 in summer) moves back by half an hour at 02:00 on 2026-04-05.
    expect(calendarDateIn(new Date('2026-04-04T12:59:59Z'), 'Australia/Lord_Howe')).toEqual(d(2026, 4, 4));
    expect(calendarDateIn(new Date('2026-04-04T13:00:00Z'), 'Australia/Lord_Howe')).toEqual(d(2026, 4, 5));
  });

  it('near midnight UTC a zone ahead is already tomorrow and a zone behind still yesterday', () => {
    const lateOnNewYearsEve = new Date('2026-12-31T23:30:00Z');
    expect(calendarDateIn(lateOnNewYearsEve, 'Asia/Tokyo')).toEqual(d(2027, 1, 1));
    expect(calendarDateIn(lateOnNewYearsEve, 'America/Los_Angeles')).toEqual(d(2026, 12, 31));
    const earlyOnNewYearsDay = new Date('2027-01-01T00:30:00Z');
    expect(calendarDateIn(earlyOnNewYearsDay, 'America/Los_Angeles')).toEqual(d(2026, 12, 31));
    expect(calendarDateIn(earlyOnNewYearsDay, 'Pacific/Kiritimati')).toEqual(d(2027, 1, 1));
  });
});

const instant = fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-12-31T23:59:59Z'), noInvalidDate: true });
const zone = fc.constantFrom(...ZONES);
const monthDay = fc
  .record({ month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 1, max: 31 }) })
  .filter(({ month, day }) => isValidCalendarDate({ year: 2000, month, day }));

// The reference walks the zone's own calendar with date-fns, one day at a time from local noon
// (noon exists on every DST day), and takes the first match at each distance, past first.
function matches(date: TZDate, md: MonthDay): boolean {
  if (date.getMonth() + 1 !== md.month) return false;
  if (date.getDate() === md.day) return true;
  return md.month === 2 && md.day === 29 && date.getDate() === 28 && !isLeapYear(date);
}

function referenceOffset(noon: TZDate, md: MonthDay): number {
  for (let k = 0; k <= 366; k++) {
    if (matches(addDays(noon, -k), md)) return k === 0 ? 0 : -k;
    if (matches(addDays(noon, k), md)) return k;
  }
  throw new Error('no occurrence within a year');
}

const dateOf = (local: TZDate): CalendarDate => d(local.getFullYear(), local.getMonth() + 1, local.getDate());

describe('properties against a brute-force date-fns walk (1970–2100, zones ahead of and behind UTC)', () => {
  it('the day of an instant, the nearest occurrence of a month-day and the days to it', () => {
    fc.assert(
      fc.property(instant, zone, monthDay, (at, tz, md) => {
        const local = new TZDate(at.getTime(), tz);
        const today = calendarDateIn(at, tz);
        expect(today).toEqual(dateOf(local));
        const noon = new TZDate(local.getFullYear(), local.getMonth(), local.getDate(), 12, tz);
        const offset = referenceOffset(noon, md);
        const nearest = nearestMonthDay(md, today);
        expect(daysBetween(today, nearest)).toBe(offset);
        expect(nearest).toEqual(dateOf(addDays(noon, offset)));
        expect(isValidCalendarDate(nearest)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('daysBetween and addCalendarDays agree with date-fns in the zone', () => {
    fc.assert(
      fc.property(instant, zone, fc.integer({ min: -2000, max: 2000 }), (at, tz, days) => {
        const local = new TZDate(at.getTime(), tz);
        const noon = new TZDate(local.getFullYear(), local.getMonth(), local.getDate(), 12, tz);
        const later = addDays(noon, days);
        const today = calendarDateIn(at, tz);
        expect(addCalendarDays(today, days)).toEqual(dateOf(later));
        expect(daysBetween(today, dateOf(later))).toBe(differenceInCalendarDays(later, noon));
        expect(daysBetween(today, dateOf(later))).toBe(days);
      }),
      { numRuns: 300 },
    );
  });
});
