import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from './duration.js';

const MIN = 60_000;
const HOUR = 60 * MIN;

describe('parseDuration', () => {
  it.each([
    ['1 hour', undefined, HOUR],
    ['4 hours with no commits', undefined, 4 * HOUR],
    ['30 minutes with no tool calls', undefined, 30 * MIN],
    ['90 min', undefined, 90 * MIN],
    ['4h', undefined, 4 * HOUR],
    ['30m', undefined, 30 * MIN],
    ['2h30m', undefined, 150 * MIN],
    ['2h 30m', undefined, 150 * MIN],
    ['1 hour and 30 minutes', undefined, 90 * MIN],
    ['600s', undefined, 600_000],
    ['600', 's', 600_000],
    ['10 minutes', 's', 10 * MIN],
    ['uncommitted changes older than 1 hour', undefined, HOUR],
    ['1.5 hours', undefined, 90 * MIN],
    ['2 days', undefined, 48 * HOUR],
    ['250ms', undefined, 250],
    ['4 with no commits', 'h', 4 * HOUR],
    ['P0 tasks older than 2 HOURS', undefined, 2 * HOUR],
  ] as const)('%s → %d ms', (text, unit, ms) => {
    expect(parseDuration(text, unit)._unsafeUnwrap()).toBe(ms);
  });

  it.each([
    ['', 'no-duration'],
    ['soon', 'no-duration'],
    ['-5 minutes', 'no-duration'],
    ['0 minutes', 'not-positive'],
    ['600', 'no-unit'],
    ['10 minuts', 'unknown-unit'],
    ['99999999999999 days', 'too-large'],
  ] as const)('%s is rejected (%s)', (text, reason) => {
    expect(parseDuration(text)._unsafeUnwrapErr().reason).toBe(reason);
  });

  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), fc.constantFrom(undefined, 's' as const, 'h' as const), (text, unit) => {
        const result = parseDuration(text, unit);
        if (result.isOk()) expect(Number.isSafeInteger(result.value) && result.value > 0).toBe(true);
        else expect(result.error.message.length).toBeGreaterThan(0);
      }),
    );
  });

  it('reads back what formatDuration writes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 * 365 * 24 * HOUR }), (ms) => {
        expect(parseDuration(formatDuration(ms))._unsafeUnwrap()).toBe(ms);
      }),
    );
  });
});

describe('formatDuration', () => {
  it('uses the largest exact unit, singular for one', () => {
    expect(formatDuration(HOUR)).toBe('1 hour');
    expect(formatDuration(90 * MIN)).toBe('90 minutes');
    expect(formatDuration(45_000)).toBe('45 seconds');
    expect(formatDuration(1_500)).toBe('1500 milliseconds');
    expect(formatDuration(24 * HOUR)).toBe('1 day');
  });
});
