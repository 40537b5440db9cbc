import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseIsoInstant } from './iso-instant.js';

describe('parseIsoInstant', () => {
  it.each([
    ['2026-02-19T14:50:00Z', '2026-02-19T14:50:00.000Z'],
    ['2026-02-19T14:50Z', '2026-02-19T14:50:00.000Z'],
    ['2026-02-19t14:50:00.123456z', '2026-02-19T14:50:00.123Z'],
    ['2026-02-19T15:50:00+01:00', '2026-02-19T14:50:00.000Z'],
    ['2026-02-19T09:20:00-0530', '2026-02-19T14:50:00.000Z'],
    ['2028-02-29T00:00:00Z', '2028-02-29T00:00:00.000Z'],
    ['2000-02-29T23:59:59Z', '2000-02-29T23:59:59.000Z'],
  ])('accepts %s', (text, iso) => {
    expect(parseIsoInstant(text)._unsafeUnwrap().toISOString()).toBe(iso);
  });

  it.each([
    ['2026-02-30T10:00:00Z', 'has no day 30 in month 02 of 2026.'],
    ['2026-02-29T10:00:00Z', 'has no day 29 in month 02 of 2026.'],
    ['1900-02-29T10:00:00Z', 'has no day 29 in month 02 of 1900.'],
    ['2026-04-31T10:00:00Z', 'has no day 31 in month 04 of 2026.'],
    ['2026-13-01T10:00:00Z', 'has no month 13.'],
    ['2026-00-10T10:00:00Z', 'has no month 00.'],
    ['2026-02-19T24:00:00Z', 'has no hour 24.'],
    ['2026-02-19T10:60:00Z', 'has no minute 60.'],
    ['2026-02-19T10:00:60Z', 'has no second 60.'],
    ['2026-02-19T10:00:00+25:00', 'has no zone offset +25:00.'],
    ['2026-02-19T10:00:00', 'has no time zone.'],
    ['2026-02-19', 'has no time zone.'],
    ['yesterday', 'is not an ISO-8601 date-time.'],
    ['1771512600000', 'is not an ISO-8601 date-time.'],
    ['Thu, 19 Feb 2026 14:50:00 GMT', 'is not an ISO-8601 date-time.'],
    [' 2026-02-19T10:00:00Z', 'is not an ISO-8601 date-time.'],
  ])('rejects %s', (text, message) => {
    expect(parseIsoInstant(text)._unsafeUnwrapErr()).toEqual({ kind: 'invalid-iso-instant', message });
  });

  it('round-trips every instant toISOString prints (years 0001–9999)', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }),
        (date) => {
          expect(parseIsoInstant(date.toISOString())._unsafeUnwrap().getTime()).toBe(date.getTime());
        },
      ),
    );
  });

  it('accepts a calendar date exactly when it exists (agrees with the UTC calendar)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1970, max: 2400 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }), (y, mo, d) => {
        const text = `${y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}T12:00:00Z`;
        const real = new Date(Date.UTC(y, mo - 1, d, 12));
        const exists = real.getUTCMonth() === mo - 1 && real.getUTCDate() === d;
        expect(parseIsoInstant(text).isOk()).toBe(exists);
      }),
    );
  });

  it('never throws, whatever the text', () => {
    fc.assert(fc.property(fc.string(), (text) => void parseIsoInstant(text)));
  });
});
