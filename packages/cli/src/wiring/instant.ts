import { type Clock, parseIsoInstant } from '@heartbeat-kit/core';
import { systemClock } from '@heartbeat-kit/core/node';
import { err, ok, type Result } from 'neverthrow';
import type { CliIo } from '../io.js';

/** What an instant flag gave: absent, a date, or a one-line error naming the fix. */
export type InstantFlag = Result<Date | undefined, string>;

/**
 * The one parser of every command's `--now` (and other instant flags): strict ISO-8601 with a
 * zone, so `2026-02-30T10:00:00Z` is an error instead of March 2.
 */
export function parseInstantFlag(flag: string, value: string | undefined): InstantFlag {
  if (value === undefined) return ok(undefined);
  const parsed = parseIsoInstant(value);
  if (parsed.isOk()) return ok(parsed.value);
  return err(
    `${flag} ${JSON.stringify(value)} ${parsed.error.message} Fix: use an ISO-8601 instant with a zone, e.g. ${flag} 2026-02-19T14:50:00Z.`,
  );
}

/**
 * The wall clock a command reads: the `--now` instant when given (fixed: a rehearsal or a look
 * back), else the io's clock (in-process tests run real cycles at a chosen instant), else the system's.
 */
export function commandClock(io: Pick<CliIo, 'clock'>, now: Date | undefined): Clock {
  if (now !== undefined) return { now: () => now };
  return io.clock ?? systemClock;
}
