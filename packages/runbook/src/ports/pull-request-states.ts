import type { ResultAsync } from 'neverthrow';
import type { PullRequestRef } from '../model/runbook.js';

/** The state of a pull request as `gh pr view N --json state,mergedAt` reports it. */
export interface PullRequestState {
  readonly state: 'OPEN' | 'CLOSED' | 'MERGED';
  /** ISO instant of the merge; null when not merged. */
  readonly mergedAt: string | null;
}

/** Why a pull request's state could not be read. */
export type PullRequestStateError =
  | { readonly kind: 'not-found'; readonly ref: PullRequestRef; readonly message: string }
  | { readonly kind: 'auth'; readonly message: string }
  | { readonly kind: 'tool'; readonly message: string }
  | { readonly kind: 'malformed'; readonly message: string };

/** Reads pull request states for `lift when #N merges` triggers. */
export interface PullRequestStates {
  readonly read: (ref: PullRequestRef) => ResultAsync<PullRequestState, PullRequestStateError>;
}
