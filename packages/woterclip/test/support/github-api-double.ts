import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseSelection, project } from './graphql-selection.js';
import type { LoopbackTls } from './loopback-tls.js';

/** One issue (or pull request) of the double's repository. */
export interface DoubleIssue {
  number: number;
  /** The REST id: what the sub-issue API takes, never the number. */
  readonly id: number;
  title: string;
  body: string;
  state: 'OPEN' | 'CLOSED';
  labels: string[];
  assignees: string[];
  comments: { id: number; author: string; body: string; createdAt: string }[];
  subIssues: number[];
  createdAt: string;
}

/** A pull request, for `gh pr view`. */
export interface DoublePullRequest {
  readonly number: number;
  state: 'OPEN' | 'CLOSED' | 'MERGED';
  mergedAt: string | null;
}

/** The repository the double serves, mutated by the requests it answers. */
export interface DoubleRepo {
  readonly owner: string;
  readonly name: string;
  readonly login: string;
  readonly labels: { name: string; color: string; description: string }[];
  readonly issues: DoubleIssue[];
  readonly pulls: DoublePullRequest[];
}

/** What the double received, in order: method, path and the GraphQL operation or JSON body. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  /** GraphQL operation name (`IssueByNumber`), absent for REST. */
  readonly operation?: string;
  readonly variables?: unknown;
  readonly body?: unknown;
  readonly status: number;
}

/** A GitHub failure the double answers with instead of the state. */
export type DoubleFault = 'unauthenticated' | 'rate-limited' | 'secondary-rate-limit';

/** A running double. */
export interface GitHubApiDouble {
  /** `localhost:PORT`: gh's `GH_HOST`. */
  readonly host: string;
  readonly repo: DoubleRepo;
  readonly requests: readonly RecordedRequest[];
  /** Requests the double had no answer for: a test must fail when this is not empty. */
  readonly unknown: readonly string[];
  /** From now on every request whose description matches `when` (default all) fails with `fault`. */
  readonly fault: (
    fault: DoubleFault | undefined,
    when?: (request: { method: string; path: string; operation?: string }) => boolean,
  ) => void;
  readonly close: () => Promise<void>;
}

const DOCS = 'https://docs.github.com/rest';
const RATE_DOCS = 'https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting';
const FIXED_RESET = 1_784_714_400;

interface Answer {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Record<string, string>;
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}): Answer => ({ status, body, headers });
const notFound = (): Answer => json({ message: 'Not Found', documentation_url: DOCS }, 404);
const validationFailed = (errors: unknown[]): Answer => json({ message: 'Validation Failed', errors, documentation_url: DOCS }, 422);
const graphqlError = (type: string, message: string, path?: string[]): Answer =>
  json({
    data: path === undefined ? null : { [path[0]!]: null },
    errors: [{ type, message, ...(path === undefined ? {} : { path }), locations: [{ line: 1, column: 1 }] }],
  });

function faultAnswer(fault: DoubleFault, graphql: boolean): Answer {
  if (fault === 'unauthenticated') return json({ message: 'Bad credentials', documentation_url: DOCS }, 401);
  if (fault === 'secondary-rate-limit')
    return json(
      {
        message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
        documentation_url: RATE_DOCS,
      },
      429,
      { 'retry-after': '60' },
    );
  const limits = {
    'x-ratelimit-limit': '5000',
    'x-ratelimit-remaining': '0',
    'x-ratelimit-used': '5000',
    'x-ratelimit-reset': String(FIXED_RESET),
  };
  // GitHub answers an exhausted GraphQL budget with 200 and a RATE_LIMITED error, REST with 403.
  return graphql
    ? json({ errors: [{ type: 'RATE_LIMITED', message: 'API rate limit exceeded for user ID 1.' }] }, 200, limits)
    : json({ message: 'API rate limit exceeded for user ID 1.', documentation_url: RATE_DOCS }, 403, limits);
}

/** GraphQL operation name of a query text (`query IssueByNumber(` → `IssueByNumber`). */
export function operationName(query: string): string | undefined {
  return /\b(?:query|mutation)\s+([A-Za-z_][A-Za-z0-9_]*)/.exec(query)?.[1];
}

/**
 * A GitHub Enterprise API double on loopback HTTPS for the real gh (`GH_HOST=localhost:PORT`,
 * REST under `/api/v3/`, GraphQL at `/api/graphql`). It answers only the requests recorded from
 * gh 2.23.0 running the commands our adapters run; anything else is recorded in `unknown` and
 * answered 501 so gh fails, never with a guessed answer.
 */
export async function startGitHubApiDouble(tls: LoopbackTls, repo: DoubleRepo, token = 'ghp_double_token'): Promise<GitHubApiDouble> {
  const requests: RecordedRequest[] = [];
  const unknown: string[] = [];
  let fault: { kind: DoubleFault; when: (r: { method: string; path: string; operation?: string }) => boolean } | undefined;
  let host = '';
  let nextCommentId = 9_000_001;
  let clock = Date.parse('2026-07-22T10:00:00Z');
  const stamp = (): string => {
    clock += 1000;
    return new Date(clock).toISOString().replace('.000', '');
  };
  const webBase = (): string => `https://${host}/${repo.owner}/${repo.name}`;
  const issueOf = (n: unknown): DoubleIssue | undefined => repo.issues.find((i) => i.number === n);
  const labelNode = (name: string) => {
    const l = repo.labels.find((x) => x.name === name);
    return { id: `LA_${name}`, name, description: l?.description ?? '', color: l?.color ?? 'ededed' };
  };
  const commentNode = (issue: DoubleIssue, c: DoubleIssue['comments'][number]) => ({
    id: `IC_${c.id}`,
    author: { login: c.author, id: `U_${c.author}`, name: '' },
    authorAssociation: 'OWNER',
    body: c.body,
    createdAt: c.createdAt,
    includesCreatedEdit: false,
    isMinimized: false,
    minimizedReason: '',
    reactionGroups: [],
    url: `${webBase()}/issues/${issue.number}#issuecomment-${c.id}`,
    viewerDidAuthor: c.author === repo.login,
  });
  // Every field any recorded IssueByNumber/IssueList query selects; gh decodes only what it asked for.
  const issueNode = (i: DoubleIssue) => ({
    __typename: 'Issue',
    id: `I_${i.id}`,
    number: i.number,
    title: i.title,
    body: i.body,
    url: `${webBase()}/issues/${i.number}`,
    state: i.state,
    stateReason: i.state === 'CLOSED' ? 'COMPLETED' : null,
    createdAt: i.createdAt,
    updatedAt: i.createdAt,
    closedAt: null,
    author: { login: repo.login },
    labels: { nodes: i.labels.map(labelNode), totalCount: i.labels.length },
    assignees: { nodes: i.assignees.map((login) => ({ id: `U_${login}`, login, name: '' })), totalCount: i.assignees.length },
    comments: {
      nodes: i.comments.map((c) => commentNode(i, c)),
      pageInfo: { hasNextPage: false, endCursor: '' },
      totalCount: i.comments.length,
    },
  });
  const repositoryNode = () => ({
    id: `R_${repo.owner}_${repo.name}`,
    name: repo.name,
    nameWithOwner: `${repo.owner}/${repo.name}`,
    owner: { login: repo.owner },
    hasIssuesEnabled: true,
    hasProjectsEnabled: false,
    hasWikiEnabled: false,
    description: '',
    isPrivate: true,
    isArchived: false,
    isFork: false,
    viewerPermission: 'ADMIN',
    defaultBranchRef: { name: 'main' },
    parent: null,
    mergeCommitAllowed: true,
    rebaseMergeAllowed: true,
    squashMergeAllowed: true,
    url: webBase(),
  });
  const labelIds = (ids: unknown): string[] => (Array.isArray(ids) ? ids.map((id) => String(id).replace(/^LA_/, '')) : []);
  const byNodeId = (id: unknown): DoubleIssue | undefined => repo.issues.find((i) => `I_${i.id}` === id);
  const restIssue = (i: DoubleIssue) => ({
    id: i.id,
    node_id: `I_${i.id}`,
    number: i.number,
    title: i.title,
    body: i.body,
    state: i.state.toLowerCase(),
    url: `https://${host}/api/v3/repos/${repo.owner}/${repo.name}/issues/${i.number}`,
    html_url: `${webBase()}/issues/${i.number}`,
    labels: i.labels.map((name) => ({ ...labelNode(name), id: undefined, default: false })),
    assignees: i.assignees.map((login) => ({ login })),
    created_at: i.createdAt,
  });

  // `issue create` resolves names to node ids in one query of numbered aliases (u000: user(login:"…")).
  function resolveMetadataIds(query: string): Answer {
    const data: Record<string, unknown> = {};
    const repository: Record<string, unknown> = {};
    for (const m of query.matchAll(/(u\d+): user\(login:("(?:[^"\\]|\\.)*")\)/g)) {
      const login = JSON.parse(m[2]!) as string;
      data[m[1]!] = login === repo.login || repo.issues.some((i) => i.assignees.includes(login)) ? { id: `U_${login}`, login } : null;
    }
    for (const m of query.matchAll(/(l\d+): label\(name:("(?:[^"\\]|\\.)*")\)/g)) {
      const name = JSON.parse(m[2]!) as string;
      repository[m[1]!] = repo.labels.some((l) => l.name === name) ? { id: `LA_${name}`, name } : null;
    }
    return json({ data: { ...data, repository } });
  }

  function graphql(operation: string | undefined, vars: Record<string, unknown>, query: string): Answer | undefined {
    if (operation === 'RepositoryResolveMetadataIDs') return resolveMetadataIds(query);
    const name = vars.repo ?? vars.name;
    const sameRepo = vars.owner === undefined || (vars.owner === repo.owner && name === repo.name);
    if (!sameRepo)
      return graphqlError('NOT_FOUND', `Could not resolve to a Repository with the name '${String(vars.owner)}/${String(name)}'.`, [
        'repository',
      ]);
    switch (operation ?? '') {
      case 'Issue_fields':
        return json({
          data: { Issue: { fields: ['stateReason', 'number', 'title', 'body', 'labels', 'comments'].map((name) => ({ name })) } },
        });
      case 'UserCurrent':
        return json({ data: { viewer: { login: repo.login } } });
      case 'IssueByNumber': {
        const i = issueOf(vars.number);
        if (i === undefined)
          return json({
            data: { repository: { hasIssuesEnabled: true, issue: null } },
            errors: [
              {
                type: 'NOT_FOUND',
                path: ['repository', 'issue'],
                locations: [{ line: 5, column: 4 }],
                message: `Could not resolve to an issue or pull request with the number of ${String(vars.number)}.`,
              },
            ],
          });
        return json({ data: { repository: { hasIssuesEnabled: true, issue: issueNode(i) } } });
      }
      case 'PullRequestByNumber': {
        const pr = repo.pulls.find((p) => p.number === vars.pr_number);
        if (pr === undefined)
          return json({
            data: { repository: { pullRequest: null } },
            errors: [
              {
                type: 'NOT_FOUND',
                path: ['repository', 'pullRequest'],
                locations: [{ line: 4, column: 4 }],
                message: `Could not resolve to a PullRequest with the number of ${String(vars.pr_number)}.`,
              },
            ],
          });
        return json({
          data: { repository: { pullRequest: { id: `PR_${pr.number}`, number: pr.number, state: pr.state, mergedAt: pr.mergedAt } } },
        });
      }
      case 'LabelList': {
        const limit = typeof vars.limit === 'number' ? vars.limit : 30;
        const start = typeof vars.endCursor === 'string' ? Number(vars.endCursor) : 0;
        const page = repo.labels.slice(start, start + limit);
        const next = start + page.length;
        return json({
          data: {
            repository: {
              labels: {
                totalCount: repo.labels.length,
                nodes: page.map((l) => ({
                  ...l,
                  id: `LA_${l.name}`,
                  createdAt: '2026-07-01T00:00:00Z',
                  isDefault: false,
                  url: `${webBase()}/labels/${encodeURIComponent(l.name)}`,
                })),
                pageInfo: { hasNextPage: next < repo.labels.length, endCursor: String(next) },
              },
            },
          },
        });
      }
      case 'IssueList': {
        // gh resolves `--assignee=@me` to the viewer's login first (UserCurrent).
        const states = Array.isArray(vars.states) ? vars.states : ['OPEN'];
        const limit = typeof vars.limit === 'number' ? vars.limit : 30;
        const start = typeof vars.endCursor === 'string' ? Number(vars.endCursor) : 0;
        const matching = repo.issues
          .filter((i) => states.includes(i.state) && (typeof vars.assignee !== 'string' || i.assignees.includes(vars.assignee)))
          .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.number - a.number);
        const page = matching.slice(start, start + limit);
        return json({
          data: {
            repository: {
              hasIssuesEnabled: true,
              issues: {
                totalCount: matching.length,
                nodes: page.map(issueNode),
                pageInfo: { hasNextPage: start + limit < matching.length, endCursor: String(start + page.length) },
              },
            },
          },
        });
      }
      // The adapter's label edit (src/github/gh-label-edit.ts): issue id and label ids by name.
      case 'WoterclipLabelIds': {
        const i = issueOf(vars.number);
        const repository: Record<string, unknown> = { issue: i === undefined ? null : { id: `I_${i.id}` } };
        for (const [key, value] of Object.entries(vars))
          if (/^l\d+$/.test(key))
            repository[key] = repo.labels.some((l) => l.name === value) ? { id: `LA_${String(value)}`, name: value } : null;
        if (i === undefined)
          return json({
            data: { repository },
            errors: [
              {
                type: 'NOT_FOUND',
                path: ['repository', 'issue'],
                locations: [{ line: 1, column: 1 }],
                message: `Could not resolve to an issue or pull request with the number of ${String(vars.number)}.`,
              },
            ],
          });
        return json({ data: { repository } });
      }
      case 'RepositoryInfo':
        return json({ data: { repository: repositoryNode() } });
      case 'RepositoryLabelList': {
        const start = typeof vars.endCursor === 'string' ? Number(vars.endCursor) : 0;
        const page = repo.labels.slice(start, start + 100);
        return json({
          data: {
            repository: {
              labels: {
                totalCount: repo.labels.length,
                nodes: page.map((l) => ({ id: `LA_${l.name}`, name: l.name, description: l.description, color: l.color })),
                pageInfo: { hasNextPage: start + 100 < repo.labels.length, endCursor: String(start + page.length) },
              },
            },
          },
        });
      }
      case 'CommentsForIssue': {
        const i = byNodeId(vars.id);
        if (i === undefined)
          return graphqlError('NOT_FOUND', `Could not resolve to a node with the global id of '${String(vars.id)}'`, ['node']);
        return json({ data: { node: { comments: issueNode(i).comments } } });
      }
      default:
        return undefined;
    }
  }

  function rest(method: string, path: string, body: unknown): Answer | undefined {
    const url = new URL(path, 'https://x');
    const p = url.pathname;
    if (method === 'GET' && p === '/api/v3/')
      return json({ current_user_url: `https://${host}/api/v3/user` }, 200, { 'x-oauth-scopes': 'repo, read:org' });
    const base = `/api/v3/repos/${repo.owner}/${repo.name}`;
    if (!p.startsWith(`${base}/`)) return p.startsWith('/api/v3/repos/') ? notFound() : undefined;
    const rel = p.slice(base.length);
    if (method === 'POST' && rel === '/labels') {
      const b = body as { name?: unknown; color?: unknown; description?: unknown };
      if (typeof b.name !== 'string' || b.name === '')
        return validationFailed([{ resource: 'Label', code: 'missing_field', field: 'name' }]);
      if (repo.labels.some((l) => l.name.toLowerCase() === String(b.name).toLowerCase()))
        return validationFailed([{ resource: 'Label', code: 'already_exists', field: 'name' }]);
      if (b.color !== undefined && (typeof b.color !== 'string' || !/^[0-9a-fA-F]{6}$/.test(b.color)))
        return validationFailed([{ resource: 'Label', code: 'invalid', field: 'color' }]);
      const label = {
        name: b.name,
        color: typeof b.color === 'string' ? b.color.toLowerCase() : 'ededed',
        description: typeof b.description === 'string' ? b.description : '',
      };
      repo.labels.push(label);
      return json(
        {
          id: 1000 + repo.labels.length,
          node_id: `LA_${label.name}`,
          url: `https://${host}${base}/labels/${encodeURIComponent(label.name)}`,
          ...label,
          default: false,
        },
        201,
      );
    }
    const m = /^\/issues\/(\d+)(\/sub_issues)?$/.exec(rel);
    if (m === null) return undefined;
    const issue = issueOf(Number(m[1]));
    if (issue === undefined) return notFound();
    if (m[2] === undefined) return method === 'GET' ? json(restIssue(issue)) : undefined;
    if (method === 'POST') {
      const id = (body as { sub_issue_id?: unknown }).sub_issue_id;
      if (typeof id !== 'number')
        return validationFailed([{ resource: 'Issue', code: 'invalid', field: 'sub_issue_id', message: 'Invalid request.' }]);
      const child = repo.issues.find((i) => i.id === id);
      if (child === undefined || issue.subIssues.includes(child.number) || child === issue)
        return validationFailed([
          {
            resource: 'Issue',
            code: 'custom',
            field: 'sub_issue_id',
            message: 'The provided sub-issue does not exist or is already a sub-issue.',
          },
        ]);
      issue.subIssues.push(child.number);
      return json(restIssue(issue), 201);
    }
    if (method !== 'GET') return undefined;
    const perPage = Number(url.searchParams.get('per_page') ?? '30');
    const page = Number(url.searchParams.get('page') ?? '1');
    const all = issue.subIssues.map((n) => restIssue(issueOf(n)!));
    const slice = all.slice((page - 1) * perPage, page * perPage);
    const headers: Record<string, string> = {};
    if (page * perPage < all.length) headers.link = `<https://${host}${base}${rel}?per_page=${perPage}&page=${page + 1}>; rel="next"`;
    return json(slice, 200, headers);
  }

  function mutation(operation: string | undefined, vars: Record<string, unknown>): Answer | undefined {
    const input = (vars.input ?? {}) as Record<string, unknown>;
    switch (operation ?? '') {
      case 'LabelAdd':
      case 'LabelRemove': {
        const issue = byNodeId(input.labelableId);
        if (issue === undefined)
          return graphqlError('NOT_FOUND', `Could not resolve to a node with the global id of '${String(input.labelableId)}'`, ['node']);
        const names = labelIds(input.labelIds);
        if (operation === 'LabelAdd') for (const n of names) if (!issue.labels.includes(n)) issue.labels.push(n);
        if (operation === 'LabelRemove') issue.labels = issue.labels.filter((l) => !names.includes(l));
        const field = operation === 'LabelAdd' ? 'addLabelsToLabelable' : 'removeLabelsFromLabelable';
        return json({
          data: { [field]: { __typename: operation === 'LabelAdd' ? 'AddLabelsToLabelablePayload' : 'RemoveLabelsFromLabelablePayload' } },
        });
      }
      // One request, both changes: GitHub runs the fields in order (add, then remove).
      case 'WoterclipLabelEdit': {
        const issue = byNodeId(vars.id);
        if (issue === undefined)
          return graphqlError('NOT_FOUND', `Could not resolve to a node with the global id of '${String(vars.id)}'`, ['add']);
        for (const n of labelIds(vars.add)) if (!issue.labels.includes(n)) issue.labels.push(n);
        const removed = labelIds(vars.remove);
        issue.labels = issue.labels.filter((l) => !removed.includes(l));
        return json({
          data: {
            ...(vars.add === undefined ? {} : { add: { clientMutationId: null } }),
            ...(vars.remove === undefined ? {} : { remove: { clientMutationId: null } }),
          },
        });
      }
      case 'CommentCreate': {
        const issue = byNodeId(input.subjectId);
        if (issue === undefined)
          return graphqlError('NOT_FOUND', `Could not resolve to a node with the global id of '${String(input.subjectId)}'`, [
            'addComment',
          ]);
        const comment = { id: nextCommentId, author: repo.login, body: String(input.body), createdAt: stamp() };
        nextCommentId += 1;
        issue.comments.push(comment);
        return json({ data: { addComment: { commentEdge: { node: { url: commentNode(issue, comment).url } } } } });
      }
      case 'IssueCreate': {
        if (input.repositoryId !== repositoryNode().id)
          return graphqlError('NOT_FOUND', `Could not resolve to a node with the global id of '${String(input.repositoryId)}'`, [
            'createIssue',
          ]);
        const number = Math.max(0, ...repo.issues.map((i) => i.number), ...repo.pulls.map((p) => p.number)) + 1;
        const issue: DoubleIssue = {
          number,
          id: 3_000_000_000 + number,
          title: String(input.title),
          body: typeof input.body === 'string' ? input.body : '',
          state: 'OPEN',
          labels: labelIds(input.labelIds),
          assignees: Array.isArray(input.assigneeIds) ? input.assigneeIds.map((id) => String(id).replace(/^U_/, '')) : [],
          comments: [],
          subIssues: [],
          createdAt: stamp(),
        };
        repo.issues.push(issue);
        return json({ data: { createIssue: { issue: { id: `I_${issue.id}`, url: `${webBase()}/issues/${number}` } } } });
      }
      case 'IssueClose': {
        const issue = byNodeId(input.issueId);
        if (issue === undefined)
          return graphqlError('NOT_FOUND', `Could not resolve to a node with the global id of '${String(input.issueId)}'`, ['closeIssue']);
        issue.state = 'CLOSED';
        return json({ data: { closeIssue: { issue: { id: `I_${issue.id}` } } } });
      }
      default:
        return undefined;
    }
  }

  // Answers a known operation with exactly the fields its query selects (see graphql-selection).
  const answerGraphql = (query: string, operation: string | undefined, vars: Record<string, unknown>): Answer | undefined => {
    const answer = /\bmutation\s/.test(query) ? mutation(operation, vars) : graphql(operation, vars, query);
    const body = answer?.body as { data?: unknown; errors?: unknown } | undefined;
    if (answer === undefined || body?.data === undefined || body.data === null) return answer;
    try {
      return { ...answer, body: { ...body, data: project(body.data, parseSelection(query)) } };
    } catch (error) {
      unknown.push(`${operation ?? 'anonymous'}: ${(error as Error).message} in ${query}`);
      return json({ message: `github-api-double: ${(error as Error).message}` }, 501);
    }
  };

  const handle = (req: IncomingMessage, res: ServerResponse, raw: string): void => {
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    let body: unknown = undefined;
    try {
      body = raw === '' ? undefined : JSON.parse(raw);
    } catch {
      body = raw;
    }
    const isGraphql = method === 'POST' && path === '/api/graphql';
    const gql = isGraphql ? (body as { query?: string; variables?: Record<string, unknown> }) : undefined;
    const operation = gql?.query === undefined ? undefined : operationName(gql.query);
    const vars = gql?.variables ?? {};
    const described = { method, path, ...(operation === undefined ? {} : { operation }) };
    let answer: Answer | undefined;
    if (req.headers.authorization !== `token ${token}`) answer = faultAnswer('unauthenticated', isGraphql);
    else if (fault !== undefined && fault.when(described)) answer = faultAnswer(fault.kind, isGraphql);
    else if (isGraphql) answer = answerGraphql(gql?.query ?? '', operation, vars);
    else answer = rest(method, path, body);
    if (answer === undefined) {
      unknown.push(`${method} ${path} ${raw.slice(0, 4000)}`);
      answer = json(
        { message: `github-api-double: no recorded answer for ${method} ${path}${operation === undefined ? '' : ` (${operation})`}` },
        501,
      );
    }
    requests.push({
      method,
      path,
      ...(operation === undefined ? {} : { operation, variables: vars }),
      ...(isGraphql || body === undefined ? {} : { body }),
      status: answer.status,
    });
    res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', ...(answer.headers ?? {}) });
    res.end(JSON.stringify(answer.body));
  };

  const server: Server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      raw += chunk;
    });
    req.on('end', () => handle(req, res, raw));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  host = `localhost:${typeof address === 'object' && address !== null ? address.port : 0}`;
  return {
    host,
    repo,
    requests,
    unknown,
    fault: (kind, when = () => true) => {
      fault = kind === undefined ? undefined : { kind, when };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
