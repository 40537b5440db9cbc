import { type DurationUnit, formatDuration, parseDurationStrict } from '@heartbeat-kit/core/host';
import { err, ok, type Result } from 'neverthrow';

/** What a duration flag gave: absent, milliseconds, or a one-line error naming the flag and the fix. */
export type DurationFlag = Result<number | undefined, string>;

/** How one flag reads its duration. */
export interface DurationFlagRule {
  /** What a bare number means, as the flag's help documents it (`--interval 600` is seconds). */
  readonly unit: DurationUnit;
  /** A valid value for the fix, e.g. `30m`. */
  readonly example: string;
  /** Shortest accepted duration in ms (default 1). */
  readonly minMs?: number;
  /** Longest accepted duration in ms. */
  readonly maxMs?: number;
  /** Whether `0` (in any unit) is accepted, e.g. `--jitter 0` for no jitter. */
  readonly allowZero?: boolean;
}

const UNIT_NAMES: Readonly<Record<DurationUnit, string>> = { ms: 'milliseconds', s: 'seconds', m: 'minutes', h: 'hours', d: 'days' };

/**
 * The one reader of every flag that takes a duration: the whole value is the duration (`30m`, `90s`,
 * `1h30m`, `2 hours`; a bare number is in `rule.unit`), so `--max-age "30 minutes of nothing"` is a
 * usage error instead of 30 minutes.
 */
export function parseDurationFlag(flag: string, value: string | undefined, rule: DurationFlagRule): DurationFlag {
  if (value === undefined) return ok(undefined);
  const fix = `Fix: give only a duration, e.g. ${flag} ${rule.example} (a bare number is ${UNIT_NAMES[rule.unit]}).`;
  const parsed = parseDurationStrict(value, rule.unit);
  if (parsed.isErr()) {
    if (parsed.error.reason === 'not-positive' && rule.allowZero === true) return ok(0);
    return err(`${flag} ${JSON.stringify(value)} ${parsed.error.message} ${fix}`);
  }
  const ms = parsed.value;
  const minMs = rule.minMs ?? 1;
  if (ms < minMs) return err(`${flag} ${JSON.stringify(value)} is shorter than ${formatDuration(minMs)}. ${fix}`);
  if (rule.maxMs !== undefined && ms > rule.maxMs)
    return err(`${flag} ${JSON.stringify(value)} is longer than ${formatDuration(rule.maxMs)}. ${fix}`);
  return ok(ms);
}
