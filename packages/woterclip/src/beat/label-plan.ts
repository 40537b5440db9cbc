import { STATUS_LABELS } from '../inbox/inbox.js';
import type { IssueStatus } from '../log/log-lines.js';
import type { LabelEdit, SubIssueState } from '../ports/issue-tracker.js';
import { canCloseParent } from '../subissues/sub-issues.js';

/** The repository's working and blocked labels (`labels.working`, `labels.blocked` in config.yaml). */
export interface BeatLabels {
  readonly working: string;
  readonly blocked: string;
}

/**
 * Step 6: the edit that locks an issue for this beat, or undefined when it already carries the
 * working label and not the blocked one. Picking up a blocked issue drops the blocked label in the
 * same atomic edit.
 */
export function planPickUp(labels: readonly string[], names: BeatLabels): LabelEdit | undefined {
  const blocked = labels.includes(names.blocked);
  if (labels.includes(names.working) && !blocked) return undefined;
  return { add: [names.working], ...(blocked ? { remove: [names.blocked] } : {}) };
}

/** What step 10 needs to know about the issue just reported on. */
export interface LabelTransitionInput {
  /** The status of the report just posted. */
  readonly status: IssueStatus;
  /** The issue's labels as read before the report. */
  readonly labels: readonly string[];
  readonly names: BeatLabels;
  /** Whether the outcome lists a pull request (a completed issue then waits in review, it is not closed). */
  readonly openedPullRequest: boolean;
  /** The label of the persona that worked the issue; `null` for the default persona (no label). */
  readonly personaLabel: string | null;
  /**
   * Set when the outcome escalates to a configured persona: that persona's label (`null` for the
   * default persona). Undefined when there is no escalation or its target is not a persona (`board`).
   */
  readonly escalationLabel?: string | null;
}

/**
 * Step 10's label change. `edit` is one atomic call (absent when nothing changes); `close` means:
 * after the edit, close the issue unless its sub-issues say otherwise ({@link planParentClose}).
 */
export interface LabelTransitionPlan {
  readonly edit?: LabelEdit;
  readonly close: boolean;
}

/**
 * Step 10 (reference §10) as a pure plan: blocked swaps working for blocked in one edit; completed
 * drops working and in-progress, then closes, or moves to in-review when a PR was opened; in
 * progress keeps working, ensures in-progress and swaps the persona label on escalation; triaged
 * and decomposed drop working (decomposed also in-progress).
 */
export function planLabelTransition(input: LabelTransitionInput): LabelTransitionPlan {
  const { names, labels } = input;
  const statusOnIssue = [STATUS_LABELS.inProgress].filter((l) => labels.includes(l));
  switch (input.status) {
    case 'blocked':
      return { edit: { remove: [names.working], add: [names.blocked] }, close: false };
    case 'completed':
      return input.openedPullRequest
        ? { edit: { add: [STATUS_LABELS.inReview], remove: [names.working, ...statusOnIssue] }, close: false }
        : { edit: { remove: [names.working, ...statusOnIssue] }, close: true };
    case 'in_progress': {
      const target = input.escalationLabel;
      // Escalation swaps the persona label in one edit. The default persona has no label (null),
      // so escalating from it only adds the target's label and escalating to it only removes the
      // current one. A target that is not a configured persona changes no label.
      const escalates = target !== undefined && target !== input.personaLabel;
      const add = [
        ...(labels.includes(STATUS_LABELS.inProgress) ? [] : [STATUS_LABELS.inProgress]),
        ...(escalates && target !== null ? [target] : []),
      ];
      const remove = escalates && input.personaLabel !== null ? [input.personaLabel] : [];
      if (add.length === 0 && remove.length === 0) return { close: false };
      return { edit: { ...(add.length > 0 ? { add } : {}), ...(remove.length > 0 ? { remove } : {}) }, close: false };
    }
    case 'triaged':
      return { edit: { remove: [names.working] }, close: false };
    case 'decomposed':
      return { edit: { remove: [names.working, ...statusOnIssue] }, close: false };
  }
}

/** Whether a completed issue is closed, or left open with the reason the operator reads. */
export type ParentCloseDecision = { readonly kind: 'close' } | { readonly kind: 'leave-open'; readonly reason: string };

/**
 * A completed issue closes unless it is a parent whose work is not done (reference §12): an issue
 * with sub-issues, or one this project decomposed, closes only when its sub-issue list is
 * non-empty and all closed. An issue never decomposed and without sub-issues closes as usual.
 */
export function planParentClose(subIssues: readonly SubIssueState[], decomposed: boolean): ParentCloseDecision {
  if ((subIssues.length > 0 || decomposed) && !canCloseParent(subIssues, [])) {
    const open = subIssues.filter((sub) => sub.state !== 'closed').map((sub) => `#${sub.number}`);
    return {
      kind: 'leave-open',
      reason: subIssues.length === 0 ? 'it was decomposed but lists no sub-issues' : `sub-issues still open: ${open.join(', ')}`,
    };
  }
  return { kind: 'close' };
}
