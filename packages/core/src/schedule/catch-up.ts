/**
 * Catch-up after sleep, downtime and restarts. The loop's slots sit on the wall-clock grid
 * `offset + k·interval` (epoch-aligned, so a restart lands on the same grid); the newest slot
 * already recorded (a receipt) is the persisted position. After a gap the policy decides which
 * missed slots run; every slot in the gap still gets exactly one record.
 */

/** What happens to slots missed in a gap: none run, only the newest runs, or all (up to the cap). */
export const CATCH_UP_POLICIES = ['skip', 'latest-once', 'all'] as const;

/** See {@link CATCH_UP_POLICIES}. */
export type CatchUpPolicy = (typeof CATCH_UP_POLICIES)[number];

/** The policy and the most cycles one catch-up may run. */
export interface CatchUpSettings {
  readonly policy: CatchUpPolicy;
  /** At most this many missed slots run in one catch-up (0 = none). */
  readonly cap: number;
}

/** The default: one cycle now for the newest missed slot, never a burst. */
export const DEFAULT_CATCH_UP: CatchUpSettings = { policy: 'latest-once', cap: 3 };

/** Why slots were missed: the machine slept or the clock jumped, no process ran, or a cycle overran. */
export type GapCause = 'asleep' | 'down' | 'overlapping';

/** Consecutive slots closed by one skipped record. */
export interface SkippedSlots {
  /** First and last slot (epoch ms) of the run; equal for a single slot. */
  readonly fromMs: number;
  readonly throughMs: number;
  /** How many grid slots the run covers. */
  readonly count: number;
  readonly reason: GapCause | 'catch-up-cap';
  readonly detail: string;
}

/** Inputs of {@link decideSlots}. */
export interface SlotDecisionInput {
  readonly nowMs: number;
  /** Newest slot already recorded; undefined for a fresh state (only the current slot is due). */
  readonly lastSlotMs: number | undefined;
  readonly intervalMs: number;
  readonly offsetMs: number;
  readonly catchUp: CatchUpSettings;
  /** Why slots before the current one were missed (see `classifyGap` in this module). */
  readonly cause: GapCause;
  /** A slot at most this late is on time, not missed (default: half the interval, at most 5 min). */
  readonly graceMs?: number;
}

/** Which slots run now (oldest first, one after another) and how the others are recorded. */
export interface SlotDecision {
  readonly run: readonly number[];
  readonly skipped: readonly SkippedSlots[];
  /** Newest slot this decision closes (run or skipped), or the previous one when none was due. */
  readonly lastSlotMs: number | undefined;
  /** The next slot to wait for: on the grid, after now and after every recorded slot. */
  readonly nextSlotMs: number;
}

/** The newest grid slot at or before `ms`. */
export function gridSlotAtOrBefore(ms: number, intervalMs: number, offsetMs: number): number {
  const offset = ((offsetMs % intervalMs) + intervalMs) % intervalMs;
  return Math.floor((ms - offset) / intervalMs) * intervalMs + offset;
}

/** How much the wall clock may run ahead of the monotonic clock before a gap counts as sleep (5 s). */
export const SLEEP_TOLERANCE_MS = 5_000;

/**
 * Why slots were missed while a process was running: when the wall clock advanced more than the
 * monotonic clock (which stops while the machine is suspended) the machine slept or the clock
 * jumped; otherwise the process itself was busy (a cycle overran).
 */
export function classifyGap(wallElapsedMs: number, monotonicElapsedMs: number, toleranceMs = SLEEP_TOLERANCE_MS): GapCause {
  return wallElapsedMs - monotonicElapsedMs > toleranceMs ? 'asleep' : 'overlapping';
}

const CAUSE_TEXT: Readonly<Record<GapCause, string>> = {
  asleep: 'the machine slept or the clock jumped',
  down: 'no heartbeat process was running',
  overlapping: 'a cycle was still running',
};

/**
 * The pure catch-up decision. Due slots are the grid slots in `(lastSlot, now]` (a fresh state:
 * only the newest one, which runs at once, so a first start never replays history). The newest due
 * slot is on time when it is at most `graceMs` late and then always runs. When slots were missed
 * the policy picks how many of the newest due slots run now: only an on-time one (`skip`), one
 * (`latest-once`: one cycle now, never a burst) or up to `cap` (`all`); never more than the cap
 * (an on-time slot aside). Every due slot ends in exactly one of `run` or `skipped`.
 * The current clock is the authority: a recorded slot later than now (a clock that went back, a
 * rehearsal's receipt) is ignored, so slots are closed on the current grid and the loop never waits for it.
 */
export function decideSlots(input: SlotDecisionInput): SlotDecision {
  const { nowMs, intervalMs, offsetMs, catchUp } = input;
  const graceMs = input.graceMs ?? Math.min(intervalMs / 2, 300_000);
  const lastSlotMs = input.lastSlotMs !== undefined && input.lastSlotMs <= nowMs ? input.lastSlotMs : undefined;
  const newest = gridSlotAtOrBefore(nowMs, intervalMs, offsetMs);
  const afterRecorded = (ms: number): number => gridSlotAtOrBefore(ms, intervalMs, offsetMs) + intervalMs;
  const nextSlotMs = afterRecorded(nowMs);
  const first = lastSlotMs === undefined ? newest : afterRecorded(lastSlotMs);
  if (first > newest) return { run: [], skipped: [], lastSlotMs, nextSlotMs };

  // A fresh state has no gap: its first slot runs at once: the first cycle runs immediately after startup, with no initial sleep (spec 000).
  const onTime = lastSlotMs === undefined || nowMs - newest <= graceMs;
  const dueCount = (newest - first) / intervalMs + 1;
  const cap = Math.max(0, Math.floor(catchUp.cap));
  const allowed = catchUp.policy === 'skip' ? 0 : catchUp.policy === 'latest-once' ? Math.min(1, cap) : cap;
  // The newest `runs` due slots run; an on-time slot always does (it is not a catch-up).
  const runs = Math.min(dueCount, Math.max(onTime ? 1 : 0, allowed));
  const run: number[] = [];
  for (let k = runs; k >= 1; k--) run.push(newest - (k - 1) * intervalMs);

  const skipped: SkippedSlots[] = [];
  const notRun = dueCount - runs;
  if (notRun > 0) {
    const throughMs = first + (notRun - 1) * intervalMs;
    const cause = CAUSE_TEXT[input.cause];
    // Under `all` the cap is what left these out; otherwise the cause is the answer to "why not".
    const reason = catchUp.policy === 'all' && runs > 0 ? 'catch-up-cap' : input.cause;
    const detail =
      reason === 'catch-up-cap'
        ? `${cause}; catch-up all ran the newest ${runs}`
        : `${cause}; catch-up ${catchUp.policy}${runs > 0 ? ' ran the newest slot' : ''}`;
    skipped.push({ fromMs: first, throughMs, count: notRun, reason, detail });
  }
  return { run, skipped, lastSlotMs: newest, nextSlotMs };
}

/** Inputs of {@link decideCronSlot}: the expression's fire times, injected (a cron library). */
export interface CronSlotInput {
  readonly nowMs: number;
  readonly lastSlotMs: number | undefined;
  /** The first fire time strictly after `ms`. */
  readonly nextAfter: (ms: number) => number | undefined;
  /** The newest fire time at or before `ms`. */
  readonly atOrBefore: (ms: number) => number | undefined;
  /** Counting missed fire times stops here (default 100,000). */
  readonly maxCount?: number;
}

/**
 * What a cron-driven `cycle` closes: the newest fire time at or before now (its own slot), and
 * the fire times since the last recorded slot that no cycle closed (one skipped run, `down`: the
 * machine was off or cron did not start it). An invocation off the schedule (by hand, or a second
 * one for a slot already recorded) closes its own instant instead and reports nothing missed.
 * The cycle runs once whatever was missed: cron catch-up is always latest-once.
 */
export function decideCronSlot(input: CronSlotInput): { readonly slotMs: number; readonly missed?: SkippedSlots } {
  const own = input.atOrBefore(input.nowMs);
  // A recorded slot later than now (a clock that went back, a rehearsal) is ignored: the current clock decides.
  const lastSlotMs = input.lastSlotMs !== undefined && input.lastSlotMs <= input.nowMs ? input.lastSlotMs : undefined;
  if (own === undefined || (lastSlotMs !== undefined && own <= lastSlotMs)) return { slotMs: input.nowMs };
  if (lastSlotMs === undefined) return { slotMs: own };
  const maxCount = input.maxCount ?? 100_000;
  let first: number | undefined;
  let last: number | undefined;
  let count = 0;
  let at = input.nextAfter(lastSlotMs);
  while (at !== undefined && at < own && count < maxCount) {
    first ??= at;
    last = at;
    count++;
    const next = input.nextAfter(at);
    at = next !== undefined && next > at ? next : undefined;
  }
  if (first === undefined || last === undefined) return { slotMs: own };
  return {
    slotMs: own,
    missed: {
      fromMs: first,
      throughMs: last,
      count,
      reason: 'down',
      detail: `${CAUSE_TEXT.down} (or cron did not start it); a cron cycle runs once for its own slot`,
    },
  };
}
