import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatLocalTimestamp } from './local-timestamp.js';
import { wallClockIn } from './wall-clock.js';
import { intlTimestamp } from '../../test/support/intl-timestamp.js';

/**
 * The reference: the hand-written Intl readings this module replaced (core's active-hours
 * `localTime`, runbook's `calendarDateIn`, messages' `formatLocalTimestamp`), kept small here so the
 * @date-fns/tz reading is checked against an independent implementation.
 */
const WEEKDAYS: Readonly<Record<string, number>> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

function intlReading(instant: Date, zone: string): Record<string, number> {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    weekday: 'short',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(instant);
  const get = (type: string): string => parts.find((p) => p.type === type)?.value ?? '';
  const hour = Number(get('hour')) % 24; // some ICU builds print 24 for midnight
  const minute = Number(get('minute'));
  return {
    year: Number(get('year')),
    month: Number(get('month')),
    day: Number(get('day')),
    weekday: WEEKDAYS[get('weekday')] ?? Number.NaN,
    hour,
    minute,
    second: Number(get('second')),
    minuteOfDay: hour * 60 + minute,
  };
}

// Zones with DST both ways, half- and quarter-hour offsets, a 30-minute DST shift (Lord Howe), a
// skipped day (Apia, 2011-12-30), a zone east of +12 and the fixed Etc zones.
const ZONES = [
  'UTC',
  'Europe/Berlin',
  'Europe/London',
  'America/New_York',
  'America/St_Johns',
  'America/Santiago',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Australia/Lord_Howe',
  'Australia/Sydney',
  'Pacific/Apia',
  'Pacific/Kiritimati',
  'Pacific/Chatham',
  'Africa/Casablanca',
  'Etc/GMT+12',
  'Etc/GMT-14',
] as const;

// 1970–2100: the range of the tz database's rules (before 1970 zones had local mean time, whose
// offsets have seconds that the two readings round differently).
const instants = fc.integer({ min: 0, max: Date.UTC(2100, 0, 1) }).map((ms) => new Date(ms));

describe('wallClockIn', () => {
  it('agrees with the Intl reading in every zone, across DST transitions', () => {
    fc.assert(
      fc.property(instants, fc.constantFrom(...ZONES), (instant, zone) => {
        const { zone: used, ...clock } = wallClockIn(instant, zone);
        expect(used).toBe(zone);
        expect(clock).toEqual(intlReading(instant, zone));
      }),
      { numRuns: 1000 },
    );
  });

  it('agrees with the Intl reading within an hour of every DST change of 2026', () => {
    // A minute-by-minute walk is the dense case the random instants rarely hit.
    for (const [zone, at] of [
      ['Europe/Berlin', Date.UTC(2026, 2, 29, 1)],
      ['Europe/Berlin', Date.UTC(2026, 9, 25, 1)],
      ['America/New_York', Date.UTC(2026, 2, 8, 7)],
      ['America/New_York', Date.UTC(2026, 10, 1, 6)],
      ['Australia/Lord_Howe', Date.UTC(2026, 3, 4, 15)],
      ['Australia/Lord_Howe', Date.UTC(2026, 9, 3, 15, 30)],
    ] as const) {
      for (let minute = -60; minute <= 60; minute++) {
        const instant = new Date(at + minute * 60_000);
        const { zone: _used, ...clock } = wallClockIn(instant, zone);
        expect(clock, `${zone} ${instant.toISOString()}`).toEqual(intlReading(instant, zone));
      }
    }
  });

  it('reads a zone Intl rejects as UTC and says so, even one @date-fns/tz would read as an offset', () => {
    const instant = new Date('2026-03-08T07:30:00Z');
    for (const zone of ['Mars/Olympus_Mons', 'Bad+05', '+05:30', '']) {
      const clock = wallClockIn(instant, zone);
      expect(clock.zone).toBe('UTC');
      expect(clock.minuteOfDay).toBe(7 * 60 + 30);
    }
  });

  it('gives NaN fields for an invalid Date instead of throwing', () => {
    const clock = wallClockIn(new Date(Number.NaN), 'Europe/Berlin');
    expect(clock.zone).toBe('Europe/Berlin');
    expect(clock.minuteOfDay).toBeNaN();
    expect(clock.weekday).toBeNaN();
    expect(clock.year).toBeNaN();
  });
});

describe('formatLocalTimestamp', () => {
  it('agrees with the Intl formatting in every zone', () => {
    fc.assert(
      fc.property(instants, fc.constantFrom(...ZONES), (instant, zone) => {
        expect(formatLocalTimestamp(instant, zone)).toBe(intlTimestamp(instant, zone));
      }),
      { numRuns: 600 },
    );
  });

  it('prints spec 000 example form and refuses what Intl refuses', () => {
    expect(formatLocalTimestamp(new Date('2026-02-19T13:50:00Z'), 'Europe/Berlin')).toBe('2026-02-19T14:50:00');
    expect(formatLocalTimestamp(new Date('2026-02-19T14:50:00Z'), 'UTC')).toBe('2026-02-19T14:50:00');
    expect(() => formatLocalTimestamp(new Date('2026-02-19T14:50:00Z'), 'Bad+05')).toThrow(RangeError);
    expect(() => formatLocalTimestamp(new Date(Number.NaN), 'Europe/Berlin')).toThrow(RangeError);
  });
});
