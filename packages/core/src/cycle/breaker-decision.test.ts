import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  breakerHoldsBack,
  isBreakerTripped,
  stepBreaker,
  type BreakerObservation,
  type BreakerSettings,
  type BreakerStreak,
} from './breaker-decision.js';

const settingsArb: fc.Arbitrary<BreakerSettings> = fc.record({
  after: fc.integer({ min: 0, max: 5 }),
  backoffCap: fc.integer({ min: 1, max: 10 }),
});

/** What the watched thing does when it is tried (a held-back cycle is not tried: it is a `hold`). */
type Try = 'fail-a' | 'fail-b' | 'fail-a-no-backoff' | 'clean' | 'other' | 'nothing-to-try';
const tryArb = fc.constantFrom<Try>('fail-a', 'fail-a', 'fail-a', 'fail-b', 'fail-a-no-backoff', 'clean', 'other', 'nothing-to-try');

function observe(t: Try): BreakerObservation {
  switch (t) {
    case 'fail-a':
      return { kind: 'fail', code: 'A', backsOff: true };
    case 'fail-a-no-backoff':
      return { kind: 'fail', code: 'A', backsOff: false };
    case 'fail-b':
      return { kind: 'fail', code: 'B', backsOff: true };
    case 'clean':
      return { kind: 'clean' };
    case 'other':
      return { kind: 'other' };
    case 'nothing-to-try':
      return { kind: 'hold' };
  }
}

describe('stepBreaker properties (shared by the scanner and the sink breaker)', () => {
  it('trips once per streak after N same failures, holds back at most cap - 1 cycles in a row, never grows the back-off past the cap, and says one end per tripped streak', () => {
    fc.assert(
      fc.property(settingsArb, fc.array(tryArb, { maxLength: 80 }), (settings, tries) => {
        let streak: BreakerStreak | undefined;
        // The model: same-code failures in a row, trips and ends seen for the current streak.
        let code: string | undefined;
        let inARow = 0;
        let trips = 0;
        let heldInARow = 0;
        let backsOff = true;
        tries.forEach((t, index) => {
          const cycle = index + 1;
          if (breakerHoldsBack(streak, cycle, settings)) {
            // Held back: only after N failures in a row, and only for something that backs off.
            expect(settings.after).toBeGreaterThan(0);
            expect(inARow).toBeGreaterThanOrEqual(settings.after);
            expect(backsOff).toBe(true);
            heldInARow++;
            expect(heldInARow).toBeLessThanOrEqual(settings.backoffCap - 1);
            const step = stepBreaker(streak, { kind: 'hold' }, { cycle, nowMs: cycle }, settings);
            expect(step.streak).toBe(streak);
            expect(step.trippedNow).toBe(false);
            expect(step.ended).toBeUndefined();
            return;
          }
          heldInARow = 0;
          const observation = observe(t);
          const wasTripped = settings.after > 0 && inARow >= settings.after;
          const step = stepBreaker(streak, observation, { cycle, nowMs: cycle * 1000 }, settings);
          if (settings.after === 0) {
            // Off: nothing is kept, nothing trips, nothing is held back.
            expect(step).toEqual({ streak: undefined, trippedNow: false, continued: false });
            return;
          }
          if (observation.kind === 'hold') {
            expect(step.streak).toBe(streak);
            expect(step.trippedNow).toBe(false);
          } else if (observation.kind === 'fail') {
            if (observation.code === code) inARow++;
            else {
              expect(step.ended?.kind).toBe(wasTripped ? 'changed' : undefined);
              code = observation.code;
              inARow = 1;
              trips = 0;
            }
            backsOff = observation.backsOff;
            expect(step.streak?.failures).toBe(inARow);
            expect(step.streak?.code).toBe(code);
            expect(step.trippedNow).toBe(inARow === settings.after);
            if (step.trippedNow) trips++;
            expect(trips).toBeLessThanOrEqual(1);
            expect(isBreakerTripped(step.streak, settings)).toBe(inARow >= settings.after);
            expect(step.streak!.backoff).toBeLessThanOrEqual(settings.backoffCap);
            expect(step.streak!.backoff).toBe(
              inARow >= settings.after ? Math.min(2 ** (inARow - settings.after + 1), settings.backoffCap) : 0,
            );
            expect(step.streak!.nextRunCycle).toBeGreaterThan(cycle);
            if (inARow > 1) expect(step.streak!.sinceMs).toBe(streak!.sinceMs);
          } else {
            // A clean try (or the end of what it watched) ends the streak; a tripped one says so once.
            expect(step.streak).toBeUndefined();
            expect(step.ended?.kind).toBe(wasTripped ? (observation.kind === 'clean' ? 'recovered' : 'changed') : undefined);
            code = undefined;
            inARow = 0;
            trips = 0;
          }
          streak = step.streak;
        });
      }),
      { numRuns: 500 },
    );
  });

  it('whatever a stored (maybe damaged) streak says, it never holds back more than cap - 1 cycles in a row', () => {
    const streakArb = fc.record({
      code: fc.constant('A'),
      sinceMs: fc.nat(),
      failures: fc.integer({ min: 1, max: 1000 }),
      backoff: fc.integer({ min: 0, max: 100 }),
      nextRunCycle: fc.nat({ max: 10_000 }),
    });
    fc.assert(
      fc.property(streakArb, settingsArb, fc.nat({ max: 10_000 }), (streak, settings, start) => {
        let held = 0;
        for (let cycle = start; cycle < start + settings.backoffCap + 1 && breakerHoldsBack(streak, cycle, settings); cycle++) held++;
        expect(held).toBeLessThanOrEqual(Math.max(0, settings.backoffCap - 1));
        if (held > 0) expect(isBreakerTripped(streak, settings)).toBe(true);
      }),
    );
  });

  it('backs off every 2nd, 4th, 8th cycle after three same failures with the default settings', () => {
    const settings = { after: 3, backoffCap: 8 };
    let streak: BreakerStreak | undefined;
    const tried: number[] = [];
    for (let cycle = 1; cycle <= 30; cycle++) {
      if (breakerHoldsBack(streak, cycle, settings)) continue;
      tried.push(cycle);
      streak = stepBreaker(streak, { kind: 'fail', code: 'HTTP 503', backsOff: true }, { cycle, nowMs: 0 }, settings).streak;
    }
    expect(tried).toEqual([1, 2, 3, 5, 9, 17, 25]);
  });
});
