import { err, ok, type Result } from 'neverthrow';
import type { FlagValues } from '../../cli-kernel/index.js';
import { parseMetricsFlags } from '../../metrics/metrics-export.js';
import { checkPingFlags } from '../../pings/ping-wiring.js';
import { parseInstantFlag } from '../../wiring/instant.js';
import type { CYCLE_SPEC } from './cycle-help.js';

/** The parsed flags of `heartbeat-kit cycle`. */
export type CycleFlags = FlagValues<typeof CYCLE_SPEC.flags>;

/** What the flags say before anything is read: the instants, and whether this is a rehearsal. */
export interface CheckedCycleFlags {
  /** `--now`: the instant a rehearsal runs at (undefined: a real run, now). */
  readonly now: Date | undefined;
  readonly operatorLastActive: Date | undefined;
  /** `--now` given: a dry run whose receipt would close that slot for real runs, so it writes none. */
  readonly rehearsal: boolean;
  readonly dryRun: boolean;
  /** `--metrics-textfile`, resolved; never for a dry run (it writes nothing, the textfile included). */
  readonly textfile: string | undefined;
}

/** The flag checks that need nothing read yet, in the order the errors are reported; the error is the usage line's message. */
export function checkCycleFlags(flags: CycleFlags, cwd: string): Result<CheckedCycleFlags, string> {
  const now = parseInstantFlag('--now', flags.now);
  if (now.isErr()) return err(now.error);
  const pingFlags = checkPingFlags(flags);
  if (pingFlags.isErr()) return err(pingFlags.error);
  const lastActive = parseInstantFlag('--operator-last-active', flags['operator-last-active']);
  if (lastActive.isErr()) return err(lastActive.error);
  const rehearsal = now.value !== undefined;
  const dryRun = flags['dry-run'] === true || rehearsal;
  const metrics = parseMetricsFlags(flags, cwd);
  if (metrics.isErr()) return err(metrics.error);
  return ok({
    now: now.value,
    operatorLastActive: lastActive.value,
    rehearsal,
    dryRun,
    textfile: dryRun ? undefined : metrics.value.textfile,
  });
}
