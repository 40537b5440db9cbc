import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pythonRound } from './python-round.js';

/**
 * An independent oracle: `toFixed(100)` prints the exact binary value (every double in the tested
 * range has fewer than 100 fractional digits), then the decimal string is rounded half-to-even.
 */
function oracleRound1(x: number): number {
  const negative = x < 0;
  const text = Math.abs(x).toFixed(100);
  const [whole = '0', fraction = ''] = text.split('.');
  const kept = `${whole}${fraction.slice(0, 1)}`;
  const rest = fraction.slice(1);
  let scaled = BigInt(kept);
  const firstRest = rest[0] ?? '0';
  const tail = rest.slice(1);
  const aboveHalf = firstRest > '5' || (firstRest === '5' && /[1-9]/.test(tail));
  const tie = firstRest === '5' && !/[1-9]/.test(tail);
  if (aboveHalf || (tie && scaled % 2n === 1n)) scaled += 1n;
  const value = Number(scaled) / 10;
  return negative ? -value : value;
}

describe('pythonRound', () => {
  it('rounds exact binary ties half to even, unlike Math.round', () => {
    expect(pythonRound(6.25, 1)).toBe(6.2);
    expect(Math.round(6.25 * 10) / 10).toBe(6.3);
    expect(pythonRound(0.25, 1)).toBe(0.2);
    expect(pythonRound(0.35, 1)).toBe(0.3); // 0.35 is stored as 0.34999…
    expect(pythonRound(12.5, 0)).toBe(12);
    expect(pythonRound(13.5, 0)).toBe(14);
    expect(pythonRound(-0.25, 1)).toBe(-0.2);
  });

  it('rounds the stored value, not the decimal literal', () => {
    expect(pythonRound(0.15, 1)).toBe(0.1);
    expect(pythonRound(2.675, 2)).toBe(2.67);
    expect(pythonRound(0.05, 1)).toBe(0.1);
  });

  it('keeps integers, zero, tiny and non-finite values', () => {
    expect(pythonRound(100, 1)).toBe(100);
    expect(pythonRound(1e-300, 1)).toBe(0);
    expect(pythonRound(5e-324, 1)).toBe(0);
    expect(pythonRound(123456789.25, 1)).toBe(123456789.2);
    expect(pythonRound(Number.NaN, 1)).toBeNaN();
    expect(pythonRound(Number.POSITIVE_INFINITY, 1)).toBe(Number.POSITIVE_INFINITY);
  });

  // [validated, total, round(validated / total * 100, 1)] printed by CPython 3.
  const fromPython: readonly (readonly [number, number, number])[] = [
    [1, 16, 6.2],
    [37, 80, 46.2],
    [2, 160, 1.2],
    [156, 192, 81.2],
    [219, 240, 91.2],
    [116, 320, 36.2],
    [216, 384, 56.2],
    [101, 400, 25.2],
    [217, 400, 54.2],
    [329, 400, 82.2],
    [351, 432, 81.2],
    [438, 480, 91.2],
    [203, 560, 36.2],
    [351, 624, 56.2],
    [210, 672, 31.2],
    [585, 720, 81.2],
    [42, 800, 5.2],
    [274, 800, 34.2],
    [514, 800, 64.2],
    [714, 800, 89.2],
    [486, 864, 56.2],
    [285, 912, 31.2],
    [780, 960, 81.2],
    [1, 3, 33.3],
    [2, 3, 66.7],
    [1, 7, 14.3],
    [0, 5, 0],
    [5, 5, 100],
  ];
  it.each(fromPython)('round(%i / %i * 100, 1) matches CPython', (v, t, expected) => {
    expect(pythonRound((v / t) * 100, 1)).toBe(expected);
  });

  it('agrees with the exact-decimal oracle on every promise percentage', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5000 }), fc.nat(), (total, seed) => {
        const validated = seed % (total + 1);
        const x = (validated / total) * 100;
        expect(pythonRound(x, 1)).toBe(oracleRound1(x));
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with the oracle on arbitrary doubles in a wide range', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), (x) => {
        fc.pre(Math.abs(x) > 1e-6 || x === 0);
        expect(Object.is(pythonRound(x, 1), oracleRound1(x)) || pythonRound(x, 1) === oracleRound1(x)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
