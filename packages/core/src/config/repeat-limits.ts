import { z } from 'zod';

/** The longest repeat interval HEARTBEAT.md may set (30 days). */
export const MAX_REPEAT_INTERVAL_MS = 30 * 86_400_000;

/** At most this many intervals in one repeat schedule. */
export const MAX_REPEAT_STEPS = 10;

// Intervals never get shorter: a long-standing finding decays, it never speeds up.
/** A repeat schedule: intervals in milliseconds, never shorter than the one before. */
export const repeatSchedule = z
  .array(z.number().int().positive().max(MAX_REPEAT_INTERVAL_MS))
  .min(1)
  .max(MAX_REPEAT_STEPS)
  .refine((intervals) => intervals.every((ms, i) => i === 0 || ms >= (intervals[i - 1] ?? 0)), 'intervals must not get shorter')
  .describe('Intervals in milliseconds after the first report, second report, …; the last one repeats. Never shorter than the one before.');
