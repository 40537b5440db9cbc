import { errAsync, okAsync, type ResultAsync } from 'neverthrow';
import { z } from 'zod';
import type { IssueComment, IssueDetail, SubIssueState, TrackerError } from '../ports/issue-tracker.js';

// Reading what gh prints: zod schemas for every JSON answer, and the few text answers.

/** A label list as `gh … --json=labels` prints it. */
export const labelsSchema = z.array(z.object({ name: z.string() }));
/** `gh issue list --json=number,title,labels,createdAt`. */
export const listSchema = z.array(z.object({ number: z.number().int(), title: z.string(), labels: labelsSchema, createdAt: z.string() }));
/** `gh issue view --json=number,title,body,labels,comments`. */
export const viewSchema = z.object({
  number: z.number().int(),
  title: z.string(),
  body: z.string().nullable(),
  labels: labelsSchema,
  comments: z.array(
    z.object({ author: z.object({ login: z.string() }).nullable(), body: z.string(), createdAt: z.string(), url: z.string() }),
  ),
});
/** `gh api repos/…/issues/N`: the REST id a sub-issue link takes. */
export const idSchema = z.object({ id: z.number().int() });
// One page of `gh api …/sub_issues`.
const subIssuesSchema = z.array(z.object({ number: z.number().int(), state: z.string() }));

/** The GraphQL answer of `labelIdsRequest`: the issue's node id and one `lN` entry per label asked for. */
export const labelIdsSchema = z.object({
  data: z.object({
    repository: z
      .object({ issue: z.object({ id: z.string() }).nullable() })
      .catchall(z.object({ id: z.string(), name: z.string() }).nullable()),
  }),
});

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

/** Parses gh's JSON output by `schema`; anything else is `bad-output` naming the gh command (`what`). */
export function parseWith<T>(schema: z.ZodType<T>, text: string, what: string): ResultAsync<T, TrackerError> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return errAsync({ kind: 'bad-output', message: `gh ${what}: output is not JSON` });
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? okAsync(parsed.data) : errAsync({ kind: 'bad-output', message: `gh ${what}: unexpected JSON shape` });
}

/** The port's issue from what `gh issue view` printed (a deleted account's comment is `ghost`'s). */
export function toIssueDetail(i: z.infer<typeof viewSchema>): IssueDetail {
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

/** The comment's URL from what `gh issue comment` printed, when it printed one. */
export function commentUrl(stdout: string): { url?: string } {
  const url = stdout
    .trim()
    .split('\n')
    .find((l) => /^https:\/\/\S+$/.test(l));
  return url === undefined ? {} : { url };
}

/** The sub-issues from `gh api --paginate …/sub_issues` (pages printed back to back). */
export function parseSubIssues(stdout: string): ResultAsync<SubIssueState[], TrackerError> {
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
