import { renderOnline, renderShutdown } from '../messages/render-messages.js';
import { runCycle, type CycleDeps, type CycleOutcome, type CycleSettings, type StateRefusal } from '../cycle/run-cycle.js';

/** Settings of the loop; `settings` is re-read before every cycle so HEARTBEAT.md edits apply. */
export interface LoopOptions {
  readonly settings: () => Promise<CycleSettings> | CycleSettings;
  /** Whether HEARTBEAT.md was found, for the online message. */
  readonly configFound: boolean;
  /** Stops the loop after the current cycle. */
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
   * is the slot the cycle belongs to (for receipts of skipped slots).
   */
  readonly guard?: (cycle: () => Promise<CycleOutcome>, slotMs: number) => Promise<CycleOutcome | undefined>;
}

/** What the loop did before it stopped. */
export interface LoopSummary {
  readonly cyclesCompleted: number;
  readonly reportsSent: number;
  /** Set when the loop stopped because a cycle refused its stored state (see `CycleOutcome.refused`). */
  readonly refused?: StateRefusal;
}

/**
 * The first slot strictly after `nowMs` on the grid `anchorMs + offset + k·interval`.
 * Slots missed while a cycle overran collapse into this one.
 */
export function nextSlot(anchorMs: number, nowMs: number, intervalMs: number, offsetMs = 0): number {
  const base = anchorMs + offsetMs;
  if (nowMs < base) return base;
  return base + (Math.floor((nowMs - base) / intervalMs) + 1) * intervalMs;
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
 * Spec 000's loop: HEARTBEAT_ONLINE, a first cycle at once, then one cycle per interval anchored
 * to the wall clock. Cycles never overlap. When `signal` aborts, the current cycle finishes and
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
 *   { clock: systemClock, sleep: nodeSleep, stateStore: createFileStateStore({ path: '.heartbeat/state.json' }), sink: createStdoutSink(), scanners: [] },
 *   { settings: () => ({ config: DEFAULT_HEARTBEAT_CONFIG, timeZone: 'UTC' }), configFound: false, signal: stop.signal },
 * );
 * console.log(summary); // { cyclesCompleted: …, reportsSent: … }
 * ```
 */
export async function runLoop(deps: CycleDeps, options: LoopOptions): Promise<LoopSummary> {
  const first = await options.settings();
  const anchorMs = deps.clock.now().getTime();
  const intervalOf = (s: CycleSettings): number => options.intervalMs ?? s.config.intervalMs;
  await deps.sink.deliver(renderOnline({ intervalMs: intervalOf(first), activeHours: first.config.activeHours, configFound: options.configFound, at: deps.clock.now() }));

  let cyclesCompleted = 0;
  let reportsSent = 0;
  let refused: StateRefusal | undefined;
  let settings = first;
  // The first cycle runs at once; its slot is the start instant.
  let slotMs = anchorMs;
  while (!options.signal.aborted) {
    const run = (): Promise<CycleOutcome> => runCycle(deps, settings);
    const outcome = options.guard ? await options.guard(run, slotMs) : await run();
    // Every later slot would refuse the same state: stop and say why rather than spin.
    if (outcome?.refused !== undefined) {
      refused = outcome.refused;
      break;
    }
    if (outcome !== undefined) {
      cyclesCompleted++;
      if (outcome.delivery === 'delivered') reportsSent++;
      await options.onCycle?.(outcome, slotMs);
    }
    if (options.signal.aborted) break;
    const interval = intervalOf(settings);
    const now = deps.clock.now().getTime();
    const due = nextSlot(anchorMs, now, interval, (options.jitterMs ?? 0) % interval);
    slotMs = due;
    await deps.sleep.sleep(due - now, options.signal);
    if (options.signal.aborted) break;
    settings = await options.settings();
  }
  await deps.sink.deliver(renderShutdown({ cyclesCompleted, reportsSent, at: deps.clock.now() }));
  return { cyclesCompleted, reportsSent, ...(refused === undefined ? {} : { refused }) };
}
