import type { LockRecord } from '../ports/lock-store.js';
import { SKIP_REASONS, sortReceipts, type RanReceipt, type Receipt, type SkipReason } from './receipt-schema.js';

/** Why a heartbeat is judged not alive: a closed set, each with its explanation. */
export const NOT_LIVE_REASONS = {
  'never-ran': 'no cycle has ever run for this state (no receipts)',
  stopped: 'no slot was recorded recently: the loop or the scheduler that starts cycles has stopped',
  'all-skipped': 'slots keep coming but every one was skipped',
  'lock-stuck': 'the cycle lock has been held longer than the maximum age: a cycle is hung or its holder died',
  'future-dated':
    'the last run is dated later than now (the clock moved back, or a rehearsal recorded it) and none ran recently before now',
} as const satisfies Record<string, string>;

/** Why a heartbeat is not alive. */
export type NotLiveReason = keyof typeof NOT_LIVE_REASONS;

/** What a liveness check concluded. */
export type LivenessVerdict =
  | { readonly live: true; readonly lastRan: RanReceipt; readonly ageMs: number; readonly notes: readonly string[] }
  | { readonly live: false; readonly reason: NotLiveReason; readonly message: string; readonly lastRan?: RanReceipt };

/** Inputs of {@link judgeLiveness} besides the receipts. */
export interface LivenessInput {
  readonly nowMs: number;
  /** The newest `ran` receipt must be at most this old. */
  readonly maxAgeMs: number;
  /** The cycle lock as read now, if any. */
  readonly lock?: LockRecord | undefined;
  /**
   * When the heartbeat is expected to run (e.g. inside active hours, for a cron schedule that
   * only fires then). When set, only expected time counts toward an age, so a night or a weekend
   * outside the window is not "stopped"; absent = all time counts.
   */
  readonly expectedAt?: ((ms: number) => boolean) | undefined;
  /** The words the verdict's message uses; a heartbeat cycle's by default. */
  readonly terms?: LivenessTerms | undefined;
}

/** What one run and its lock are called in a verdict's message: `cycle`/`cycle lock`, or a WoterClip `beat`. */
export interface LivenessTerms {
  /** One run, as in "no cycle has run" and "cycle #12". */
  readonly run: string;
  /** The lock a run holds, as in "the cycle lock has been held by …". */
  readonly lock: string;
}

const CYCLE_TERMS: LivenessTerms = { run: 'cycle', lock: 'cycle lock' };

const MINUTE = 60_000;
// Receipts are kept 30 days; beyond this span every minute counts (and the walk stays short).
const MAX_WALK_MS = 62 * 24 * 3_600_000;

/**
 * How much of `[fromMs, toMs)` counts toward an age: all of it, or with `expectedAt` the minutes
 * at which the heartbeat is expected (stepping stops once the total passes `capMs`).
 */
function countedAge(fromMs: number, toMs: number, input: LivenessInput): number {
  const expectedAt = input.expectedAt;
  if (expectedAt === undefined || toMs - fromMs > MAX_WALK_MS) return toMs - fromMs;
  let total = 0;
  for (let t = fromMs; t < toMs && total <= input.maxAgeMs; t += MINUTE) if (expectedAt(t)) total += Math.min(MINUTE, toMs - t);
  return total;
}

function minutesText(ms: number): string {
  // Never a negative age: callers pass only past instants, and this is the last guard.
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  return minutes < 120 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/**
 * Is the heartbeat alive? Alive means a cycle evaluated and finished delivery (a `ran` receipt)
 * no longer than `maxAgeMs` ago (counting only expected time when `expectedAt` is given). Otherwise the verdict names why: a lock held too long, slots
 * that are all skipped (with their reasons), a heartbeat that has stopped, or one that never ran.
 */
export function judgeLiveness(receipts: readonly Receipt[], input: LivenessInput): LivenessVerdict {
  // The current clock is the authority: a receipt written "later than now" proves nothing about now.
  const all = sortReceipts(receipts);
  const ordered = all.filter((r) => Date.parse(r.at) <= input.nowMs);
  const futureRan = all.filter((r): r is RanReceipt => r.kind === 'ran' && Date.parse(r.at) > input.nowMs).at(-1);
  const lastRan = ordered.filter((r): r is RanReceipt => r.kind === 'ran').at(-1);
  const notes: string[] = [];
  const terms0 = input.terms ?? CYCLE_TERMS;
  const futureText =
    futureRan === undefined
      ? ''
      : `the last ${terms0.run} (#${futureRan.cycle}) is dated in the future, ${futureRan.at}, ${minutesText(Date.parse(futureRan.at) - input.nowMs)} after now (clock moved back, or a rehearsal recorded it)`;
  if (futureRan !== undefined) notes.push(futureText);
  // A slot an operator pause skipped was handled as told: the heartbeat is there, only held back.
  const lastPaused = ordered.filter((r) => r.kind === 'paused').at(-1);
  const pausedSince =
    lastRan !== undefined && lastPaused !== undefined && Date.parse(lastPaused.at) > Date.parse(lastRan.at) ? lastPaused : undefined;
  if (lastRan !== undefined) {
    const ageMs = countedAge(Date.parse((pausedSince ?? lastRan).at), input.nowMs, input);
    if (ageMs <= input.maxAgeMs) {
      if (pausedSince !== undefined)
        notes.push(
          `the slots since ${terms0.run} #${lastRan.cycle} were paused by an operator (the last at ${pausedSince.slot}: ${pausedSince.note})`,
        );
      // Nobody was told: said with the receipt's why when it has one.
      if (lastRan.delivery === 'failed')
        notes.push(`the last cycle could not deliver its report (${lastRan.why ?? 'see the sink'}): nobody was told`);
      if (lastRan.delivery === 'held')
        notes.push(
          `the last cycle held its report back (${lastRan.why ?? "the sink's circuit breaker is open after repeated failures; see the sink"}): nobody was told yet, it is offered again next cycle`,
        );
      if (lastRan.stateError !== undefined) notes.push(`the last cycle could not save its state: ${lastRan.stateError}`);
      // A partial cycle ran (not missed), but what it could not look at must not pass unsaid.
      if (lastRan.partial === true)
        notes.push(
          `the last cycle was partial: a signal cut off ${lastRan.cutOff?.join(', ') || 'scanners'}, so what they watch was not looked at`,
        );
      return { live: true, lastRan, ageMs, notes };
    }
  }
  const terms = terms0;
  if (futureRan !== undefined) {
    const before = lastRan === undefined ? '' : `; before now it last ran ${lastRan.slot} (${terms.run} #${lastRan.cycle})`;
    return { live: false, reason: 'future-dated', message: `${futureText}${before}.`, lastRan: lastRan ?? futureRan };
  }
  const since =
    lastRan === undefined
      ? ''
      : ` Last ran ${lastRan.slot} (${terms.run} #${lastRan.cycle}, ${minutesText(input.nowMs - Date.parse(lastRan.at))} ago).`;
  const withLast = lastRan === undefined ? {} : { lastRan };
  const lock = input.lock;
  if (lock !== undefined && input.nowMs - lock.acquiredAtMs > input.maxAgeMs) {
    return {
      live: false,
      reason: 'lock-stuck',
      message: `the ${terms.lock} has been held by ${lock.owner} for ${minutesText(input.nowMs - lock.acquiredAtMs)}.${since}`,
      ...withLast,
    };
  }
  const recentSkips = ordered.filter(
    (r) =>
      r.kind === 'skipped' &&
      countedAge(Date.parse(r.at), input.nowMs, input) <= input.maxAgeMs &&
      (lastRan === undefined || Date.parse(r.at) >= Date.parse(lastRan.at)),
  );
  if (recentSkips.length > 0) {
    const counts = new Map<SkipReason, number>();
    for (const r of recentSkips) if (r.kind === 'skipped') counts.set(r.reason, (counts.get(r.reason) ?? 0) + 1);
    const list = [...counts].map(([reason, n]) => `${n} × ${reason} (${SKIP_REASONS[reason]})`).join(', ');
    return { live: false, reason: 'all-skipped', message: `every recent slot was skipped: ${list}.${since}`, ...withLast };
  }
  if (ordered.length === 0)
    return { live: false, reason: 'never-ran', message: `no receipts: no ${terms.run} has run for this state yet.` };
  const newest = ordered.at(-1)!;
  return {
    live: false,
    reason: 'stopped',
    message: `nothing recorded for ${minutesText(input.nowMs - Date.parse(newest.at))}: the loop or its scheduler has stopped.${since}`,
    ...withLast,
  };
}
