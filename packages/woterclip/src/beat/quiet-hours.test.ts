import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isQuietTime } from './quiet-hours.js';
import { decideNextStep } from './next-step.js';

const la = { enabled: true, timezone: 'America/Los_Angeles', start: '22:00', end: '07:00' };

describe('isQuietTime', () => {
  it('crosses midnight in the configured zone, start inclusive, end exclusive', () => {
    expect(isQuietTime(new Date('2026-07-22T05:00:00Z'), la)).toBe(true); // 22:00 PDT
    expect(isQuietTime(new Date('2026-07-22T04:59:00Z'), la)).toBe(false); // 21:59
    expect(isQuietTime(new Date('2026-07-22T08:30:00Z'), la)).toBe(true); // 01:30
    expect(isQuietTime(new Date('2026-07-22T14:00:00Z'), la)).toBe(false); // 07:00
    // Winter (PST, UTC-8): the same wall-clock window.
    expect(isQuietTime(new Date('2026-01-15T06:00:00Z'), la)).toBe(true); // 22:00 PST
    expect(isQuietTime(new Date('2026-01-15T05:59:00Z'), la)).toBe(false);
  });

  it('disabled or empty windows are never quiet', () => {
    expect(isQuietTime(new Date('2026-07-22T08:30:00Z'), { ...la, enabled: false })).toBe(false);
    expect(isQuietTime(new Date('2026-07-22T08:30:00Z'), { ...la, start: '03:00', end: '03:00' })).toBe(false);
  });

  it('property: an overnight window is exactly the complement of the day window it reverses', () => {
    const hhmm = fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
    fc.assert(
      fc.property(hhmm, hhmm, fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }), (a, b, now) => {
        fc.pre(a !== b);
        const forward = isQuietTime(now, { enabled: true, timezone: 'Europe/Berlin', start: a, end: b });
        const reverse = isQuietTime(now, { enabled: true, timezone: 'Europe/Berlin', start: b, end: a });
        expect(forward).toBe(!reverse);
      }),
    );
  });
});

describe('decideNextStep', () => {
  it('property: total; ceiling beats budget; nothing left means complete', () => {
    fc.assert(
      fc.property(fc.nat(5000), fc.integer({ min: 1, max: 3000 }), fc.nat(10), fc.integer({ min: 1, max: 10 }), fc.nat(10), (elapsedSec, ceilingSec, worked, maxIssues, remaining) => {
        const next = decideNextStep({ elapsedSec, ceilingSec, worked, maxIssues, remaining });
        if (remaining === 0) expect(next).toEqual({ kind: 'stop', reason: 'complete' });
        else if (elapsedSec >= ceilingSec) expect(next).toEqual({ kind: 'stop', reason: 'time_ceiling' });
        else if (worked >= maxIssues) expect(next).toEqual({ kind: 'stop', reason: 'issue_budget' });
        else expect(next).toEqual({ kind: 'continue' });
      }),
    );
  });
});
