import type { LockRecord } from '@heartbeat-kit/core';
import { err, ok, type Result } from 'neverthrow';
import type { Halt } from './beat-plan.js';
import type { DispatchVerdict } from './dispatch-breaker.js';
import type { WorkedIssue } from './beat-types.js';

// A beat's steps return what they did beside their value (StepNotes); the beat folds every step's
// notes into its summary with foldNotes, the one place the summary grows. No step writes shared state.

/** What a beat has done so far: its result, its beat line and its receipt are made from it. */
export interface BeatSummary {
  readonly messages: readonly string[];
  readonly warnings: readonly string[];
  readonly worked: readonly WorkedIssue[];
  readonly suggestions: readonly string[];
  readonly verdicts: readonly DispatchVerdict[];
  /**
   * Issue lines this beat wrote: the beat line's `issues_worked` counts what the beat recorded, so
   * the log never shows a died beat when GitHub failed after an issue line was written.
   */
  readonly recorded: number;
  /** The beat owns the lock at its exit: the ownership rule deletes it after the receipt. */
  readonly releaseDue: boolean;
  readonly reportNotPosted?: number;
  readonly tookOverFrom?: LockRecord;
}

/** What one step says beside its value: lines to add, issue lines written (`recorded` is a count to add). */
export type StepNotes = Partial<BeatSummary>;

/** A summary of nothing done yet. */
export const EMPTY_SUMMARY: BeatSummary = {
  messages: [],
  warnings: [],
  worked: [],
  suggestions: [],
  verdicts: [],
  recorded: 0,
  releaseDue: false,
};

/**
 * Folds step notes into a summary, in order: lines are appended, `recorded` added, `releaseDue`
 * once set stays set, the later `reportNotPosted` / `tookOverFrom` wins. Pure.
 */
export function foldNotes(summary: BeatSummary, ...notes: readonly StepNotes[]): BeatSummary {
  return notes.reduce<BeatSummary>(
    (s, n) => ({
      messages: [...s.messages, ...(n.messages ?? [])],
      warnings: [...s.warnings, ...(n.warnings ?? [])],
      worked: [...s.worked, ...(n.worked ?? [])],
      suggestions: [...s.suggestions, ...(n.suggestions ?? [])],
      verdicts: [...s.verdicts, ...(n.verdicts ?? [])],
      recorded: s.recorded + (n.recorded ?? 0),
      releaseDue: s.releaseDue || n.releaseDue === true,
      ...((n.reportNotPosted ?? s.reportNotPosted) === undefined ? {} : { reportNotPosted: n.reportNotPosted ?? s.reportNotPosted }),
      ...((n.tookOverFrom ?? s.tookOverFrom) === undefined ? {} : { tookOverFrom: n.tookOverFrom ?? s.tookOverFrom }),
    }),
    summary,
  );
}

/** Several steps' notes as one (folded in order). */
export const joinNotes = (...notes: readonly StepNotes[]): StepNotes => foldNotes(EMPTY_SUMMARY, ...notes);

/** A step's outcome: its value or the halt it ended with, and what it did before either. */
export interface Stepped<T> {
  readonly result: Result<T, Halt>;
  readonly notes: StepNotes;
}

/** A step that got its value. */
export const stepped = <T>(value: T, notes: StepNotes = {}): Stepped<T> => ({ result: ok(value), notes });

/** A step that halted, with what it did before. */
export const halted = <T = never>(halt: Halt, notes: StepNotes = {}): Stepped<T> => ({ result: err(halt), notes });
