import type { Sleep } from '../ports/clock.js';
import { renderOnline, renderShutdown } from '../messages/render-messages.js';
import { cutOffScanners } from '../cycle/scan-problems.js';
import { runCycle, type CycleDeps, type CycleOutcome, type CycleSettings, type StateRefusal } from '../cycle/run-cycle.js';
import {
  classifyGap,
  decideSlots,
  DEFAULT_CATCH_UP,
  type CatchUpSettings,
  type GapCause,
  type SkippedSlots,
} from '../schedule/catch-up.js';

/** Settings of the loop; `settings` is re-read before every cycle so HEARTBEAT.md edits apply. */
export interface LoopOptions {
  readonly settings: () => Promise<CycleSettings> | CycleSettings;
  /** HEARTBEAT_ONLINE's `HEARTBEAT.md:` word: true = found, false = missing, `'empty'` = a file with no text (defaults). */
  readonly configFound: boolean | 'empty';
  /**
   * Stops the loop: no cycle starts after it aborts, the one in flight finishes: a shutdown never
   * interrupts a scan mid-way (spec 000's shutdown protocol). To cut that one off, abort the signal its tools run under.
   */
  readonly signal: AbortSignal;
  /** Interval override; default the config's `intervalMs`. */
  readonly intervalMs?: number;
  /** A fixed offset in [0, interval) added to every slot, e.g. from {@link deterministicJitter}. */
  readonly jitterMs?: number;
  /** Called after every cycle (printing, recording) with the slot (epoch ms) it closes. */
  readonly onCycle?: (outcome: CycleOutcome, slotMs: number) => void | Promise<void>;
  /**
   * Wraps every cycle, e.g. to hold a lock so a cron `cycle` and this loop never evaluate the same
   * state at once. Returning undefined means the cycle was skipped: it is not counted. `slotMs`
   * is the slot the cycle belongs to (for receipts of skipped slots). The guard may pass settings
   * read under its lock (an operator pause) to the cycle; they override the loop's for that cycle.
   */
  readonly guard?: (cycle: (extra?: Partial<CycleSettings>) => Promise<CycleOutcome>, slotMs: number) => Promise<CycleOutcome | undefined>;
  /**
   * The newest slot already recorded for this state (from its receipts), so a restart neither
   * replays nor skips: slots after it and before now were missed while no process ran.
   */
  readonly lastSlotMs?: number;
  /** What runs of missed slots (default {@link DEFAULT_CATCH_UP}: the newest once); a function is asked at every decision. */
  readonly catchUp?: CatchUpSettings | (() => CatchUpSettings);
  /**
   * A clock that does not advance while the machine sleeps (Node: `performance.now()`). Compared
   * with the wall clock it tells a sleep or clock jump from a cycle that overran; without it
   * missed slots count as overlapping.
   */
  readonly monotonicMs?: () => number;
  /** The wait between slots, when it differs from `deps.sleep` (which cycles use for timeouts). */
  readonly sleep?: Sleep;
  /** Called with every run of slots that is skipped (missed and not caught up), for receipts. */
  readonly onSkipped?: (slots: SkippedSlots) => void | Promise<void>;
}

/** What the loop did before it stopped. */
export interface LoopSummary {
  /** Cycles whose scanners all ran to their end. */
  readonly cyclesCompleted: number;
  /** Cycles a signal cut short (a scanner's tool aborted or killed): they did not fully look. */
  readonly cyclesPartial: number;
  /** The scanners those signals cut off, in the order first seen. */
  readonly cutOff: readonly string[];
  readonly reportsSent: number;
  /** Set when the loop stopped because a cycle refused its stored state (see `CycleOutcome.refused`). */
  readonly refused?: StateRefusal;
}

/** A stable offset in [0, maxMs) derived from an id, so many heartbeats spread out without randomness. */
export function deterministicJitter(id: string, maxMs: number): number {
  if (maxMs <= 0) return 0;
  let hash = 2166136261;
  for (let i = 0; i < id.length; i++) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 16777619) >>> 0;
  }
  return hash % Math.floor(maxMs);
}

/**
 * Spec 000's loop: HEARTBEAT_ONLINE, a first cycle at once, then one cycle per slot of the
 * wall-clock grid `jitter + k·interval` (aligned to the epoch, so a restart keeps the grid).
 * Cycles never overlap: missed slots (a sleep, a clock jump, downtime before a restart, an
 * overrunning cycle) go through {@link decideSlots} and its catch-up policy, and every slot is
 * handed to `onCycle` or `onSkipped` exactly once. When `signal` aborts, the current cycle finishes and
 * HEARTBEAT_SHUTDOWN reports cycles completed and reports sent.
 *
 * @example
 * ```ts
 * import { DEFAULT_HEARTBEAT_CONFIG, runLoop } from '@heartbeat-kit/core';
 * import { createFileStateStore, createStdoutSink, nodeSleep, systemClock } from '@heartbeat-kit/core/node';
 *
 * const stop = new AbortController();
 * process.once('SIGTERM', () => stop.abort()); // finish the cycle, then HEARTBEAT_SHUTDOWN
 * const summary = await runLoop(
 *   { clock: systemClock, sleep: nodeSleep, stateStore: createFileStateStore({ path: '.git/heartbeat-kit/state.json' }), sink: createStdoutSink(), scanners: [] },
 *   { settings: () => ({ config: DEFAULT_HEARTBEAT_CONFIG, timeZone: 'UTC' }), configFound: false, signal: stop.signal },
 * );
 * console.log(summary); // { cyclesCompleted: …, cyclesPartial: …, cutOff: [...], reportsSent: … }
 * ```
 */
export async function runLoop(deps: CycleDeps, options: LoopOptions): Promise<LoopSummary> {
  const first = await options.settings();
  const intervalOf = (s: CycleSettings): number => options.intervalMs ?? s.config.intervalMs;
  await deps.sink.deliver(
    renderOnline({
      intervalMs: intervalOf(first),
      activeHours: first.config.activeHours,
      configFound: options.configFound,
      at: deps.clock.now(),
    }),
  );

  let cyclesCompleted = 0;
  let cyclesPartial = 0;
  const cutOff = new Set<string>();
  let reportsSent = 0;
  let refused: StateRefusal | undefined;
  let settings = first;
  let lastSlotMs = options.lastSlotMs;
  // Before the first decision no process ran: missed slots were downtime.
  let cause: GapCause = 'down';
  const mono = options.monotonicMs;
  while (!options.signal.aborted) {
    const interval = intervalOf(settings);
    const offset = (options.jitterMs ?? 0) % interval;
    const nowMs = deps.clock.now().getTime();
    const monoAtDecision = mono?.();
    const catchUp = typeof options.catchUp === 'function' ? options.catchUp() : (options.catchUp ?? DEFAULT_CATCH_UP);
    const decision = decideSlots({ nowMs, lastSlotMs, intervalMs: interval, offsetMs: offset, catchUp, cause });
    for (const skipped of decision.skipped) await options.onSkipped?.(skipped);
    for (const slotMs of decision.run) {
      // The signal may have come while skipped slots were recorded: stopping starts no cycle.
      if (options.signal.aborted) break;
      const run = (extra?: Partial<CycleSettings>): Promise<CycleOutcome> =>
        runCycle(deps, extra === undefined ? settings : { ...settings, ...extra });
      const outcome = options.guard ? await options.guard(run, slotMs) : await run();
      // Every later slot would refuse the same state: stop and say why rather than spin.
      if (outcome?.refused !== undefined) {
        refused = outcome.refused;
        break;
      }
      if (outcome !== undefined) {
        // A cycle a signal cut short did not look everywhere: partial, not completed.
        const cut = cutOffScanners(outcome.problems);
        if (cut.length === 0) cyclesCompleted++;
        else cyclesPartial++;
        for (const name of cut) cutOff.add(name);
        if (outcome.delivery === 'delivered') reportsSent++;
        await options.onCycle?.(outcome, slotMs);
      }
    }
    lastSlotMs = decision.lastSlotMs;
    if (options.signal.aborted || refused !== undefined) break;
    // After an overrun the next slot may already be past: the next decision records it.
    await (options.sleep ?? deps.sleep).sleep(Math.max(0, decision.nextSlotMs - deps.clock.now().getTime()), options.signal);
    if (options.signal.aborted) break;
    // Measured from the decision, so a sleep during a cycle counts as a sleep too.
    const wallElapsed = deps.clock.now().getTime() - nowMs;
    cause = mono === undefined || monoAtDecision === undefined ? 'overlapping' : classifyGap(wallElapsed, mono() - monoAtDecision);
    settings = await options.settings();
  }
  await deps.sink.deliver(renderShutdown({ cyclesCompleted, cyclesPartial, cutOff: [...cutOff], reportsSent, at: deps.clock.now() }));
  return { cyclesCompleted, cyclesPartial, cutOff: [...cutOff], reportsSent, ...(refused === undefined ? {} : { refused }) };
}
