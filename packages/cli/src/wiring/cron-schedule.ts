import type { Cron } from 'croner';
import { err, ok, type Result } from 'neverthrow';

/** A parsed cron expression read in a zone: its fire times around an instant. */
export interface CronSchedule {
  readonly expression: string;
  /** The first fire time strictly after `ms`. */
  readonly nextAfter: (ms: number) => number | undefined;
  /** The newest fire time at or before `ms`. */
  readonly atOrBefore: (ms: number) => number | undefined;
}

/**
 * Parses `--cron EXPR` (croner: five to seven fields) or says what is wrong and the fix. croner is
 * imported here, on first use, so a cycle without --cron does not load it.
 */
export async function parseCronFlag(expression: string, timeZone: string): Promise<Result<CronSchedule, string>> {
  const { Cron } = await import('croner');
  let cron: Cron;
  try {
    cron = new Cron(expression, { paused: true, timezone: timeZone });
  } catch (error) {
    return err(
      `--cron "${expression}" is not a cron expression: ${(error as Error).message}. Fix: five fields such as "*/10 8-21 * * 1-5".`,
    );
  }
  return ok({
    expression,
    nextAfter: (ms) => cron.nextRun(new Date(ms))?.getTime(),
    // croner's previous runs are strictly before the reference (whole seconds): ask from just after.
    atOrBefore: (ms) => {
      const previous = cron.previousRuns(1, new Date(ms + 1000))[0]?.getTime();
      return previous !== undefined && previous <= ms ? previous : cron.previousRuns(1, new Date(ms))[0]?.getTime();
    },
  });
}
