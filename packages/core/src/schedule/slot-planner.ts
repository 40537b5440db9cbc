import type { PauseDecision } from '../operator/pause-decision.js';
import type { HolderLiveness, LockError, LockRecord } from '../ports/lock-store.js';
import type { SlotEnd } from './slot-end.js';

/**
 * Which steps a runner's slot has; the planner asks them in its one order. The optional steps are
 * off when absent: core's `runSlot` has none of them, the fleet's cycle job has `recorded` and
 * `setup`, WoterClip's beat has `gate`.
 */
export interface SlotShape {
  /** The config is read first, before anything is locked (a CLI `cycle`). */
  readonly config: boolean;
  /** The runner's own reason not to run, decided before the lock (WoterClip's dispatch breaker). */
  readonly gate?: boolean | undefined;
  /** A lock that two runs of one state never hold at once (none: a rehearsal). */
  readonly lock: boolean;
  /**
   * The slot may have its record already (a retried fleet job whose slot ran): asked right after
   * the lock whatever it found, since a slot that has its record needs no other.
   */
  readonly recorded?: boolean | undefined;
  /** Missed slots of a cron grid are closed under the lock. */
  readonly grid: boolean;
  /** The operator's pause is read under the lock. */
  readonly pause: boolean;
  /** The runner's setup is resolved under the lock, after the pause (the fleet's registration). */
  readonly setup?: boolean | undefined;
}

/** What taking the lock found. */
export type LockFact =
  | { readonly kind: 'taken' }
  | { readonly kind: 'held'; readonly detail: string; readonly holder?: LockRecord; readonly liveness?: HolderLiveness }
  | { readonly kind: 'unavailable'; readonly detail: string; readonly error?: LockError };

/** What the runner's gate found: open, or closed with its ending (quiet hours, an open breaker). */
export type GateFact =
  | { readonly kind: 'open' }
  | { readonly kind: 'closed'; readonly end: { readonly kind: 'quiet-hours' | 'breaker-open'; readonly detail: string } };

/**
 * What the run step found: it ran, it refused to (its state or its config could not be used), its
 * work ended with the runner's own ending (WoterClip's quiet hours, read under the lock; a
 * rehearsal), or the slot turned out recorded by another run (a beat its successor superseded).
 */
export type RunFact =
  | { readonly kind: 'ran'; readonly end: Extract<SlotEnd, { kind: 'ran' | 'ran-step' | 'ran-work' }> }
  | { readonly kind: 'refused'; readonly end: Extract<SlotEnd, { kind: 'state-refused' | 'config-error' }> }
  | { readonly kind: 'own'; readonly end: Extract<SlotEnd, { kind: 'quiet-hours' | 'breaker-open' | 'dry-run' }> }
  | { readonly kind: 'recorded' };

/**
 * A config read, or a setup resolved: usable, or not. Not usable ends the slot `config-error`,
 * or the ending the runner records for it (`end`: WoterClip records an unreadable config file as
 * `lock-unavailable`, as it always has).
 */
export type ConfigFact =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly detail: string;
      readonly end?: Extract<SlotEnd, { kind: 'config-error' | 'lock-unavailable' }> | undefined;
    };

/** What a runner has found so far in one slot; a step not asked yet is absent. */
export interface SlotFacts {
  readonly config?: ConfigFact;
  readonly gate?: GateFact;
  readonly lock?: LockFact;
  /** Whether the slot has its record already (true: nothing more to do or write). */
  readonly recorded?: boolean;
  /** The grid's missed slots were dealt with (closed, or not listable: the runner says so itself). */
  readonly missed?: true;
  readonly pause?: PauseDecision;
  readonly setup?: ConfigFact;
  readonly run?: RunFact;
}

/** The runner's next step, or the slot's one ending (`recorded`: it has its record, write none). */
export type SlotStep =
  | { readonly kind: 'read-config' }
  | { readonly kind: 'check-gate' }
  | { readonly kind: 'take-lock' }
  | { readonly kind: 'check-recorded' }
  | { readonly kind: 'close-missed' }
  | { readonly kind: 'read-pause' }
  | { readonly kind: 'resolve-setup' }
  /** Run the slot's work, honouring this pause in part (or `run`: none). */
  | { readonly kind: 'run'; readonly pause: Exclude<PauseDecision, { kind: 'skip' }> }
  | { readonly kind: 'end'; readonly end: SlotEnd }
  | { readonly kind: 'recorded' };

const ending = (end: SlotEnd): SlotStep => ({ kind: 'end', end });

/** The ending of a config or setup that cannot be used: the runner's own, else `config-error`. */
const unusable = (fact: Extract<ConfigFact, { ok: false }>): SlotStep => ending(fact.end ?? { kind: 'config-error', detail: fact.detail });

/** The ending a lock that was not taken gives; undefined when it was taken (or not asked). */
function lockEnding(lock: LockFact | undefined): SlotStep | undefined {
  if (lock?.kind === 'held') {
    const { holder } = lock;
    return ending({
      kind: 'overlapping',
      detail: lock.detail,
      ...(holder === undefined ? {} : { holder }),
      liveness: lock.liveness ?? 'unknown',
    });
  }
  if (lock?.kind === 'unavailable') {
    const { error } = lock;
    return ending({ kind: 'lock-unavailable', detail: lock.detail, ...(error === undefined ? {} : { error }) });
  }
  return undefined;
}

/** The steps before the lock: the config (unreadable: `config-error`), then the runner's gate. */
function beforeLock(shape: SlotShape, facts: SlotFacts): SlotStep | undefined {
  if (shape.config && facts.config === undefined) return { kind: 'read-config' };
  if (facts.config?.ok === false) return unusable(facts.config);
  if (shape.gate === true && facts.gate === undefined) return { kind: 'check-gate' };
  if (facts.gate?.kind === 'closed') return ending(facts.gate.end);
  return undefined;
}

/**
 * The order of a slot's decisions, the same for every runner: the config (unreadable:
 * `config-error`), the runner's gate (closed: its ending), the lock, whether the slot has its
 * record already (then nothing more: `recorded`), the lock's ending (held: `overlapping`; cannot:
 * `lock-unavailable`), the missed slots, the pause (whole: `paused`), the setup (unresolvable:
 * `config-error`), then the run (`ran`; refused: `state-refused`; the runner's own ending; or
 * recorded by another run: `recorded`). Pure: the runner does the
 * I/O of each step and asks again with what it found, so every slot ends exactly once, and when
 * several endings apply the earliest step's wins.
 */
export function nextSlotStep(shape: SlotShape, facts: SlotFacts): SlotStep {
  const early = beforeLock(shape, facts);
  if (early !== undefined) return early;
  if (shape.lock && facts.lock === undefined) return { kind: 'take-lock' };
  if (shape.recorded === true && facts.recorded === undefined) return { kind: 'check-recorded' };
  if (facts.recorded === true) return { kind: 'recorded' };
  const locked = lockEnding(facts.lock);
  if (locked !== undefined) return locked;
  if (shape.grid && facts.missed === undefined) return { kind: 'close-missed' };
  if (shape.pause && facts.pause === undefined) return { kind: 'read-pause' };
  const pause = facts.pause ?? { kind: 'run' };
  if (pause.kind === 'skip') return ending({ kind: 'paused', pause: pause.pause, line: pause.line });
  if (shape.setup === true && facts.setup === undefined) return { kind: 'resolve-setup' };
  if (facts.setup?.ok === false) return unusable(facts.setup);
  if (facts.run === undefined) return { kind: 'run', pause };
  return facts.run.kind === 'recorded' ? { kind: 'recorded' } : ending(facts.run.end);
}
