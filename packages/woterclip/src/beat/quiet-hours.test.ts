import { TZDate } from '@date-fns/tz';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isQuietTime, quietHoursPlanJudge } from './quiet-hours.js';
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
    const hhmm = fc
      .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
      .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
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
      fc.property(
        fc.nat(5000),
        fc.integer({ min: 1, max: 3000 }),
        fc.nat(10),
        fc.integer({ min: 1, max: 10 }),
        fc.nat(10),
        (elapsedSec, ceilingSec, worked, maxIssues, remaining) => {
          const next = decideNextStep({ elapsedSec, ceilingSec, worked, maxIssues, remaining });
          if (remaining === 0) expect(next).toEqual({ kind: 'stop', reason: 'complete' });
          else if (elapsedSec >= ceilingSec) expect(next).toEqual({ kind: 'stop', reason: 'time_ceiling' });
          else if (worked >= maxIssues) expect(next).toEqual({ kind: 'stop', reason: 'issue_budget' });
          else expect(next).toEqual({ kind: 'continue' });
        },
      ),
    );
  });
});

describe('isQuietTime with days and minute bounds (issue 15 item 7)', () => {
  const berlin = { enabled: true, timezone: 'Europe/Berlin', start: '00:00', end: '24:00', days: ['Sat', 'Sun'] as const };

  it('00:00-24:00 with days is a whole quiet day, judged by the local calendar day', () => {
    expect(isQuietTime(new Date('2026-07-24T21:59:00Z'), berlin)).toBe(false); // Friday 23:59 Berlin
    expect(isQuietTime(new Date('2026-07-24T22:00:00Z'), berlin)).toBe(true); // Saturday 00:00 Berlin
    expect(isQuietTime(new Date('2026-07-26T21:59:00Z'), berlin)).toBe(true); // Sunday 23:59
    expect(isQuietTime(new Date('2026-07-26T22:00:00Z'), berlin)).toBe(false); // Monday 00:00
  });

  it('an overnight window on listed days ends at the next local midnight when that day is not listed', () => {
    const fridayNights = { enabled: true, timezone: 'Europe/Berlin', start: '22:30', end: '07:15', days: ['Fri'] as const };
    expect(isQuietTime(new Date('2026-07-24T20:29:00Z'), fridayNights)).toBe(false); // Fri 22:29
    expect(isQuietTime(new Date('2026-07-24T20:30:00Z'), fridayNights)).toBe(true); // Fri 22:30
    expect(isQuietTime(new Date('2026-07-24T23:00:00Z'), fridayNights)).toBe(false); // Sat 01:00
    expect(isQuietTime(new Date('2026-07-24T05:14:00Z'), fridayNights)).toBe(true); // Fri 07:14
    expect(isQuietTime(new Date('2026-07-24T05:15:00Z'), fridayNights)).toBe(false); // Fri 07:15
  });

  it('property: with days, quiet exactly when the local day is listed and the window holds the time (DST zones)', () => {
    const names = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
    const hhmm = fc
      .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
      .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
    fc.assert(
      fc.property(
        hhmm,
        hhmm,
        fc.uniqueArray(fc.constantFrom(...names), { minLength: 1, maxLength: 7 }),
        fc.constantFrom('Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe'),
        fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }),
        (start, end, days, timezone, now) => {
          const everyDay = isQuietTime(now, { enabled: true, timezone, start, end });
          const local = new TZDate(now.getTime(), timezone);
          expect(isQuietTime(now, { enabled: true, timezone, start, end, days })).toBe(everyDay && days.includes(names[local.getDay()]!));
        },
      ),
    );
  });
});

describe("quietHoursPlanJudge: a beat's verdict per slot of `heartbeat-kit plan` (moved from core's plan, issue 32)", () => {
  it('runs outside the window, the behaviour inside it, with the window in the reason; nothing when quiet hours are off', () => {
    const judge = quietHoursPlanJudge({ enabled: true, timezone: 'UTC', start: '12:00', end: '00:00', behavior: 'triage-only' });
    expect(judge?.at(new Date('2026-02-21T11:30:00Z'))).toEqual({ verdict: 'runs', reason: 'outside WoterClip quiet hours' });
    expect(judge?.at(new Date('2026-02-21T12:30:00Z'))).toEqual({
      verdict: 'triage-only',
      reason: 'WoterClip quiet hours 12:00–00:00 UTC (triage-only)',
    });
    const weekdays = quietHoursPlanJudge({
      enabled: true,
      timezone: 'UTC',
      start: '22:00',
      end: '07:00',
      days: ['Mon', 'Tue'],
      behavior: 'skip',
    });
    expect(weekdays?.at(new Date('2026-02-23T23:00:00Z'))).toEqual({
      verdict: 'skip',
      reason: 'WoterClip quiet hours 22:00–07:00 Mon, Tue UTC (skip)',
    });
    expect(quietHoursPlanJudge({ ...la, enabled: false, behavior: 'skip' })).toBeUndefined();
  });
});
