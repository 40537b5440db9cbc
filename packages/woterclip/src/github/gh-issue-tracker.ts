import { type CommandError, type CommandOutput, type CommandRunner, sanitizeForMessage } from '@heartbeat-kit/core';
import { errAsync, okAsync, type ResultAsync } from 'neverthrow';
import { z } from 'zod';
import { editLabelNames, labelEditRequest, labelIdsRequest } from './gh-label-edit.js';
import type {
  IssueComment,
  IssueDetail,
  IssueSummary,
  IssueTracker,
  LabelEdit,
  LabelStyle,
  NewIssue,
  SubIssueState,
  TrackerError,
} from '../ports/issue-tracker.js';

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

const labelsSchema = z.array(z.object({ name: z.string() }));
const listSchema = z.array(z.object({ number: z.number().int(), title: z.string(), labels: labelsSchema, createdAt: z.string() }));
const viewSchema = z.object({
  number: z.number().int(),
  title: z.string(),
  body: z.string().nullable(),
  labels: labelsSchema,
  comments: z.array(
    z.object({ author: z.object({ login: z.string() }).nullable(), body: z.string(), createdAt: z.string(), url: z.string() }),
  ),
});
const idSchema = z.object({ id: z.number().int() });
const subIssuesSchema = z.array(z.object({ number: z.number().int(), state: z.string() }));

const labelIdsSchema = z.object({
  data: z.object({
    repository: z
      .object({ issue: z.object({ id: z.string() }).nullable() })
      .catchall(z.object({ id: z.string(), name: z.string() }).nullable()),
  }),
});

/** The colour `createLabel` gives a label when the caller names none (GitHub's default grey). */
export const DEFAULT_LABEL_COLOR = 'EDEDED';

const REPO_PATTERN = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

/** Parses gh's auth status text: the active account's login (current and pre-2.40 formats). */
export function parseAuthLogin(text: string): string | undefined {
  const accounts = [...text.matchAll(/✓ Logged in to \S+ (?:account|as) ([A-Za-z0-9-]+(?:\[bot\])?) \(/g)];
  const blocks = text.split(/\n\s*\n/);
  for (const block of blocks) {
    const m = /✓ Logged in to \S+ account ([A-Za-z0-9-]+) \(/.exec(block);
    if (m?.[1] !== undefined && /Active account: true/.test(block)) return m[1];
  }
  return accounts[0]?.[1];
}

/**
 * Splits gh `--paginate` output (JSON arrays printed back to back) into its values. Strings are
 * tracked so brackets inside them never split a value.
 */
export function parseJsonSequence(text: string): unknown[] {
  const values: unknown[] = [];
  let depth = 0;
  let inString = false;
  let escaped = false;
  let start = -1;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '[' || ch === '{') {
      if (depth === 0) start = i;
      depth += 1;
    } else if (ch === ']' || ch === '}') {
      depth -= 1;
      if (depth === 0 && start >= 0) {
        values.push(JSON.parse(text.slice(start, i + 1)));
        start = -1;
      }
    }
  }
  if (depth !== 0) throw new SyntaxError('unterminated JSON');
  return values;
}

function firstLine(text: string): string {
  return sanitizeForMessage(text.trim().split('\n')[0] ?? '', { maxLength: 240 });
}

/**
 * Maps a finished gh run to a tracker error. Texts are those real gh prints (fixtures captured from
 * gh 2.23.0 in test/fixtures/gh-captured): an expired token is exit 1 with `Bad credentials`/`401`,
 * never exit 4 (that is only "never logged in"); `issue edit` names an unknown label as
 * `'x' not found`, `issue create` (and gh ≥ 2.3x's edit) as `could not add label: 'x' not found`.
 */
export function classifyGhFailure(output: CommandOutput): TrackerError {
  const stderr = output.stderr;
  const label = /^(?:could not add label: )?'([^'\n]+)' not found$/m.exec(stderr.trim());
  if (label?.[1] !== undefined) return { kind: 'label-not-found', label: label[1], message: firstLine(stderr) };
  if (output.exitCode === 4 || /gh auth login|not logged in|Bad credentials|HTTP 401|\b401 Unauthorized/i.test(stderr))
    return { kind: 'auth', message: `${firstLine(stderr) || 'gh is not authenticated'}; run \`gh auth login\`` };
  if (/rate limit exceeded|secondary rate limit|HTTP 429|\b429 Too Many Requests/i.test(stderr))
    return { kind: 'rate-limited', message: `GitHub rate limit: ${firstLine(stderr)}; nothing was changed, the next beat retries` };
  if (/\(HTTP 404\)|Could not resolve to an? /i.test(stderr)) return { kind: 'not-found', message: firstLine(stderr) };
  return { kind: 'failed', message: firstLine(stderr) || `gh exited ${output.exitCode}` };
}

/** The oldest gh this adapter is tested against (Debian bookworm's 2.23.0, in CI). */
export const MIN_GH_VERSION = '2.23.0';

/** Parses `gh --version` (`gh version 2.23.0 (2023-02-27 …)`) into `[major, minor, patch]`. */
export function parseGhVersion(text: string): readonly [number, number, number] | undefined {
  const m = /^gh version (\d+)\.(\d+)\.(\d+)\b/m.exec(text);
  return m === null ? undefined : [Number(m[1]), Number(m[2]), Number(m[3])];
}

/** Why `gh --version` output is not usable: too old (naming both versions and the fix), or unreadable. */
export function checkGhVersion(text: string, minimum: string = MIN_GH_VERSION): TrackerError | undefined {
  const found = parseGhVersion(text);
  if (found === undefined)
    return { kind: 'bad-output', message: `gh --version printed no "gh version X.Y.Z" line: ${firstLine(text) || '(nothing)'}` };
  const min = parseGhVersion(`gh version ${minimum}`) ?? [0, 0, 0];
  const older = found[0] !== min[0] ? found[0] < min[0] : found[1] !== min[1] ? found[1] < min[1] : found[2] < min[2];
  return older
    ? {
        kind: 'unavailable',
        message: `gh ${found.join('.')} is older than ${minimum}, the oldest gh heartbeat-kit supports; upgrade the GitHub CLI (https://github.com/cli/cli#installation) and run the beat again`,
      }
    : undefined;
}

/** gh auth status's failure, from the lines that say what is wrong (gh puts the host alone on the first). */
function authFailure(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim().replace(/^[X✓-]\s+/, ''))
    .filter((l) => l !== '' && !/^\S+$/.test(l) && !/^To (re-authenticate|forget)/.test(l));
  const text = sanitizeForMessage(lines.slice(0, 2).join('; '), { maxLength: 240 });
  return `gh auth status failed: ${text || 'not authenticated'}; run \`gh auth login\``;
}

function fromCommandError(error: CommandError): TrackerError {
  if (error.kind === 'not-found')
    return { kind: 'unavailable', message: 'gh is not installed or not on PATH; install the GitHub CLI and run `gh auth login`' };
  return { kind: 'failed', message: `gh ${error.kind}` };
}

function parseWith<T>(schema: z.ZodType<T>, text: string, what: string): ResultAsync<T, TrackerError> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return errAsync({ kind: 'bad-output', message: `gh ${what}: output is not JSON` });
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? okAsync(parsed.data) : errAsync({ kind: 'bad-output', message: `gh ${what}: unexpected JSON shape` });
}

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

function toIssueDetail(i: z.infer<typeof viewSchema>): IssueDetail {
  return {
    number: i.number,
    title: i.title,
    body: i.body ?? '',
    labels: i.labels.map((l) => l.name),
    comments: i.comments.map((c): IssueComment => ({
      author: c.author?.login ?? 'ghost',
      body: c.body,
      createdAt: c.createdAt,
      url: c.url,
    })),
  };
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

/** The comment's URL from what `gh issue comment` printed, when it printed one. */
function commentUrl(stdout: string): { url?: string } {
  const url = stdout
    .trim()
    .split('\n')
    .find((l) => /^https:\/\/\S+$/.test(l));
  return url === undefined ? {} : { url };
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

function parseSubIssues(stdout: string): ResultAsync<SubIssueState[], TrackerError> {
  let pages: unknown[];
  try {
    pages = parseJsonSequence(stdout);
  } catch {
    return errAsync<SubIssueState[], TrackerError>({ kind: 'bad-output', message: 'gh api sub_issues: output is not JSON' });
  }
  const parsed = subIssuesSchema.safeParse(pages.flat());
  if (!parsed.success)
    return errAsync<SubIssueState[], TrackerError>({ kind: 'bad-output', message: 'gh api sub_issues: unexpected JSON shape' });
  return okAsync(parsed.data.map((s): SubIssueState => ({ number: s.number, state: s.state === 'closed' ? 'closed' : 'open' })));
}
