import { CATCH_UP_POLICIES, type CatchUpPolicy } from '@heartbeat-kit/core/host';
import { err, ok, type Result } from 'neverthrow';
import type { FlagValues } from '../../cli-kernel/index.js';
import { parseMetricsFlags, type MetricsFlags } from '../../metrics/metrics-export.js';
import { checkPingFlags } from '../../pings/ping-wiring.js';
import { parseDurationFlag } from '../../wiring/duration-flag.js';
import { parseInstantFlag } from '../../wiring/instant.js';
import type { LOOP_SPEC } from '../loop-help.js';

/** The parsed flags of `heartbeat-kit loop`. */
export type LoopFlags = FlagValues<typeof LOOP_SPEC.flags>;

/** What the flags say before anything is read. */
export interface CheckedLoopFlags {
  readonly intervalMs: number | undefined;
  readonly jitterMs: number | undefined;
  readonly policy: CatchUpPolicy | undefined;
  readonly cap: number | undefined;
  /** `--now`: where a rehearsal starts the loop's clock (undefined: a real run). */
  readonly startAt: Date | undefined;
  readonly metrics: MetricsFlags;
}

/** `--catch-up-cap`: a number of cycles 0–100, or the usage line's message. */
function parseCap(capFlag: string | undefined): Result<number | undefined, string> {
  if (capFlag === undefined) return ok(undefined);
  if (!/^\d{1,3}$/.test(capFlag) || Number(capFlag) > 100)
    return err(`--catch-up-cap "${capFlag}" is not a number of cycles 0–100. Fix: e.g. --catch-up-cap 3.`);
  return ok(Number(capFlag));
}

/** The flag checks that need nothing read yet, in the order the errors are reported; the error is the usage line's message. */
export function checkLoopFlags(flags: LoopFlags, cwd: string): Result<CheckedLoopFlags, string> {
  const interval = parseDurationFlag('--interval', flags.interval, { unit: 's', example: '10m', minMs: 1000 });
  if (interval.isErr()) return err(interval.error);
  const jitter = parseDurationFlag('--jitter', flags.jitter, { unit: 's', example: '30s', allowZero: true });
  if (jitter.isErr()) return err(jitter.error);
  const policy = flags['catch-up'];
  if (policy !== undefined && !(CATCH_UP_POLICIES as readonly string[]).includes(policy))
    return err(`--catch-up "${policy}" is not a catch-up policy. Fix: --catch-up skip, latest-once or all.`);
  const cap = parseCap(flags['catch-up-cap']);
  if (cap.isErr()) return err(cap.error);
  const startAt = parseInstantFlag('--now', flags.now);
  if (startAt.isErr()) return err(startAt.error);
  const metrics = parseMetricsFlags(flags, cwd);
  if (metrics.isErr()) return err(metrics.error);
  const pingFlags = checkPingFlags(flags);
  if (pingFlags.isErr()) return err(pingFlags.error);
  return ok({
    intervalMs: interval.value,
    jitterMs: jitter.value,
    policy: policy as CatchUpPolicy | undefined,
    cap: cap.value,
    startAt: startAt.value,
    metrics: metrics.value,
  });
}
