import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeRegExp, mapConcurrent } from './scanner-support.js';

describe('mapConcurrent', () => {
  it('keeps input order and never exceeds the limit', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 30 }),
        fc.integer({ min: 1, max: 6 }),
        async (delays, limit) => {
          let running = 0;
          let peak = 0;
          const out = await mapConcurrent(delays, limit, async (d) => {
            running++;
            peak = Math.max(peak, running);
            for (let i = 0; i < d; i++) await new Promise((r) => setImmediate(r));
            running--;
            return d * 2;
          });
          expect(out).toEqual(delays.map((d) => d * 2));
          expect(peak).toBeLessThanOrEqual(limit);
        },
      ),
      { numRuns: 50 },
    );
  });
});

describe('escapeRegExp', () => {
  it('makes any text match only itself', () => {
    expect(new RegExp(`^${escapeRegExp('bd-a3f8.1')}$`).test('bd-a3f8x1')).toBe(false);
    fc.assert(
      fc.property(fc.string(), fc.string(), (text, other) => {
        const pattern = new RegExp(`^${escapeRegExp(text)}$`, 'u');
        expect(pattern.test(text)).toBe(true);
        if (other !== text) expect(pattern.test(other)).toBe(false);
      }),
    );
  });
});
