import { sanitizeForMessage } from '@heartbeat-kit/core';
import type { Result } from 'neverthrow';
import type { WoterclipConfig } from '../config/woterclip-config.js';
import type { Outcome } from '../dispatch/outcome.js';
import type { InboxEntry } from '../inbox/inbox.js';
import type { DispatchFailure, DispatchReport } from '../ports/dispatcher.js';
import type { IssueComment } from '../ports/issue-tracker.js';
import { lastHeartbeatComment } from '../report/comments.js';
import type { ChildSpec, CreatedChild } from '../subissues/sub-issues.js';
import type { DispatchVerdict } from './dispatch-breaker.js';
import type { BeatExit, WorkedIssue } from './beat-types.js';
import type { StopReason } from './stop-reasons.js';

// The pure decisions of a beat: the session in run-beat.ts reads and writes through the ports and
// asks these what to do. Each is a function of its arguments only.

/** The beat's exit for each stop reason (the CLI maps the exit to its process exit code). */
export const EXIT_BY_REASON = {
  complete: 'complete',
  queue_empty: 'queue-empty',
  issue_budget: 'issue-budget',
  time_ceiling: 'time-ceiling',
  blocked_exit: 'blocked-exit',
  quiet_hours: 'quiet-hours',
  lock_conflict: 'lock-conflict',
} as const satisfies Record<StopReason, BeatExit>;

/**
 * Why the beat stops mid-work: it lost its lock (silent, the lock is the successor's), the Board
 * removed the working label from the issue in hand (silent on the issue, the lock is released), or
 * GitHub is failing (`blocked_exit`).
 */
export type Halt =
  | { readonly kind: 'superseded' }
  | { readonly kind: 'withdrawn'; readonly issue: number }
  | { readonly kind: 'gh-failed'; readonly message: string }
  | { readonly kind: 'interrupted'; readonly issue?: number };

/**
 * How the beat ends after a {@link Halt}: `silent` (superseded: no comment, no beat line, no lock
 * deletion), `withdrawn` (the lock is released, no beat line), or `finish` with a stop reason and the
 * beat line. A withdrawal after issue lines were written still finishes `complete`, so the log never
 * shows those lines without the beat line that closes them.
 */
export type HaltPlan =
  | { readonly kind: 'silent' }
  | { readonly kind: 'withdrawn'; readonly note: string }
  | { readonly kind: 'interrupted'; readonly note: string }
  | { readonly kind: 'finish'; readonly reason: Extract<StopReason, 'complete' | 'blocked_exit'>; readonly extra: readonly string[] };

const clean = (text: string, max = 300): string => sanitizeForMessage(text, { maxLength: max });

/** The end of a beat that halted: see {@link HaltPlan}. `recorded` counts the issue lines this beat wrote. */
export function planHalt(
  halt: Halt,
  context: { readonly recorded: number; readonly workingLabel: string; readonly staleHours?: number },
): HaltPlan {
  switch (halt.kind) {
    case 'superseded':
      return { kind: 'silent' };
    case 'withdrawn': {
      const note = `#${halt.issue}: ${context.workingLabel} was removed while the agent worked; nothing posted, beat stopped.`;
      return context.recorded > 0 ? { kind: 'finish', reason: 'complete', extra: [note] } : { kind: 'withdrawn', note };
    }
    case 'gh-failed':
      return { kind: 'finish', reason: 'blocked_exit', extra: [`GitHub failed: ${clean(halt.message)}`] };
    case 'interrupted': {
      // Nothing more is posted after the signal (the runner refuses new commands): say what is left.
      const inHand =
        halt.issue === undefined
          ? ''
          : ` #${halt.issue} may keep ${context.workingLabel}: a later beat cleans it as stale` +
            `${context.staleHours === undefined ? '' : ` after ${context.staleHours} h`}, or remove it now ` +
            `(gh issue edit ${halt.issue} --remove-label ${context.workingLabel}).`;
      return { kind: 'interrupted', note: `Interrupted by a signal: the beat stopped; no beat line written.${inHand}` };
    }
  }
}

/** The stop when the queue runs out: `queue_empty` with its line when nothing was worked, else `complete`. */
export function planQueueEnd(workedCount: number): {
  readonly reason: Extract<StopReason, 'queue_empty' | 'complete'>;
  readonly extra: readonly string[];
} {
  return workedCount === 0 ? { reason: 'queue_empty', extra: ['No issues in queue.'] } : { reason: 'complete', extra: [] };
}

/**
 * Step 2's stale-label rule: an issue carries the working label but has no heartbeat comment by
 * `login` younger than `staleMs` (reference: stale `agent-working`). No comment at all is stale.
 */
export function isStaleWorking(comments: readonly IssueComment[], login: string, nowMs: number, staleMs: number): boolean {
  const last = lastHeartbeatComment(comments, login);
  const lastMs = last === undefined ? Number.NEGATIVE_INFINITY : Date.parse(last.comment.createdAt);
  return !(nowMs - lastMs < staleMs);
}

/** What the closing suggestions look at. */
export interface ClosingInput {
  /** The inbox for any persona (without the triage-only and `--persona` filters), as read at step 2. */
  readonly anyPersona: readonly InboxEntry[];
  readonly worked: readonly WorkedIssue[];
  /** How many issues carry the blocked label now (as read, updated by this beat's outcomes). */
  readonly blockedCount: number;
}

/**
 * The suggestions a beat ends with: pause the schedule when no todo issue remains, ask for the
 * Board when 3 or more issues are blocked. An issue worked this beat still waits when it stayed
 * in progress, or was triaged or decomposed into work for a persona; completed and blocked ones do not.
 */
export function closingSuggestions(input: ClosingInput): string[] {
  const done = new Set(input.worked.filter((w) => w.status === 'completed' || w.status === 'blocked').map((w) => w.issue));
  const workedNumbers = new Set(input.worked.map((w) => w.issue));
  const todoLeft =
    input.anyPersona.filter((e) => !workedNumbers.has(e.issue.number)).length + input.worked.filter((w) => !done.has(w.issue)).length;
  const suggestions: string[] = [];
  if (todoLeft === 0) suggestions.push('No todo issues remain: consider pausing the heartbeat schedule.');
  if (input.blockedCount >= 3)
    suggestions.push(`${input.blockedCount} issues are blocked: the Board's attention is needed more than further heartbeats.`);
  return suggestions;
}

/** How one dispatch counts for the dispatch breaker: an outcome is a clean run, a failure names its kind and issue. */
export function dispatchVerdict(dispatched: Result<DispatchReport, DispatchFailure>, issue: number): DispatchVerdict {
  return dispatched.isOk() ? { ok: true } : { ok: false, kind: dispatched.error.kind, message: dispatched.error.message, issue };
}

/** The sub-issues an outcome lists: lines for those the agent already created, specs for those the loop creates. */
export interface SubIssuePlan {
  readonly listed: readonly string[];
  readonly toCreate: readonly ChildSpec[];
}

/** Step 8's decomposition: which sub-issues of the outcome exist already and which the loop creates, with their persona labels. */
export function planSubIssues(outcome: Outcome, personas: WoterclipConfig['personas']): SubIssuePlan {
  const listed = outcome.subIssues.flatMap((s) =>
    s.number === undefined ? [] : [`#${s.number} — ${clean(s.title, 200)} (${clean(s.persona, 40)})`],
  );
  const toCreate = outcome.subIssues
    .filter((s) => s.number === undefined)
    .map((s): ChildSpec => ({
      title: s.title,
      persona: s.persona,
      personaLabel: personas[s.persona]?.label ?? null,
      ...(s.body === undefined ? {} : { body: s.body }),
      ...(s.blocking === undefined ? {} : { blocking: s.blocking }),
    }));
  return { listed, toCreate };
}

/** The report's line for a sub-issue the loop created. */
export function createdChildLine(child: CreatedChild): string {
  return `#${child.number} — ${clean(child.title, 200)} (${child.persona})${child.attached ? '' : ' — unattached'}`;
}

/** Whole seconds from `startMs` to `nowMs`, never negative (a clock stepped back reads 0). */
export function elapsedSeconds(startMs: number, nowMs: number): number {
  return Math.max(0, Math.floor((nowMs - startMs) / 1000));
}

/** An instant as the log writes it: ISO 8601 to the second, `Z`. */
export function isoSeconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
