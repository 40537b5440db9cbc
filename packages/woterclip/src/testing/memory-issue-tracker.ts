import { errAsync, okAsync, ResultAsync } from 'neverthrow';
import type {
  IssueComment,
  IssueDetail,
  IssueSummary,
  IssueTracker,
  LabelEdit,
  NewIssue,
  SubIssueState,
  TrackerError,
} from '../ports/issue-tracker.js';

/** One issue as the fake keeps it. */
export interface FakeIssue {
  number: number;
  title: string;
  body: string;
  labels: string[];
  comments: IssueComment[];
  createdAt: string;
  state: 'open' | 'closed';
  assignedToMe: boolean;
  /** Numbers of attached children. */
  subIssues: number[];
}

/** A seed issue: only `number` and `title` are required. */
export type FakeIssueSeed = Partial<FakeIssue> & { readonly number: number; readonly title: string };

/** The port method names, for call logs and failure injection. */
export type TrackerOperation = keyof IssueTracker;

/** One recorded call. */
export interface TrackerCall {
  readonly op: TrackerOperation;
  readonly args: readonly unknown[];
}

/** Options of {@link createMemoryIssueTracker}. */
export interface MemoryIssueTrackerOptions {
  readonly login?: string;
  readonly issues?: readonly FakeIssueSeed[];
  /** Labels that exist on the repo; `editLabels` fails to add any other (like `gh issue edit`). */
  readonly repoLabels?: readonly string[];
  readonly repo?: string;
}

/** The in-memory tracker plus handles a test uses to inspect and steer it. */
export interface MemoryIssueTracker extends IssueTracker {
  readonly issues: Map<number, FakeIssue>;
  readonly repoLabels: Set<string>;
  /** Colours given to labels created through the port (upper-case hex). */
  readonly labelColors: Map<string, string>;
  readonly calls: TrackerCall[];
  /** Makes an operation fail (until cleared with `undefined`). */
  readonly failOn: (op: TrackerOperation, error: TrackerError | undefined) => void;
  /** Runs before every call, e.g. to let another beat take the lock mid-beat. */
  readonly beforeCall: (hook: ((call: TrackerCall) => void | Promise<void>) | undefined) => void;
  /** Adds a comment as `author` (for seeding human replies and forged markers). */
  readonly addComment: (issue: number, author: string, body: string, createdAt: string) => void;
  /** Calls that change GitHub state. */
  readonly mutations: () => TrackerCall[];
}

const MUTATING: ReadonlySet<TrackerOperation> = new Set(['editLabels', 'createLabel', 'comment', 'close', 'createIssue', 'addSubIssue']);

/**
 * An in-memory {@link IssueTracker} with gh's semantics: label edits fail on unknown labels, `close` keeps labels.
 *
 * @example
 * ```ts
 * import { createMemoryIssueTracker } from '@heartbeat-kit/woterclip/testing';
 *
 * const tracker = createMemoryIssueTracker({
 *   login: 'octocat',
 *   repoLabels: ['agent-working', 'agent-blocked'],
 *   issues: [{ number: 7, title: 'Fix login redirect' }],
 * });
 * ```
 */
export function createMemoryIssueTracker(options: MemoryIssueTrackerOptions = {}): MemoryIssueTracker {
  const login = options.login ?? 'octocat';
  const repo = options.repo ?? 'o/r';
  const issues = seedIssues(options.issues ?? []);
  const repoLabels = new Set(options.repoLabels ?? [...issues.values()].flatMap((i) => i.labels));
  const labelColors = new Map<string, string>();
  const calls: TrackerCall[] = [];
  const failures = new Map<TrackerOperation, TrackerError>();
  let hook: ((call: TrackerCall) => void | Promise<void>) | undefined;
  let commentSeq = 1000;

  const call = <T>(op: TrackerOperation, args: unknown[], body: () => ResultAsync<T, TrackerError>): ResultAsync<T, TrackerError> => {
    const record = { op, args };
    const run = async (): Promise<void> => {
      calls.push(record);
      if (hook !== undefined) await hook(record);
    };
    return ResultAsync.fromSafePromise<void, TrackerError>(run()).andThen(() => {
      const failure = failures.get(op);
      return failure === undefined ? body() : errAsync(failure);
    });
  };
  const find = (n: number): ResultAsync<FakeIssue, TrackerError> => findIssue(issues, n);
  const addComment = (n: number, author: string, body: string, createdAt: string): string => {
    const issue = issues.get(n);
    commentSeq += 1;
    const url = `https://github.com/${repo}/issues/${n}#issuecomment-${commentSeq}`;
    issue?.comments.push({ author, body, createdAt, url });
    return url;
  };

  return {
    issues,
    repoLabels,
    labelColors,
    calls,
    failOn: (op, error) => {
      if (error === undefined) failures.delete(op);
      else failures.set(op, error);
    },
    beforeCall: (h) => {
      hook = h;
    },
    addComment: (n, author, body, createdAt) => {
      addComment(n, author, body, createdAt);
    },
    mutations: () => calls.filter((c) => MUTATING.has(c.op)),
    authStatus: () => call('authStatus', [], () => okAsync({ login })),
    listInbox: () => call('listInbox', [], () => okAsync(inbox(issues))),
    viewIssue: (n) => call('viewIssue', [n], () => find(n).map(detail)),
    viewLabels: (n) => call('viewLabels', [n], () => find(n).map((i) => [...i.labels])),
    editLabels: (n, edit: LabelEdit) =>
      call('editLabels', [n, edit], () => find(n).andThen((issue) => editLabels(repoLabels, issue, edit))),
    createLabel: (name, style) =>
      call('createLabel', style === undefined ? [name] : [name, style], () => {
        if (repoLabels.has(name)) return errAsync({ kind: 'failed', message: `label with name "${name}" already exists` });
        repoLabels.add(name);
        if (style?.color !== undefined) labelColors.set(name, style.color.toUpperCase());
        return okAsync(undefined);
      }),
    listLabels: () => call('listLabels', [], () => okAsync([...repoLabels].slice(0, 200))),
    comment: (n, body) =>
      call('comment', [n, body], () => find(n).map(() => ({ url: addComment(n, login, body, new Date(0).toISOString()) }))),
    close: (n) =>
      call('close', [n], () =>
        find(n).map((i) => {
          i.state = 'closed';
        }),
      ),
    createIssue: (spec: NewIssue) => call('createIssue', [spec], () => createIssue(issues, repoLabels, spec)),
    issueId: (n) => call('issueId', [n], () => find(n).map((i) => 3_000_000_000 + i.number)),
    addSubIssue: (parent, id) => call('addSubIssue', [parent, id], () => find(parent).andThen((p) => addSubIssue(issues, p, id))),
    listSubIssues: (parent) =>
      call('listSubIssues', [parent], () =>
        find(parent).map((p) => p.subIssues.map((c): SubIssueState => ({ number: c, state: issues.get(c)?.state ?? 'open' }))),
      ),
  };
}

function seedIssues(seeds: readonly FakeIssueSeed[]): Map<number, FakeIssue> {
  const issues = new Map<number, FakeIssue>();
  for (const seed of seeds) {
    issues.set(seed.number, {
      body: '',
      labels: [],
      comments: [],
      createdAt: '2026-01-01T00:00:00Z',
      state: 'open',
      assignedToMe: true,
      subIssues: [],
      ...seed,
    });
  }
  return issues;
}

function findIssue(issues: ReadonlyMap<number, FakeIssue>, n: number): ResultAsync<FakeIssue, TrackerError> {
  const issue = issues.get(n);
  return issue === undefined ? errAsync({ kind: 'not-found', message: `issue #${n} not found` }) : okAsync(issue);
}

function detail(i: FakeIssue): IssueDetail {
  return { number: i.number, title: i.title, body: i.body, labels: [...i.labels], comments: i.comments.map((c) => ({ ...c })) };
}

/** Open issues assigned to me, newest first, at most 100 (gh issue list's default cap here). */
function inbox(issues: ReadonlyMap<number, FakeIssue>): IssueSummary[] {
  return [...issues.values()]
    .filter((i) => i.state === 'open' && i.assignedToMe)
    .sort((a, b) => b.number - a.number)
    .slice(0, 100)
    .map((i) => ({ number: i.number, title: i.title, labels: [...i.labels], createdAt: i.createdAt }));
}

function editLabels(repoLabels: ReadonlySet<string>, issue: FakeIssue, edit: LabelEdit): ResultAsync<void, TrackerError> {
  const missing = (edit.add ?? []).find((l) => !repoLabels.has(l));
  if (missing !== undefined)
    return errAsync<void, TrackerError>({
      kind: 'label-not-found',
      label: missing,
      message: `could not add label: '${missing}' not found`,
    });
  const remove = new Set(edit.remove ?? []);
  issue.labels = [
    ...issue.labels.filter((l) => !remove.has(l)),
    ...(edit.add ?? []).filter((l) => !issue.labels.includes(l) && !remove.has(l)),
  ];
  return okAsync<void, TrackerError>(undefined);
}

function createIssue(
  issues: Map<number, FakeIssue>,
  repoLabels: ReadonlySet<string>,
  spec: NewIssue,
): ResultAsync<{ number: number }, TrackerError> {
  const missing = spec.labels.find((l) => !repoLabels.has(l));
  if (missing !== undefined) return errAsync({ kind: 'failed', message: `could not add label: '${missing}' not found` });
  const number = Math.max(0, ...issues.keys()) + 1;
  issues.set(number, {
    number,
    title: spec.title,
    body: spec.body,
    labels: [...spec.labels],
    comments: [],
    createdAt: new Date(0).toISOString(),
    state: 'open',
    assignedToMe: true,
    subIssues: [],
  });
  return okAsync({ number });
}

function addSubIssue(issues: ReadonlyMap<number, FakeIssue>, parent: FakeIssue, id: number): ResultAsync<void, TrackerError> {
  const child = id - 3_000_000_000;
  if (!issues.has(child)) return errAsync<void, TrackerError>({ kind: 'failed', message: 'Validation Failed (HTTP 422)' });
  if (!parent.subIssues.includes(child)) parent.subIssues.push(child);
  return okAsync<void, TrackerError>(undefined);
}
