import { TZDate } from '@date-fns/tz';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { activeHoursStatus, isMinuteInWindow, isWithinActiveHours, type ActiveHoursWindow } from './active-hours.js';

const HOUR = 3_600_000;

/** Independent oracle: the wall clock read through @date-fns/tz instead of formatToParts. */
function oracle(instant: Date, hours: ActiveHoursWindow): { inside: boolean; minute: number; weekday: number } {
  const local = new TZDate(instant.getTime(), hours.timeZone);
  const minute = local.getHours() * 60 + local.getMinutes();
  const weekday = local.getDay();
  const hour = local.getHours();
  let inHours: boolean;
  if (hours.start === hours.end) inHours = true;
  else if (hours.start < hours.end) inHours = hour >= hours.start && hour < hours.end;
  else inHours = hour >= hours.start || hour < hours.end;
  const weekendOk = hours.weekend || (weekday !== 0 && weekday !== 6);
  return { inside: inHours && weekendOk, minute, weekday };
}

function offsetMinutes(ms: number, zone: string): number {
  return -new TZDate(ms, zone).getTimezoneOffset();
}

// Noon UTC on each 2024 DST change day; instants are sampled ±36 h around them.
const DST_DAYS: readonly { zone: string; day: string }[] = [
  { zone: 'America/New_York', day: '2024-03-10' },
  { zone: 'America/New_York', day: '2024-11-03' },
  { zone: 'Europe/Berlin', day: '2024-03-31' },
  { zone: 'Europe/Berlin', day: '2024-10-27' },
  { zone: 'Australia/Lord_Howe', day: '2024-04-07' },
  { zone: 'Australia/Lord_Howe', day: '2024-10-06' },
  { zone: 'Australia/Adelaide', day: '2024-04-07' },
  { zone: 'Australia/Adelaide', day: '2024-10-06' },
];

const windowArb = (zone: string): fc.Arbitrary<ActiveHoursWindow> =>
  fc.record({ start: fc.integer({ min: 0, max: 23 }), end: fc.integer({ min: 0, max: 24 }), weekend: fc.boolean(), timeZone: fc.constant(zone) });

describe('activeHoursStatus around DST changes', () => {
  it('the sampled ranges really contain an offset change (the property below would be weak otherwise)', () => {
    for (const { zone, day } of DST_DAYS) {
      const noon = Date.parse(`${day}T12:00:00Z`);
      expect(offsetMinutes(noon - 36 * HOUR, zone), `${zone} ${day}`).not.toBe(offsetMinutes(noon + 36 * HOUR, zone));
    }
    // Lord Howe moves by 30 minutes, Adelaide sits on a half-hour offset.
    expect(Math.abs(offsetMinutes(Date.parse('2024-04-01T00:00:00Z'), 'Australia/Lord_Howe') - offsetMinutes(Date.parse('2024-05-01T00:00:00Z'), 'Australia/Lord_Howe'))).toBe(30);
    expect(offsetMinutes(Date.parse('2024-06-01T00:00:00Z'), 'Australia/Adelaide')).toBe(570);
  });

  for (const { zone, day } of DST_DAYS) {
    it(`matches the TZDate oracle in ${zone} around ${day}`, () => {
      const noon = Date.parse(`${day}T12:00:00Z`);
      fc.assert(
        fc.property(fc.integer({ min: -36 * 3600, max: 36 * 3600 }), windowArb(zone), (offsetSeconds, hours) => {
          const instant = new Date(noon + offsetSeconds * 1000);
          const status = activeHoursStatus(instant, hours);
          const expected = oracle(instant, hours);
          expect(status.localMinuteOfDay).toBe(expected.minute);
          expect(status.localWeekday).toBe(expected.weekday);
          expect(status.inside).toBe(expected.inside);
          expect(status.zone).toBe(zone);
        }),
        { numRuns: 400 },
      );
    });
  }

  it('matches the oracle at every quarter hour across the Lord Howe spring-forward night', () => {
    const hours: ActiveHoursWindow = { start: 2, end: 3, weekend: true, timeZone: 'Australia/Lord_Howe' };
    const from = Date.parse('2024-10-05T13:00:00Z');
    for (let ms = from; ms < from + 6 * HOUR; ms += 15 * 60_000) {
      const instant = new Date(ms);
      expect(isWithinActiveHours(instant, hours), instant.toISOString()).toBe(oracle(instant, hours).inside);
    }
  });
});

describe('activeHoursStatus edges', () => {
  const berlin = (start: number, end: number, weekend = true): ActiveHoursWindow => ({ start, end, weekend, timeZone: 'Europe/Berlin' });
  // 2024-06-12 is a Wednesday; Berlin is UTC+2 in June.
  const at = (isoLocalBerlinSummer: string): Date => new Date(`${isoLocalBerlinSummer}+02:00`);

  it('start is inside and end is outside', () => {
    expect(isWithinActiveHours(at('2024-06-12T08:00:00'), berlin(8, 22))).toBe(true);
    expect(isWithinActiveHours(at('2024-06-12T07:59:59'), berlin(8, 22))).toBe(false);
    expect(isWithinActiveHours(at('2024-06-12T21:59:59'), berlin(8, 22))).toBe(true);
    expect(isWithinActiveHours(at('2024-06-12T22:00:00'), berlin(8, 22))).toBe(false);
  });

  it('end 24 means midnight', () => {
    expect(isWithinActiveHours(at('2024-06-12T23:59:00'), berlin(8, 24))).toBe(true);
    expect(isWithinActiveHours(at('2024-06-13T00:00:00'), berlin(8, 24))).toBe(false);
  });

  it('start > end is an overnight window', () => {
    const night = berlin(22, 6);
    expect(isWithinActiveHours(at('2024-06-12T22:00:00'), night)).toBe(true);
    expect(isWithinActiveHours(at('2024-06-13T03:00:00'), night)).toBe(true);
    expect(isWithinActiveHours(at('2024-06-13T06:00:00'), night)).toBe(false);
    expect(isWithinActiveHours(at('2024-06-13T12:00:00'), night)).toBe(false);
  });

  it('start == end is always active', () => {
    for (const time of ['00:00', '07:00', '12:30', '23:59']) {
      expect(isWithinActiveHours(at(`2024-06-12T${time}:00`), berlin(7, 7))).toBe(true);
    }
  });

  it('weekend false puts the local Saturday and Sunday outside, by the local calendar day', () => {
    expect(isWithinActiveHours(at('2024-06-15T12:00:00'), berlin(8, 22, false))).toBe(false); // Saturday
    expect(isWithinActiveHours(at('2024-06-16T12:00:00'), berlin(8, 22, false))).toBe(false); // Sunday
    expect(isWithinActiveHours(at('2024-06-17T12:00:00'), berlin(8, 22, false))).toBe(true); // Monday
    expect(isWithinActiveHours(at('2024-06-15T12:00:00'), berlin(8, 22, true))).toBe(true);
    // Overnight from Friday: Friday 23:00 inside, Saturday 01:00 outside; Sunday 23:00 outside, Monday 01:00 inside.
    const night = berlin(22, 6, false);
    expect(isWithinActiveHours(at('2024-06-14T23:00:00'), night)).toBe(true);
    expect(isWithinActiveHours(at('2024-06-15T01:00:00'), night)).toBe(false);
    expect(isWithinActiveHours(at('2024-06-16T23:00:00'), night)).toBe(false);
    expect(isWithinActiveHours(at('2024-06-17T01:00:00'), night)).toBe(true);
  });

  it('the weekday is the zone-local one, not the UTC one', () => {
    // Saturday 01:00 in Berlin is still Friday 23:00 UTC.
    const status = activeHoursStatus(at('2024-06-15T01:00:00'), berlin(0, 0, false));
    expect(status.localWeekday).toBe(6);
    expect(status.localMinuteOfDay).toBe(60);
    expect(status.inside).toBe(false);
  });

  it('an invalid zone falls back to UTC instead of throwing', () => {
    const status = activeHoursStatus(new Date('2024-06-12T09:30:00Z'), { start: 9, end: 10, weekend: true, timeZone: 'Not/AZone' });
    expect(status).toEqual({ inside: true, localMinuteOfDay: 570, localWeekday: 3, zone: 'UTC' });
  });

  it('an invalid Date is outside', () => {
    const status = activeHoursStatus(new Date(Number.NaN), berlin(0, 0));
    expect(status.inside).toBe(false);
    expect(Number.isNaN(status.localMinuteOfDay)).toBe(true);
  });
});

describe('isMinuteInWindow', () => {
  it('agrees with an hour-based definition for every hour pair and minute', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 24 }), fc.integer({ min: 0, max: 1439 }), (start, end, minute) => {
        const hour = Math.floor(minute / 60);
        // Walk the clock face from start to end, one hour at a time.
        const covered = new Set<number>();
        if (start === end) for (let h = 0; h < 24; h++) covered.add(h);
        else {
          let h = start;
          do {
            covered.add(h);
            h = (h + 1) % 24;
          } while (h !== end % 24);
        }
        expect(isMinuteInWindow(minute, start, end)).toBe(covered.has(hour));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('activeHoursStatus in UTC (issue 16: no ICU data for a UTC heartbeat)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('matches the oracle at any instant and never builds an Intl formatter', () => {
    const dateTimeFormat = vi.spyOn(Intl, 'DateTimeFormat');
    const seen: { status: ReturnType<typeof activeHoursStatus>; instant: Date; hours: ActiveHoursWindow }[] = [];
    fc.assert(
      fc.property(fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true }), windowArb('UTC'), (instant, hours) => {
        seen.push({ status: activeHoursStatus(instant, hours), instant, hours });
      }),
      { numRuns: 300 },
    );
    expect(dateTimeFormat).not.toHaveBeenCalled();
    vi.restoreAllMocks();
    for (const { status, instant, hours } of seen) {
      const expected = oracle(instant, hours);
      expect(status).toEqual({ inside: expected.inside, localMinuteOfDay: expected.minute, localWeekday: expected.weekday, zone: 'UTC' });
    }
  });

  it('an invalid Date is outside, as in any other zone', () => {
    expect(activeHoursStatus(new Date(Number.NaN), { start: 8, end: 22, weekend: true, timeZone: 'UTC' })).toMatchObject({ inside: false, zone: 'UTC' });
  });
});
