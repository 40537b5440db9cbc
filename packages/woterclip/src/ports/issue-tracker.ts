import type { ResultAsync } from 'neverthrow';

/** An inbox entry, as `gh issue list --json number,title,labels,createdAt` gives it. */
export interface IssueSummary {
  readonly number: number;
  readonly title: string;
  readonly labels: readonly string[];
  /** RFC 3339 instant. */
  readonly createdAt: string;
}

/** One issue comment. Comment authors carry only a login. */
export interface IssueComment {
  readonly author: string;
  readonly body: string;
  readonly createdAt: string;
  readonly url: string;
}

/** An issue with its body, labels and every comment, oldest first. */
export interface IssueDetail {
  readonly number: number;
  readonly title: string;
  readonly body: string;
  readonly labels: readonly string[];
  readonly comments: readonly IssueComment[];
}

/** A sub-issue as the REST list endpoint reports it. */
export interface SubIssueState {
  readonly number: number;
  readonly state: 'open' | 'closed';
}

/** A label change applied in one atomic call. */
export interface LabelEdit {
  readonly add?: readonly string[];
  readonly remove?: readonly string[];
}

/** How a new label looks. */
export interface LabelStyle {
  /** Six hex digits, no `#`. */
  readonly color?: string;
  readonly description?: string;
}

/** A new issue to create (always assigned to the authenticated account). */
export interface NewIssue {
  readonly title: string;
  readonly body: string;
  readonly labels: readonly string[];
}

/**
 * Why a tracker call failed. `auth` and `unavailable` mean no GitHub mutation is possible;
 * `label-not-found` is the one failure the loop repairs (create the label, retry the edit).
 */
export type TrackerError =
  | { readonly kind: 'unavailable'; readonly message: string }
  | { readonly kind: 'auth'; readonly message: string }
  /** GitHub's primary (403/`RATE_LIMITED`) or secondary (429) rate limit: retry later, nothing changed. */
  | { readonly kind: 'rate-limited'; readonly message: string }
  | { readonly kind: 'label-not-found'; readonly label: string; readonly message: string }
  | { readonly kind: 'not-found'; readonly message: string }
  | { readonly kind: 'failed'; readonly message: string }
  | { readonly kind: 'bad-output'; readonly message: string };

/**
 * The GitHub issues a beat works on, for one repository. The gh CLI adapter lives in
 * `@heartbeat-kit/woterclip/github`, an in-memory fake in `@heartbeat-kit/woterclip/testing`.
 */
export interface IssueTracker {
  /** The authenticated login; an error when gh is missing or not logged in. */
  readonly authStatus: () => ResultAsync<{ readonly login: string }, TrackerError>;
  /** Open issues assigned to the authenticated account (up to 100). */
  readonly listInbox: () => ResultAsync<readonly IssueSummary[], TrackerError>;
  readonly viewIssue: (issue: number) => ResultAsync<IssueDetail, TrackerError>;
  readonly viewLabels: (issue: number) => ResultAsync<readonly string[], TrackerError>;
  /**
   * One add/remove request; never rewrites the whole label set; an unknown added label changes
   * nothing. The gh adapter sends one GraphQL mutation (gh 2.23's `issue edit` sends two at once).
   */
  readonly editLabels: (issue: number, edit: LabelEdit) => ResultAsync<void, TrackerError>;
  /** Creates a repository label; `color` is hex without `#`. Fails when the label exists. */
  readonly createLabel: (name: string, style?: LabelStyle) => ResultAsync<void, TrackerError>;
  /** Names of the repository's labels (up to 200, like `gh label list --limit 200`). */
  readonly listLabels: () => ResultAsync<readonly string[], TrackerError>;
  /** Posts a comment; resolves to its URL when the tracker reports one. */
  readonly comment: (issue: number, body: string) => ResultAsync<{ readonly url?: string }, TrackerError>;
  readonly close: (issue: number) => ResultAsync<void, TrackerError>;
  readonly createIssue: (issue: NewIssue) => ResultAsync<{ readonly number: number }, TrackerError>;
  /** The REST id of an issue (not its number), which the sub-issue API wants. */
  readonly issueId: (issue: number) => ResultAsync<number, TrackerError>;
  readonly addSubIssue: (parent: number, subIssueId: number) => ResultAsync<void, TrackerError>;
  readonly listSubIssues: (parent: number) => ResultAsync<readonly SubIssueState[], TrackerError>;
}
