import type { CommandOutput, CommandRunner } from '@heartbeat-kit/core';
import { errAsync, okAsync, type ResultAsync } from 'neverthrow';
import { z } from 'zod';
import { authFailure, checkGhVersion, classifyGhFailure, fromCommandError } from './gh-failures.js';
import { editLabelNames, labelEditRequest, labelIdsRequest } from './gh-label-edit.js';
import {
  commentUrl,
  idSchema,
  labelIdsSchema,
  labelsSchema,
  listSchema,
  parseAuthLogin,
  parseSubIssues,
  parseWith,
  toIssueDetail,
  viewSchema,
} from './gh-output.js';
import type { IssueSummary, IssueTracker, LabelEdit, LabelStyle, NewIssue, TrackerError } from '../ports/issue-tracker.js';

/** Options of {@link createGhIssueTracker}. */
export interface GhIssueTrackerOptions {
  readonly runner: CommandRunner;
  /** `owner/name`: always passed as `--repo`, never the working directory's remote. */
  readonly repo: string;
  /** The gh executable (default `gh`). */
  readonly gh?: string;
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  /** The oldest gh accepted (default {@link MIN_GH_VERSION}); an older one fails `authStatus` as `unavailable`. */
  readonly minVersion?: string;
}

/** The colour `createLabel` gives a label when the caller names none (GitHub's default grey). */
export const DEFAULT_LABEL_COLOR = 'EDEDED';

const REPO_PATTERN = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

/**
 * The gh CLI adapter of {@link IssueTracker}. Every call is an argument vector with `--repo`;
 * outside values go in `--flag=value` form or on stdin (bodies), so a title or label starting
 * with `-` is never read as an option, and no shell ever sees them.
 *
 * @example
 * ```ts
 * import { createProcessRunner } from '@heartbeat-kit/core/node';
 * import { createGhIssueTracker } from '@heartbeat-kit/woterclip/github';
 *
 * // Every call runs `gh … --repo owner/name` as an argument vector; errors map to a closed union.
 * const tracker = createGhIssueTracker({ runner: createProcessRunner({ timeoutMs: 60_000 }), repo: 'acme/widgets' });
 * ```
 */
export function createGhIssueTracker(options: GhIssueTrackerOptions): IssueTracker {
  if (!REPO_PATTERN.test(options.repo)) throw new RangeError(`repo must be "owner/name", got ${JSON.stringify(options.repo)}`);
  const repo = options.repo;
  const gh: Gh = { repo, run: ghRun(options) };
  const { run } = gh;
  const view = (n: number, fields: string): ResultAsync<CommandOutput, TrackerError> =>
    run(['issue', 'view', num(n), `--repo=${repo}`, `--json=${fields}`]);

  // `gh --version` is read once per tracker, before the first `auth status` (a beat's step 5).
  let versionChecked: ResultAsync<void, TrackerError> | undefined;
  const checkVersion = (): ResultAsync<void, TrackerError> => {
    versionChecked ??= run(['--version']).andThen((o) => {
      const problem = checkGhVersion(o.stdout, options.minVersion);
      return problem === undefined ? okAsync(undefined) : errAsync(problem);
    });
    return versionChecked;
  };

  return {
    authStatus: () => checkVersion().andThen(() => authStatus(gh)),
    listInbox: () =>
      run(['issue', 'list', `--repo=${repo}`, '--assignee=@me', '--state=open', '--json=number,title,labels,createdAt', '--limit=100'])
        .andThen((o) => parseWith(listSchema, o.stdout, 'issue list'))
        .map((issues): IssueSummary[] =>
          issues.map((i) => ({ number: i.number, title: i.title, labels: i.labels.map((l) => l.name), createdAt: i.createdAt })),
        ),
    viewIssue: (n) =>
      view(n, 'number,title,body,labels,comments').andThen((o) => parseWith(viewSchema, o.stdout, 'issue view').map(toIssueDetail)),
    viewLabels: (n) =>
      view(n, 'labels')
        .andThen((o) => parseWith(z.object({ labels: labelsSchema }), o.stdout, 'issue view'))
        .map((i) => i.labels.map((l) => l.name)),
    editLabels: (n, edit) => editLabels(gh, n, edit),
    createLabel: (name, style = {}) => createLabel(gh, name, style),
    listLabels: () =>
      run(['label', 'list', `--repo=${repo}`, '--limit=200', '--json=name'])
        .andThen((o) => parseWith(z.array(z.object({ name: z.string() })), o.stdout, 'label list'))
        .map((labels) => labels.map((l) => l.name)),
    comment: (n, body) => run(['issue', 'comment', num(n), `--repo=${repo}`, '--body-file=-'], body).map((o) => commentUrl(o.stdout)),
    close: (n) => run(['issue', 'close', num(n), `--repo=${repo}`]).map(() => undefined),
    createIssue: (spec) => createIssue(gh, spec),
    issueId: (n) =>
      run(['api', `repos/${repo}/issues/${num(n)}`])
        .andThen((o) => parseWith(idSchema, o.stdout, 'api issue'))
        .map((i) => i.id),
    addSubIssue: (parent, id) => {
      if (!Number.isSafeInteger(id) || id <= 0)
        return errAsync({ kind: 'failed', message: `sub-issue id must be a positive integer, got ${id}` });
      // -F sends an integer; -f would send a string, which the API rejects.
      return run(['api', `repos/${repo}/issues/${num(parent)}/sub_issues`, '-F', `sub_issue_id=${id}`]).map(() => undefined);
    },
    listSubIssues: (parent) =>
      run(['api', '--paginate', `repos/${repo}/issues/${num(parent)}/sub_issues?per_page=100`]).andThen((o) => parseSubIssues(o.stdout)),
  };
}

/** Runs gh with these arguments (and stdin); a non-zero exit is a classified error unless `okExit`. */
type GhRun = (args: readonly string[], input?: string, okExit?: boolean) => ResultAsync<CommandOutput, TrackerError>;

/** What every call of one tracker shares: its repository and how gh is run. */
interface Gh {
  readonly repo: string;
  readonly run: GhRun;
}

function ghRun(options: GhIssueTrackerOptions): GhRun {
  const gh = options.gh ?? 'gh';
  return (args, input, okExit = false) =>
    options.runner
      .run({
        file: gh,
        args,
        profile: 'gh',
        ...(input === undefined ? {} : { input }),
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
        env: { GH_PROMPT_DISABLED: '1', NO_COLOR: '1', GH_NO_UPDATE_NOTIFIER: '1', ...(options.env ?? {}) },
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      })
      .mapErr(fromCommandError)
      .andThen((output) => (output.exitCode === 0 || okExit ? okAsync(output) : errAsync(classifyGhFailure(output))));
}

/** An issue number as gh's argument; anything but a positive integer is a caller's bug, thrown at once. */
function num(n: number): string {
  if (!Number.isSafeInteger(n) || n <= 0) throw new RangeError(`issue number must be a positive integer, got ${n}`);
  return String(n);
}

function authStatus(gh: Gh): ResultAsync<{ login: string }, TrackerError> {
  return gh.run(['auth', 'status'], undefined, true).andThen((output) => {
    if (output.exitCode !== 0) {
      return errAsync<{ login: string }, TrackerError>({ kind: 'auth', message: authFailure(output.stderr) });
    }
    const login = parseAuthLogin(`${output.stdout}\n${output.stderr}`);
    return login === undefined
      ? errAsync<{ login: string }, TrackerError>({ kind: 'bad-output', message: 'gh auth status: no logged-in account found' })
      : okAsync({ login });
  });
}

// One read resolves the ids, then ONE mutation request carries the whole transition (gh-label-edit.ts says why).
function editLabels(gh: Gh, n: number, edit: LabelEdit): ResultAsync<void, TrackerError> {
  const names = editLabelNames(edit);
  const [owner = '', name = ''] = gh.repo.split('/');
  return gh
    .run(['api', 'graphql', '--input=-'], labelIdsRequest(owner, name, Number(num(n)), names))
    .andThen((o) => parseWith(labelIdsSchema, o.stdout, 'api graphql'))
    .andThen(({ data: { repository } }) => {
      if (repository.issue === null) return errAsync<void, TrackerError>({ kind: 'not-found', message: `issue #${n} not found` });
      const ids = names.map((_, i) => repository[`l${i}`] as { id: string } | null | undefined);
      const addCount = (edit.add ?? []).length;
      const missing = names.slice(0, addCount).find((_, i) => ids[i] == null);
      if (missing !== undefined)
        return errAsync<void, TrackerError>({ kind: 'label-not-found', label: missing, message: `'${missing}' not found` });
      const add = ids.slice(0, addCount).flatMap((l) => (l == null ? [] : [l.id]));
      // A label the repository does not have is on no issue: nothing to remove.
      const remove = ids.slice(addCount).flatMap((l) => (l == null ? [] : [l.id]));
      if (add.length === 0 && remove.length === 0) return okAsync<void, TrackerError>(undefined);
      return gh.run(['api', 'graphql', '--input=-'], labelEditRequest(repository.issue.id, add, remove)).map(() => undefined);
    });
}

function createLabel(gh: Gh, name: string, style: LabelStyle): ResultAsync<void, TrackerError> {
  if (style.color !== undefined && !/^[0-9A-Fa-f]{6}$/.test(style.color))
    return errAsync({ kind: 'failed', message: `label colour must be six hex digits, got ${JSON.stringify(style.color)}` });
  return gh
    .run([
      'label',
      'create',
      `--repo=${gh.repo}`,
      // Without --color gh 2.23 picks a random colour: GitHub's default grey instead.
      `--color=${style.color ?? DEFAULT_LABEL_COLOR}`,
      ...(style.description === undefined ? [] : [`--description=${style.description}`]),
      '--',
      name,
    ])
    .map(() => undefined);
}

function createIssue(gh: Gh, spec: NewIssue): ResultAsync<{ number: number }, TrackerError> {
  return gh
    .run(
      [
        'issue',
        'create',
        `--repo=${gh.repo}`,
        `--title=${spec.title}`,
        '--body-file=-',
        ...spec.labels.map((l) => `--label=${l}`),
        '--assignee=@me',
      ],
      spec.body,
    )
    .andThen((o) => {
      const m = /\/issues\/(\d+)\s*$/.exec(o.stdout.trim());
      return m?.[1] === undefined
        ? errAsync<{ number: number }, TrackerError>({ kind: 'bad-output', message: 'gh issue create: no issue URL in output' })
        : okAsync({ number: Number(m[1]) });
    });
}
