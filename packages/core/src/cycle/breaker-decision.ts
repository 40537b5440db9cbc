import type { HeartbeatConfig } from '../config/heartbeat-config-schema.js';

/** The HEARTBEAT.md settings of every circuit breaker (`Breaker after`, `Breaker back-off cap`). */
export type BreakerSettings = HeartbeatConfig['breaker'];

const MAX_FAILURES = 1_000_000_000;

/**
 * A run of cycles in which one thing (a scanner, the sink) failed the same way, as every circuit
 * breaker keeps it. It exists only while the failures go on.
 */
export interface BreakerStreak {
  /** How it fails: the same code on consecutive tries is "failing the same way". */
  readonly code: string;
  /** When the streak began (epoch ms). */
  readonly sinceMs: number;
  /** Consecutive tries that failed this way (cycles it was held back or had nothing to try do not count). */
  readonly failures: number;
  /** Cycles between tries while tripped (2, 4, … up to the cap); 0 while not tripped. */
  readonly backoff: number;
  /** The first cycle it is tried again while tripped. */
  readonly nextRunCycle: number;
}

/** What one cycle's try showed, as a breaker counts it. */
export type BreakerObservation =
  /** Not tried, or tried but cut off: says nothing, the streak stays as it was. */
  | { readonly kind: 'hold' }
  /** Failed with this code. `backsOff`: its tries may be held back while tripped. */
  | { readonly kind: 'fail'; readonly code: string; readonly backsOff: boolean }
  /** Worked. */
  | { readonly kind: 'clean' }
  /** Ended the streak without working (e.g. nothing set up any more). */
  | { readonly kind: 'other' };

/** What {@link stepBreaker} decided. */
export interface BreakerStep {
  /** The streak after this cycle; undefined once it ended (or never began). */
  readonly streak: BreakerStreak | undefined;
  /** It reached `after` failures in a row this cycle: the one moment to raise its advisory line. */
  readonly trippedNow: boolean;
  /** A tripped streak ended this cycle: `recovered` by a clean try, `changed` by anything else. */
  readonly ended?: { readonly kind: 'recovered' | 'changed'; readonly previous: BreakerStreak };
  /** The streak failing now continues the previous one (same code). */
  readonly continued: boolean;
}

/** Whether a streak has failed `after` tries in a row (never with `after` = 0, which is off). */
export function isBreakerTripped(streak: BreakerStreak | undefined, settings: BreakerSettings): boolean {
  return streak !== undefined && settings.after > 0 && streak.failures >= settings.after;
}

/**
 * Whether a tripped breaker holds this cycle's try back: not yet at its next try. A hold is never
 * longer than the cap, whatever a stored (maybe damaged) streak says.
 */
export function breakerHoldsBack(streak: BreakerStreak | undefined, cycle: number, settings: BreakerSettings): boolean {
  if (streak === undefined || !isBreakerTripped(streak, settings)) return false;
  return cycle < streak.nextRunCycle && streak.nextRunCycle - cycle < settings.backoffCap;
}

/**
 * One cycle of a circuit breaker: the same failure `after` times in a row trips it, and then
 * (when it `backsOff`) it is tried every 2nd, 4th, … cycle up to the cap; a clean try ends the
 * streak. Pure: the scanner breaker and the sink breaker both decide with it.
 */
export function stepBreaker(
  previous: BreakerStreak | undefined,
  observation: BreakerObservation,
  at: { readonly cycle: number; readonly nowMs: number },
  settings: BreakerSettings,
): BreakerStep {
  if (settings.after === 0) return { streak: undefined, trippedNow: false, continued: false };
  const wasTripped = isBreakerTripped(previous, settings);
  switch (observation.kind) {
    case 'hold':
      return { streak: previous, trippedNow: false, continued: previous !== undefined };
    case 'clean':
    case 'other':
      return {
        streak: undefined,
        trippedNow: false,
        continued: false,
        ...(previous !== undefined && wasTripped
          ? { ended: { kind: observation.kind === 'clean' ? 'recovered' : 'changed', previous } }
          : {}),
      };
    case 'fail': {
      const same = previous !== undefined && previous.code === observation.code;
      const failures = same ? Math.min(previous.failures + 1, MAX_FAILURES) : 1;
      const stillTripped = same && wasTripped;
      const tripped = failures >= settings.after;
      const backoff = !tripped
        ? 0
        : stillTripped
          ? Math.min(Math.max(previous.backoff, 1) * 2, settings.backoffCap)
          : Math.min(2, settings.backoffCap);
      const streak: BreakerStreak = {
        code: observation.code,
        sinceMs: same ? previous.sinceMs : Math.max(0, at.nowMs),
        failures,
        backoff,
        nextRunCycle: at.cycle + Math.max(1, observation.backsOff ? backoff : 1),
      };
      return {
        streak,
        trippedNow: tripped && !stillTripped,
        continued: same,
        ...(previous !== undefined && !same && wasTripped ? { ended: { kind: 'changed' as const, previous } } : {}),
      };
    }
  }
}
