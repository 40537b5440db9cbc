import type { Clock, Sleep } from '../ports/clock.js';

/** A clock tests move by hand; its `sleep` resolves only when the clock is moved past the deadline. */
export interface FakeClock extends Clock, Sleep {
  /** Moves time forward by `ms` and wakes every sleeper whose deadline has come. */
  readonly advance: (ms: number) => void;
  /** Jumps to `date` (forward or back) and wakes every sleeper whose deadline has come. */
  readonly set: (date: Date | number) => void;
  /** How many sleeps are waiting: lets a test know a loop has reached its wait. */
  readonly pendingSleeps: () => number;
  /** The earliest deadline among waiting sleeps, epoch ms. */
  readonly nextWakeAtMs: () => number | undefined;
}

interface Sleeper {
  readonly deadlineMs: number;
  readonly wake: () => void;
}

/**
 * A {@link FakeClock} starting at `start`. `sleep(ms)` with `ms <= 0` or an already aborted
 * signal resolves at once; an abort wakes a sleeper without moving time. Sleeps never reject.
 *
 * @example
 * ```ts
 * import { createFakeClock } from '@heartbeat-kit/core/testing';
 *
 * const clock = createFakeClock(new Date('2026-02-19T10:00:00Z'));
 * const woke = clock.sleep(600_000); // resolves only when the clock is moved past its deadline
 * clock.advance(600_000);
 * await woke;
 * console.log(clock.now().toISOString()); // 2026-02-19T10:10:00.000Z
 * ```
 */
export function createFakeClock(start: Date | number = 0): FakeClock {
  let nowMs = typeof start === 'number' ? start : start.getTime();
  let sleepers: Sleeper[] = [];

  const wakeDue = (): void => {
    const due = sleepers.filter((sleeper) => sleeper.deadlineMs <= nowMs);
    sleepers = sleepers.filter((sleeper) => sleeper.deadlineMs > nowMs);
    for (const sleeper of due.sort((a, b) => a.deadlineMs - b.deadlineMs)) sleeper.wake();
  };

  return {
    now: () => new Date(nowMs),
    advance: (ms) => {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advance(ms) needs a finite ms >= 0, got ${ms}`);
      nowMs += ms;
      wakeDue();
    },
    set: (date) => {
      nowMs = typeof date === 'number' ? date : date.getTime();
      wakeDue();
    },
    pendingSleeps: () => sleepers.length,
    nextWakeAtMs: () => (sleepers.length === 0 ? undefined : Math.min(...sleepers.map((sleeper) => sleeper.deadlineMs))),
    sleep: (ms, signal) =>
      new Promise<void>((resolve) => {
        if (signal?.aborted === true || !(ms > 0)) {
          resolve();
          return;
        }
        const sleeper: Sleeper = {
          deadlineMs: nowMs + ms,
          wake: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
        };
        const onAbort = (): void => {
          sleepers = sleepers.filter((other) => other !== sleeper);
          resolve();
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        sleepers.push(sleeper);
      }),
  };
}
