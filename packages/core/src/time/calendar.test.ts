import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDays, formatTimeOfDay, parseDays, parseTimeOfDay, WEEKDAY_NAMES } from './calendar.js';

describe('parseTimeOfDay', () => {
  it('reads HH:MM, H:MM and whole hours; 24:00 only as an end', () => {
    expect(parseTimeOfDay('08:30')._unsafeUnwrap()).toBe(510);
    expect(parseTimeOfDay('8:30')._unsafeUnwrap()).toBe(510);
    expect(parseTimeOfDay('8')._unsafeUnwrap()).toBe(480);
    expect(parseTimeOfDay('23:59')._unsafeUnwrap()).toBe(1439);
    expect(parseTimeOfDay('24:00', { allowMidnightEnd: true })._unsafeUnwrap()).toBe(1440);
    expect(parseTimeOfDay('24')._unsafeUnwrapErr().message).toBe('has hour 24; hours go 00–23.');
    expect(parseTimeOfDay('08:60')._unsafeUnwrapErr()).toEqual({
      message: 'has minutes 60; minutes go 00–59.',
      fix: 'write a time HH:MM on the 24-hour clock, such as 08:30.',
    });
    expect(parseTimeOfDay('8am').isErr()).toBe(true);
  });

  it('formatTimeOfDay and parseTimeOfDay are inverse on every minute of the day', () => {
    for (let m = 0; m <= 1440; m++) expect(parseTimeOfDay(formatTimeOfDay(m), { allowMidnightEnd: true })._unsafeUnwrap()).toBe(m);
  });
});

describe('parseDays and formatDays', () => {
  it('reads ranges (wrapping), lists, full names and aliases', () => {
    expect(parseDays('Mon-Fri')._unsafeUnwrap()).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri']);
    expect(parseDays('Sun')._unsafeUnwrap()).toEqual(['Sun']);
    expect(parseDays('Fri-Mon')._unsafeUnwrap()).toEqual(['Mon', 'Fri', 'Sat', 'Sun']);
    expect(parseDays('monday to wednesday, SAT')._unsafeUnwrap()).toEqual(['Mon', 'Tue', 'Wed', 'Sat']);
    expect(parseDays('Tues, Thurs')._unsafeUnwrap()).toEqual(['Tue', 'Thu']);
    expect(parseDays('weekdays')._unsafeUnwrap()).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri']);
    expect(parseDays('every day')._unsafeUnwrap()).toHaveLength(7);
    expect(parseDays('Funday')._unsafeUnwrapErr().message).toBe('holds "Funday", which is not a day of the week.');
    expect(parseDays('T').isErr()).toBe(true); // Tuesday or Thursday
  });

  it('parse(format(days)) is the same set, for every subset of the week', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.constantFrom(...WEEKDAY_NAMES), { minLength: 1, maxLength: 7 }), (days) => {
        expect(new Set(parseDays(formatDays(days))._unsafeUnwrap())).toEqual(new Set(days));
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (text) => void parseDays(text)),
      { numRuns: 500 },
    );
  });
});
