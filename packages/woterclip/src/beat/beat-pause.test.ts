import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideBeatPause } from './beat-pause.js';

const T0 = Date.parse('2026-02-19T10:00:00Z');

describe('decideBeatPause', () => {
  it('an ended pause always runs; inside it a beat skips, or works triage-only with --except-critical', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 86_400_000 }),
        fc.integer({ min: 0, max: 2 * 86_400_000 }),
        fc.boolean(),
        (length, offset, critical) => {
          const pause = {
            v: 1 as const,
            note: 'release freeze',
            since: new Date(T0).toISOString(),
            until: new Date(T0 + length).toISOString(),
            ...(critical ? { exceptCritical: true as const } : {}),
          };
          const decision = decideBeatPause(pause, T0 + offset);
          if (offset >= length) expect(decision).toEqual({ kind: 'run' });
          else expect(decision.kind).toBe(critical ? 'triage-only' : 'skip');
        },
      ),
    );
  });
  it('no pause: the beat runs', () => {
    expect(decideBeatPause(undefined, T0)).toEqual({ kind: 'run' });
  });
});
