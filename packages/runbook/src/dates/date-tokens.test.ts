import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  calendarDateIn,
  daysFromToday,
  isBareDue,
  isDeletePast,
  isValidMonthDay,
  nearestOccurrence,
  scanLineTokens,
} from './date-tokens.js';

const oct20 = { year: 2026, month: 10, day: 20 };

describe('scanLineTokens', () => {
  it('reads the spec Watch Items line: the full date is not a bare token, check 08-22 is', () => {
    const t = scanLineTokens('- Linear webhook retries since 2026-08-18. Lift when zero retries for 48 h (check 08-22).');
    expect(t.bare).toEqual([{ month: 8, day: 22 }]);
    expect(t.fullDates).toEqual(['2026-08-18']);
    expect(t.deletes).toEqual([]);
  });
  it('a full date and a time stamp carry no bare token', () => {
    const t = scanLineTokens('- Same item, re-verified 2026-10-20 ~10:45Z');
    expect(t.bare).toEqual([]);
    expect(t.fullDates).toEqual(['2026-10-20']);
  });
  it('DELETE MM-DD is a prune marker and also a bare token', () => {
    const t = scanLineTokens('- Old flag DELETE 10-18');
    expect(t.deletes).toEqual([{ month: 10, day: 18 }]);
    expect(t.bare).toEqual([{ month: 10, day: 18 }]);
  });
  it('lower-case delete is not a prune marker', () => {
    expect(scanLineTokens('- old flag delete 10-18').deletes).toEqual([]);
  });
  it.each(['v1.10-20', 'build 10-20-3', 'a/10-20', 'x10-20', '10-20x', '110-20', '2026-10-20'])('%s has no bare token', (line) => {
    expect(scanLineTokens(line).bare).toEqual([]);
  });
  it('invalid days are reported, not tokens', () => {
    const t = scanLineTokens('check 02-30 and 13-01, then 02-29');
    expect(t.invalid).toEqual(['02-30', '13-01']);
    expect(t.bare).toEqual([{ month: 2, day: 29 }]);
  });
});

describe('due rules (reference §8 table, today = 10-20)', () => {
  const dueOn = (line: string): boolean => {
    const t = scanLineTokens(line);
    return t.deletes.some((d) => isDeletePast(d, oct20)) || t.bare.some((b) => isBareDue(b, oct20));
  };
  it.each([
    ['- Webhook retries since 2026-10-14. Lift when 0 retries for 48 h (check 10-20).', true],
    ['- Same item, re-verified 2026-10-20 ~10:45Z', false],
    ['- Old flag DELETE 10-18', true],
    ['- Check later (check 10-25)', false],
    ['- Followed up (check 10-19)', false],
  ])('%s → %s', (line, due) => {
    expect(dueOn(line)).toBe(due);
  });
});

describe('year boundary (DESIGN.md: nearest year)', () => {
  it('DELETE 12-30 checked on 01-02 is past', () => {
    expect(isDeletePast({ month: 12, day: 30 }, { year: 2027, month: 1, day: 2 })).toBe(true);
    expect(nearestOccurrence({ month: 12, day: 30 }, { year: 2027, month: 1, day: 2 }).year).toBe(2026);
  });
  it('DELETE 01-03 written on 12-28 is not past', () => {
    expect(isDeletePast({ month: 1, day: 3 }, { year: 2026, month: 12, day: 28 })).toBe(false);
    expect(daysFromToday({ month: 1, day: 3 }, { year: 2026, month: 12, day: 28 })).toBe(6);
  });
  it('DELETE 02-29 in a common year is read as 02-28', () => {
    expect(isDeletePast({ month: 2, day: 29 }, { year: 2027, month: 2, day: 28 })).toBe(true);
    expect(isDeletePast({ month: 2, day: 29 }, { year: 2027, month: 2, day: 27 })).toBe(false);
  });
  it('(check 02-29) in a common year is due on 02-28, the day DELETE 02-29 is past, and never resolves to a day that does not exist', () => {
    expect(isBareDue({ month: 2, day: 29 }, { year: 2027, month: 2, day: 28 })).toBe(true);
    expect(isBareDue({ month: 2, day: 29 }, { year: 2027, month: 3, day: 1 })).toBe(false);
    expect(isBareDue({ month: 2, day: 29 }, { year: 2028, month: 2, day: 28 })).toBe(false);
    expect(isBareDue({ month: 2, day: 29 }, { year: 2028, month: 2, day: 29 })).toBe(true);
    expect(nearestOccurrence({ month: 2, day: 29 }, { year: 2027, month: 3, day: 1 })).toEqual({ year: 2027, month: 2, day: 28 });
  });
  it('12-31 and 01-01 across the year end', () => {
    expect(daysFromToday({ month: 1, day: 1 }, { year: 2026, month: 12, day: 31 })).toBe(1);
    expect(daysFromToday({ month: 12, day: 31 }, { year: 2027, month: 1, day: 1 })).toBe(-1);
    expect(isDeletePast({ month: 12, day: 31 }, { year: 2027, month: 1, day: 1 })).toBe(true);
    expect(isBareDue({ month: 1, day: 1 }, { year: 2026, month: 12, day: 31 })).toBe(false);
  });
});

describe('calendarDateIn (zones)', () => {
  it('the same instant is a different day in different zones', () => {
    const instant = new Date('2026-12-31T23:30:00Z');
    expect(calendarDateIn(instant, 'UTC')).toEqual({ year: 2026, month: 12, day: 31 });
    expect(calendarDateIn(instant, 'Europe/Berlin')).toEqual({ year: 2027, month: 1, day: 1 });
    expect(calendarDateIn(instant, 'America/Los_Angeles')).toEqual({ year: 2026, month: 12, day: 31 });
  });
});

const validDay = fc
  .record({ year: fc.integer({ min: 1990, max: 2100 }), month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 1, max: 31 }) })
  .filter(({ year, month, day }) => new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day);
function isRealDay({ year, month, day }: { year: number; month: number; day: number }): boolean {
  return new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day;
}
const monthDay = fc
  .record({ month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 1, max: 31 }) })
  .filter(({ month, day }) => isValidMonthDay(month, day));

describe('properties', () => {
  it('the nearest occurrence is never more than half a year away', () => {
    fc.assert(fc.property(monthDay, validDay, (md, today) => Math.abs(daysFromToday(md, today)) <= 184));
  });
  it('a DELETE date is past on its own day and for the ~half year after it, and not in the days before', () => {
    fc.assert(
      fc.property(validDay, fc.integer({ min: 0, max: 150 }), fc.integer({ min: 1, max: 150 }), (d, after, before) => {
        const base = Date.UTC(d.year, d.month - 1, d.day);
        const md = { month: d.month, day: d.day };
        if (md.month === 2 && md.day === 29) return true;
        const at = (offset: number) => {
          const x = new Date(base + offset * 86_400_000);
          return { year: x.getUTCFullYear(), month: x.getUTCMonth() + 1, day: x.getUTCDate() };
        };
        return isDeletePast(md, at(after)) && !isDeletePast(md, at(-before));
      }),
    );
  });
  it('a bare date is due exactly on its day, across year boundaries', () => {
    fc.assert(fc.property(monthDay, validDay, (md, today) => isBareDue(md, today) === (daysFromToday(md, today) === 0)));
    // 02-29 against the last days of February in common and leap years, which random days rarely hit.
    const february = fc.record({ year: fc.integer({ min: 1990, max: 2100 }), month: fc.constant(2), day: fc.constantFrom(27, 28, 29) });
    const leapDay = { month: 2, day: 29 };
    fc.assert(fc.property(february.filter(isRealDay), (today) => isBareDue(leapDay, today) === (daysFromToday(leapDay, today) === 0)));
  });
  it('the zone day is always within one day of the UTC day', () => {
    const zones = ['UTC', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Asia/Kolkata', 'America/St_Johns', 'Europe/Berlin'];
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2090-01-01'), noInvalidDate: true }),
        fc.constantFrom(...zones),
        (instant, zone) => {
          const z = calendarDateIn(instant, zone);
          const u = calendarDateIn(instant, 'UTC');
          const diff = (Date.UTC(z.year, z.month - 1, z.day) - Date.UTC(u.year, u.month - 1, u.day)) / 86_400_000;
          return Math.abs(diff) <= 1;
        },
      ),
    );
  });
  it('scanning never throws and every bare token is a valid day', () => {
    fc.assert(fc.property(fc.string({ maxLength: 80 }), (line) => scanLineTokens(line).bare.every((b) => isValidMonthDay(b.month, b.day))));
  });
  it('a formatted bare token embedded in prose is always found', () => {
    fc.assert(
      fc.property(monthDay, fc.constantFrom('check ', '(', 'due: ', ''), fc.constantFrom(')', '.', ' later', ''), (md, pre, post) => {
        const token = `${String(md.month).padStart(2, '0')}-${String(md.day).padStart(2, '0')}`;
        return scanLineTokens(`- item ${pre}${token}${post}`).bare.some((b) => b.month === md.month && b.day === md.day);
      }),
    );
  });
});
