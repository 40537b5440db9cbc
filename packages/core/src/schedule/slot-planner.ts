import type { PauseDecision } from '../operator/pause-decision.js';
import type { HolderLiveness, LockError, LockRecord } from '../ports/lock-store.js';
import type { SlotEnd } from './slot-end.js';

/** Which steps a runner's slot has; the planner asks them in its one order. */
export interface SlotShape {
  /** The config is read first, before anything is locked (a CLI `cycle`). */
  readonly config: boolean;
  /** A lock that two runs of one state never hold at once (none: a rehearsal). */
  readonly lock: boolean;
  /** Missed slots of a cron grid are closed under the lock. */
  readonly grid: boolean;
  /** The operator's pause is read under the lock. */
  readonly pause: boolean;
}

/** What taking the lock found. */
export type LockFact =
  | { readonly kind: 'taken' }
  | { readonly kind: 'held'; readonly detail: string; readonly holder?: LockRecord; readonly liveness?: HolderLiveness }
  | { readonly kind: 'unavailable'; readonly detail: string; readonly error?: LockError };

/** What the run step found: it ran, or it refused to (its state or its config could not be used). */
export type RunFact =
  | { readonly kind: 'ran'; readonly end: Extract<SlotEnd, { kind: 'ran' | 'ran-step' | 'ran-work' }> }
  | { readonly kind: 'refused'; readonly end: Extract<SlotEnd, { kind: 'state-refused' | 'config-error' }> };

/** What a runner has found so far in one slot; a step not asked yet is absent. */
export interface SlotFacts {
  readonly config?: { readonly ok: true } | { readonly ok: false; readonly detail: string };
  readonly lock?: LockFact;
  /** The grid's missed slots were dealt with (closed, or not listable: the runner says so itself). */
  readonly missed?: true;
  readonly pause?: PauseDecision;
  readonly run?: RunFact;
}

/** The runner's next step, or the slot's one ending. */
export type SlotStep =
  | { readonly kind: 'read-config' }
  | { readonly kind: 'take-lock' }
  | { readonly kind: 'close-missed' }
  | { readonly kind: 'read-pause' }
  /** Run the slot's work, honouring this pause in part (or `run`: none). */
  | { readonly kind: 'run'; readonly pause: Exclude<PauseDecision, { kind: 'skip' }> }
  | { readonly kind: 'end'; readonly end: SlotEnd };

const ending = (end: SlotEnd): SlotStep => ({ kind: 'end', end });

/**
 * The order of a slot's decisions, the same for every runner: the config (unreadable:
 * `config-error`), the lock (held: `overlapping`; cannot: `lock-unavailable`), the missed slots,
 * the pause (whole: `paused`), then the run (`ran`, or refused: `state-refused`). Pure: the runner
 * does the I/O of each step and asks again with what it found, so every slot ends exactly once, and
 * when several endings apply the earliest step's wins.
 */
export function nextSlotStep(shape: SlotShape, facts: SlotFacts): SlotStep {
  if (shape.config && facts.config === undefined) return { kind: 'read-config' };
  if (facts.config?.ok === false) return ending({ kind: 'config-error', detail: facts.config.detail });
  const lock = facts.lock;
  if (shape.lock && lock === undefined) return { kind: 'take-lock' };
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
  if (shape.grid && facts.missed === undefined) return { kind: 'close-missed' };
  if (shape.pause && facts.pause === undefined) return { kind: 'read-pause' };
  const pause = facts.pause ?? { kind: 'run' };
  if (pause.kind === 'skip') return ending({ kind: 'paused', pause: pause.pause, line: pause.line });
  if (facts.run === undefined) return { kind: 'run', pause };
  return ending(facts.run.end);
}
