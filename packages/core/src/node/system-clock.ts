import type { Clock, Sleep } from '../ports/clock.js';

// setTimeout fires at once for delays above 2^31-1 ms; clamp so a long wait stays a long wait.
const MAX_TIMER_MS = 2_147_483_647;

function timerDelay(ms: number): number {
  if (Number.isNaN(ms) || ms <= 0) return 0;
  return Math.min(ms, MAX_TIMER_MS);
}

/** The real wall clock. */
export const systemClock: Clock = { now: () => new Date() };

/**
 * Real waiting with timers. Resolves after `ms`, or at once when `signal` aborts, and never
 * rejects, so a shutdown is a normal return of the loop rather than an exception.
 */
export const nodeSleep: Sleep = {
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted === true) {
        resolve();
        return;
      }
      const onAbort = (): void => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, timerDelay(ms));
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};
