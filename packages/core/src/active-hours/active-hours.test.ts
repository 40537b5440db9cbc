import { TZDate } from '@date-fns/tz';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { activeHoursStatus, formatActiveHours, isMinuteInWindow, isWithinActiveHours, type ActiveHoursWindow } from './active-hours.js';

const HOUR = 3_600_000;

const NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

/** Independent bound reader: `HH:MM` split by hand, a number is a whole hour. */
function minutesOf(bound: number | string): number {
  if (typeof bound === 'number') return bound * 60;
  const [h, m] = bound.split(':');
  return Number(h) * 60 + Number(m);
}

/** Independent oracle: the wall clock read through @date-fns/tz, the window as an arc of the clock face. */
function oracle(instant: Date, hours: ActiveHoursWindow): { inside: boolean; minute: number; weekday: number } {
  const local = new TZDate(instant.getTime(), hours.timeZone);
  const minute = local.getHours() * 60 + local.getMinutes();
  const weekday = local.getDay();
  const from = minutesOf(hours.start);
  const length = (minutesOf(hours.end) - from + 1440) % 1440;
  const inTime = length === 0 || (minute - from + 1440) % 1440 < length;
  const days = hours.days ?? (hours.weekend ? NAMES : NAMES.slice(1, 6));
  return { inside: inTime && days.includes(NAMES[weekday]!), minute, weekday };
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

const hhmm = (maxHour: number) =>
  fc
    .tuple(fc.integer({ min: 0, max: maxHour }), fc.integer({ min: 0, max: 59 }))
    .map(([h, m]) => (h === 24 ? '24:00' : `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`));
const daysArb = fc.uniqueArray(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 7 });
const windowArb = (zone: string): fc.Arbitrary<ActiveHoursWindow> =>
  fc.record(
    {
      start: fc.oneof(fc.integer({ min: 0, max: 23 }), hhmm(23)),
      end: fc.oneof(fc.integer({ min: 0, max: 24 }), hhmm(24)),
      weekend: fc.boolean(),
      days: daysArb,
      timeZone: fc.constant(zone),
    },
    { requiredKeys: ['start', 'end', 'weekend', 'timeZone'] },
  );

describe('activeHoursStatus around DST changes', () => {
  it('the sampled ranges really contain an offset change (the property below would be weak otherwise)', () => {
    for (const { zone, day } of DST_DAYS) {
      const noon = Date.parse(`${day}T12:00:00Z`);
      expect(offsetMinutes(noon - 36 * HOUR, zone), `${zone} ${day}`).not.toBe(offsetMinutes(noon + 36 * HOUR, zone));
    }
    // Lord Howe moves by 30 minutes, Adelaide sits on a half-hour offset.
    expect(
      Math.abs(
        offsetMinutes(Date.parse('2024-04-01T00:00:00Z'), 'Australia/Lord_Howe') -
          offsetMinutes(Date.parse('2024-05-01T00:00:00Z'), 'Australia/Lord_Howe'),
      ),
    ).toBe(30);
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
    const hours: ActiveHoursWindow = { start: '02:15', end: '02:45', weekend: true, timeZone: 'Australia/Lord_Howe' };
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
      fc.property(
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 24 }),
        fc.integer({ min: 0, max: 1439 }),
        (start, end, minute) => {
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
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('activeHoursStatus in UTC (issue 16: no ICU data for a UTC heartbeat)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('matches the oracle at any instant and never builds an Intl formatter', () => {
    // A formatter cached by an earlier test is not built again: watch its use too, so this can fail.
    const formatToParts = vi.spyOn(Intl.DateTimeFormat.prototype, 'formatToParts');
    const dateTimeFormat = vi.spyOn(Intl, 'DateTimeFormat');
    const seen: { status: ReturnType<typeof activeHoursStatus>; instant: Date; hours: ActiveHoursWindow }[] = [];
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true }),
        windowArb('UTC'),
        (instant, hours) => {
          seen.push({ status: activeHoursStatus(instant, hours), instant, hours });
        },
      ),
      { numRuns: 300 },
    );
    expect(dateTimeFormat).not.toHaveBeenCalled();
    expect(formatToParts).not.toHaveBeenCalled();
    vi.restoreAllMocks();
    for (const { status, instant, hours } of seen) {
      const expected = oracle(instant, hours);
      expect(status).toEqual({ inside: expected.inside, localMinuteOfDay: expected.minute, localWeekday: expected.weekday, zone: 'UTC' });
    }
  });

  it('an invalid Date is outside, as in any other zone', () => {
    expect(activeHoursStatus(new Date(Number.NaN), { start: 8, end: 22, weekend: true, timeZone: 'UTC' })).toMatchObject({
      inside: false,
      zone: 'UTC',
    });
  });
});

describe('minute precision, days and midnight crossing', () => {
  // 2024-06-12 is a Wednesday; Berlin is UTC+2 in June.
  const at = (isoLocalBerlinSummer: string): Date => new Date(`${isoLocalBerlinSummer}+02:00`);
  const office: ActiveHoursWindow = {
    start: '08:30',
    end: '18:15',
    weekend: false,
    days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'],
    timeZone: 'Europe/Berlin',
  };

  it('08:30 is inside, 08:29 is outside; 18:14 inside, 18:15 outside', () => {
    expect(isWithinActiveHours(at('2024-06-12T08:29:59'), office)).toBe(false);
    expect(isWithinActiveHours(at('2024-06-12T08:30:00'), office)).toBe(true);
    expect(isWithinActiveHours(at('2024-06-12T18:14:59'), office)).toBe(true);
    expect(isWithinActiveHours(at('2024-06-12T18:15:00'), office)).toBe(false);
  });

  it('Days decides instead of Weekend: Sun only, and Mon-Fri with weekend true', () => {
    const sunday: ActiveHoursWindow = { ...office, days: ['Sun'] };
    expect(isWithinActiveHours(at('2024-06-16T10:00:00'), sunday)).toBe(true); // Sunday
    expect(isWithinActiveHours(at('2024-06-12T10:00:00'), sunday)).toBe(false); // Wednesday
    expect(isWithinActiveHours(at('2024-06-15T10:00:00'), { ...office, weekend: true })).toBe(false); // Saturday, days Mon-Fri
  });

  it('an overnight window with days counts for the local calendar day of each instant', () => {
    const nights: ActiveHoursWindow = {
      start: '22:30',
      end: '06:15',
      weekend: false,
      days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'],
      timeZone: 'Europe/Berlin',
    };
    expect(isWithinActiveHours(at('2024-06-14T23:00:00'), nights)).toBe(true); // Friday night
    expect(isWithinActiveHours(at('2024-06-15T01:00:00'), nights)).toBe(false); // Saturday 01:00
    expect(isWithinActiveHours(at('2024-06-16T23:00:00'), nights)).toBe(false); // Sunday night
    expect(isWithinActiveHours(at('2024-06-17T06:14:00'), nights)).toBe(true); // Monday 06:14
    expect(isWithinActiveHours(at('2024-06-17T06:15:00'), nights)).toBe(false);
    expect(isWithinActiveHours(at('2024-06-17T22:29:00'), nights)).toBe(false);
    expect(isWithinActiveHours(at('2024-06-17T22:30:00'), nights)).toBe(true);
  });

  it('a malformed bound from an unvalidated caller is outside, never a throw', () => {
    expect(isWithinActiveHours(at('2024-06-12T10:00:00'), { ...office, start: '08:60' })).toBe(false);
    expect(isWithinActiveHours(at('2024-06-12T10:00:00'), { ...office, end: 25 })).toBe(false);
  });

  it('formatActiveHours keeps the spec form for whole hours', () => {
    expect(formatActiveHours({ start: '08:00', end: '22:00' })).toBe('8-22');
    expect(formatActiveHours({ start: 8, end: 24 })).toBe('8-24');
    expect(formatActiveHours({ start: '08:30', end: '18:15', days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'] })).toBe('08:30-18:15 Mon-Fri');
  });
});

describe('window predicate properties', () => {
  const minute = fc.integer({ min: 0, max: 1439 });
  const time = fc
    .integer({ min: 0, max: 1439 })
    .map((m) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`);

  it('an overnight window is exactly the complement of the day window it reverses', () => {
    fc.assert(
      fc.property(time, time, minute, (a, b, m) => {
        fc.pre(a !== b);
        expect(isMinuteInWindow(m, a, b)).toBe(!isMinuteInWindow(m, b, a));
      }),
      { numRuns: 2000 },
    );
  });

  it('start is inside and the minute before it is not; end is outside and the minute before it is inside', () => {
    fc.assert(
      fc.property(time, time, (a, b) => {
        fc.pre(a !== b);
        const from = minutesOf(a);
        const to = minutesOf(b);
        expect(isMinuteInWindow(from, a, b)).toBe(true);
        expect(isMinuteInWindow((from + 1439) % 1440, a, b)).toBe(false);
        expect(isMinuteInWindow(to, a, b)).toBe(false);
        expect(isMinuteInWindow((to + 1439) % 1440, a, b)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('a whole hour and its HH:00 spelling are the same bound', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 24 }), minute, (s, e, m) => {
        const pad = (h: number) => `${String(h).padStart(2, '0')}:00`;
        expect(isMinuteInWindow(m, s, e)).toBe(isMinuteInWindow(m, pad(s), pad(e)));
      }),
      { numRuns: 1000 },
    );
  });

  it('across local midnight the day rule switches with the calendar day, in any zone and on DST days', () => {
    const zones = fc.constantFrom(
      'Europe/Berlin',
      'America/New_York',
      'Australia/Lord_Howe',
      'Asia/Kolkata',
      'Pacific/Chatham',
      'America/Sao_Paulo',
    );
    const day = fc.integer({ min: 0, max: 3 * 366 }).map((d) => new Date(Date.UTC(2023, 0, 1) + d * 86_400_000));
    fc.assert(
      fc.property(zones, day, daysArb, (zone, date, days) => {
        // 23:59 of one local day and 00:00 of the next (skipped midnights, as in old Sao Paulo rules, resolve forward).
        const before = new TZDate(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), 23, 59, 0, zone);
        const after = new TZDate(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1, 0, 0, 0, zone);
        const always: ActiveHoursWindow = { start: '00:00', end: '00:00', weekend: true, days, timeZone: zone };
        expect(isWithinActiveHours(new Date(before.getTime()), always)).toBe(days.includes(NAMES[before.getDay()]!));
        expect(isWithinActiveHours(new Date(after.getTime()), always)).toBe(days.includes(NAMES[after.getDay()]!));
      }),
      { numRuns: 500 },
    );
  });

  it('matches the oracle at any instant of 2020–2030 for any window, days and DST zone', () => {
    const zones = fc.constantFrom(
      'Europe/Berlin',
      'America/New_York',
      'Australia/Lord_Howe',
      'Australia/Adelaide',
      'Pacific/Chatham',
      'UTC',
    );
    fc.assert(
      fc.property(
        zones.chain((zone) => fc.tuple(fc.constant(zone), windowArb(zone))),
        fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) }),
        ([, hours], ms) => {
          const instant = new Date(ms);
          expect(activeHoursStatus(instant, hours).inside).toBe(oracle(instant, hours).inside);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
