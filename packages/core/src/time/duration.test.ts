import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration, parseDurationStrict, type DurationUnit } from './duration.js';

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

describe('parseDurationStrict', () => {
  it.each([
    ['30m', undefined, 30 * MIN],
    ['90s', undefined, 90_000],
    ['1h30m', undefined, 90 * MIN],
    ['2 hours', undefined, 2 * HOUR],
    ['1 hour 30 minutes', undefined, 90 * MIN],
    ['1 hour and 30 minutes', undefined, 90 * MIN],
    ['  45 min  ', undefined, 45 * MIN],
    ['600', 's', 600_000],
    ['1.5', 'h', 90 * MIN],
    ['24', 'h', 24 * HOUR],
  ] as const)('%s → %d ms', (text, unit, ms) => {
    expect(parseDurationStrict(text, unit)._unsafeUnwrap()).toBe(ms);
  });

  it.each([
    ['30 minutes of nothing', 'm', 'extra-text', 'has "of nothing" after the duration.'],
    ['2 hours ago', 'h', 'extra-text', 'has "ago" after the duration.'],
    ['about 30m', undefined, 'extra-text', 'has "about" before the duration.'],
    ['30m and', undefined, 'extra-text', 'has "and" after the duration.'],
    ['30m,', undefined, 'extra-text', 'has "," after the duration.'],
    ['4 with no commits', 'h', 'extra-text', 'has "with no commits" after the duration.'],
    ['30m 600', 's', 'extra-text', 'has "600" after the duration.'],
    ['30mfoo', 'm', 'extra-text', 'has "mfoo" after the duration.'],
    ['soon', undefined, 'no-duration', 'has no duration (a number with a unit).'],
    ['600', undefined, 'no-unit', 'has a number but no unit.'],
    ['10 minuts', undefined, 'unknown-unit', 'has an unknown unit "minuts".'],
    ['0m', undefined, 'not-positive', 'must be longer than zero.'],
    ['0 of nothing', 'm', 'extra-text', 'has "of nothing" after the duration.'],
    ['in 10 minuts', undefined, 'extra-text', 'is not only a duration.'],
  ] as const)('%s is rejected (%s)', (text, unit, reason, message) => {
    const error = parseDurationStrict(text, unit)._unsafeUnwrapErr();
    expect(error.reason).toBe(reason);
    expect(error.message).toBe(message);
  });

  const units = fc.constantFrom<DurationUnit | undefined>(undefined, 'ms', 's', 'm', 'h', 'd');
  // Texts near the grammar (numbers, units, joiners, prose words), which random strings rarely are.
  const durationish = fc
    .array(
      fc.oneof(
        fc.integer({ min: 0, max: 100_000 }).map(String),
        fc.constantFrom(
          '1.5',
          '0.25',
          '-5',
          'm',
          'h',
          's',
          'ms',
          'd',
          'min',
          'hours',
          'minutes',
          'and',
          ',',
          '+',
          'ago',
          'of',
          'nothing',
          'P0',
          'minuts',
        ),
      ),
      { maxLength: 6 },
    )
    .chain((parts) => fc.constantFrom(parts.join(' '), parts.join('')));

  it('accepts only what the lenient parser accepts, with the same value', () => {
    fc.assert(
      fc.property(fc.oneof(durationish, fc.string({ unit: 'binary', maxLength: 60 })), units, (text, unit) => {
        const strict = parseDurationStrict(text, unit);
        if (strict.isOk()) expect(parseDuration(text, unit)._unsafeUnwrap()).toBe(strict.value);
        else expect(strict.error.message.length).toBeGreaterThan(0);
      }),
      { numRuns: 2_000 },
    );
  });

  it('reads back what formatDuration writes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 * 365 * 24 * HOUR }), units, (ms, unit) => {
        expect(parseDurationStrict(formatDuration(ms), unit)._unsafeUnwrap()).toBe(ms);
      }),
    );
  });

  it('rejects a formatted duration with prose after it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 * 365 * 24 * HOUR }),
        fc.constantFrom('ago', 'of nothing', 'with no commits'),
        (ms, prose) => {
          expect(parseDuration(`${formatDuration(ms)} ${prose}`)._unsafeUnwrap()).toBe(ms);
          expect(parseDurationStrict(`${formatDuration(ms)} ${prose}`)._unsafeUnwrapErr().reason).toBe('extra-text');
        },
      ),
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
