import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import type { IssueStatus } from '../log/log-lines.js';

/** The marker that starts the outcome line a dispatched persona prints last. */
export const OUTCOME_MARKER = 'WOTERCLIP_OUTCOME';

const subIssueSchema = z.object({
  number: z.number().int().positive().optional(),
  title: z.string().min(1).max(256),
  persona: z.string().min(1).max(64),
  body: z.string().max(20_000).optional(),
  blocking: z.boolean().optional(),
});

const commitSchema = z.union([
  z.string().min(1),
  z.object({ sha: z.string().regex(/^[0-9a-f]{7,40}$/i), message: z.string().default(''), url: z.string().optional() }),
]);

/** Zod schema of the outcome contract (reference §13) as JSON after {@link OUTCOME_MARKER}. */
export const outcomeSchema = z.object({
  status: z.enum(['completed', 'in progress', 'in_progress', 'blocked', 'triaged', 'decomposed']),
  summary: z.string().max(20_000).default(''),
  commits: z.array(commitSchema).max(200).default([]),
  prs: z.array(z.string().max(500)).max(50).default([]),
  sub_issues: z.array(subIssueSchema).max(100).default([]),
  next_steps: z.array(z.string().max(2000)).max(50).default([]),
  blocker: z
    .object({ description: z.string().min(1), action_needed: z.string().default(''), clears_when: z.string().optional() })
    .optional(),
  escalation_target: z.string().min(1).max(64).optional(),
  model_used: z.string().max(100).optional(),
  needs_manual_verification: z.boolean().default(false),
});

/** One commit the persona reports. */
export interface OutcomeCommit {
  readonly sha: string;
  readonly message: string;
  readonly url?: string;
}

/** A child issue: already created (`number` set) or to be created by the loop. */
export interface OutcomeSubIssue {
  readonly number?: number;
  readonly title: string;
  readonly persona: string;
  readonly body?: string;
  readonly blocking?: boolean;
}

/** A validated outcome. */
export interface Outcome {
  readonly status: IssueStatus;
  readonly summary: string;
  readonly commits: readonly OutcomeCommit[];
  readonly prs: readonly string[];
  readonly subIssues: readonly OutcomeSubIssue[];
  readonly nextSteps: readonly string[];
  readonly blocker?: { readonly description: string; readonly actionNeeded: string; readonly clearsWhen?: string };
  readonly escalationTarget?: string;
  /** Advisory only: the Model line names the dispatch parameter. */
  readonly modelUsed?: string;
  readonly needsManualVerification: boolean;
}

function toCommit(value: z.infer<typeof commitSchema>): OutcomeCommit {
  if (typeof value !== 'string')
    return value.url === undefined
      ? { sha: value.sha, message: value.message }
      : { sha: value.sha, message: value.message, url: value.url };
  const [sha = '', ...rest] = value.trim().split(/\s+/);
  return { sha, message: rest.join(' ') };
}

/** Validates a value in the marker's JSON shape and maps it to an {@link Outcome}. */
function fromValue(value: unknown): Result<Outcome, string> {
  const parsed = outcomeSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return err(`outcome ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`);
  }
  const o = parsed.data;
  const status: IssueStatus = o.status === 'in progress' ? 'in_progress' : o.status;
  const blocker =
    o.blocker === undefined
      ? undefined
      : {
          description: o.blocker.description,
          actionNeeded: o.blocker.action_needed,
          ...(o.blocker.clears_when === undefined ? {} : { clearsWhen: o.blocker.clears_when }),
        };
  return ok({
    status,
    summary: o.summary,
    commits: o.commits.map(toCommit),
    prs: o.prs,
    subIssues: o.sub_issues.map((s) => ({
      title: s.title,
      persona: s.persona,
      ...(s.number === undefined ? {} : { number: s.number }),
      ...(s.body === undefined ? {} : { body: s.body }),
      ...(s.blocking === undefined ? {} : { blocking: s.blocking }),
    })),
    nextSteps: o.next_steps,
    ...(blocker === undefined ? {} : { blocker }),
    ...(o.escalation_target === undefined ? {} : { escalationTarget: o.escalation_target }),
    ...(o.model_used === undefined ? {} : { modelUsed: o.model_used }),
    needsManualVerification: o.needs_manual_verification,
  });
}

/** The last `WOTERCLIP_OUTCOME {json}` line of `text`, parsed; `undefined` when there is none. */
function parseMarker(text: string): Result<Outcome, string> | undefined {
  const line = text
    .split(/\r?\n/)
    .reverse()
    .find((l) => l.trimStart().startsWith(OUTCOME_MARKER));
  if (line === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line.trimStart().slice(OUTCOME_MARKER.length));
  } catch {
    return err(`the ${OUTCOME_MARKER} line is not valid JSON`);
  }
  return fromValue(value);
}

// The reference's field block (§13): `Status: …`, `Work summary: …`, `Commits / PRs: …`, … Markdown
// decoration a model tends to add (`- **Status:** done`, `### Status:`) is tolerated.
const FIELD_KEYS = {
  status: /^status$/,
  summary: /^(work )?summary$/,
  commits: /^commits?( ?\/ ?| and | & )?(prs?|pull requests?)?$|^prs?$/,
  subIssues: /^sub[- ]?issues?$/,
  blocker: /^blockers?$/,
  actionNeeded: /^action needed$/,
  clearsWhen: /^clears when$/,
  escalation: /^escalation( target)?$/,
  model: /^model( used)?$/,
  nextSteps: /^next steps?$/,
} as const;
type FieldKey = keyof typeof FIELD_KEYS;
const HEADER = /^\s*(?:[-*>]\s+|#{1,6}\s+)?[*_`]*\s*([A-Za-z][A-Za-z /&-]{1,30}?)\s*[*_`]*\s*:\s*[*_`]*\s*(.*)$/;
const STATUS_VALUE = /^(completed|in[ _-]progress|blocked|triaged|decomposed)\b/i;
const NONE = /^(none|n\/?a|-+|—|null|nothing)\.?$/i;

function fieldOf(line: string): { key: FieldKey; value: string } | undefined {
  const m = HEADER.exec(line);
  if (m?.[1] === undefined) return undefined;
  const name = m[1].trim().toLowerCase().replace(/\s+/g, ' ');
  const key = (Object.keys(FIELD_KEYS) as FieldKey[]).find((k) => FIELD_KEYS[k].test(name));
  return key === undefined ? undefined : { key, value: (m[2] ?? '').replace(/[*_`]+\s*$/, '').trim() };
}

const unmark = (text: string): string => text.replace(/^[\s*_`"']+|[\s*_`"'.]+$/g, '');
const items = (text: string): string[] =>
  text
    .split('\n')
    .map((l) => l.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '').trim())
    .filter((l) => l !== '' && !NONE.test(l));

/**
 * Reads the reference's field block: the last `Status:` line with a contract status, and the
 * fields around it (back to the previous `Status:` line). A field's value runs on over the lines
 * below it until the next field or a blank line. `undefined` when there is no such block.
 */
function parseFieldBlock(text: string): Result<Outcome, string> | undefined {
  const lines = text.split(/\r?\n/);
  const fields = lines.map(fieldOf);
  const statusAt: number[] = [];
  fields.forEach((f, i) => {
    if (f?.key === 'status' && STATUS_VALUE.test(unmark(f.value))) statusAt.push(i);
  });
  const last = statusAt.at(-1);
  if (last === undefined) return undefined;
  const from = (statusAt.at(-2) ?? -1) + 1;
  const values = new Map<FieldKey, string>();
  for (let i = from; i < lines.length; i += 1) {
    const field = fields[i];
    if (field === undefined) continue;
    if (field.key === 'status' && i !== last) continue;
    const parts = [field.value];
    if (!['status', 'escalation', 'model'].includes(field.key)) {
      for (let j = i + 1; j < lines.length && fields[j] === undefined && (lines[j] ?? '').trim() !== ''; j += 1) parts.push(lines[j] ?? '');
    }
    values.set(field.key, parts.join('\n').trim());
  }
  const status = (STATUS_VALUE.exec(unmark(values.get('status') ?? ''))?.[1] ?? '').toLowerCase().replace(/[ _-]/, ' ');
  const cap = (s: string, n: number): string => (s.length > n ? s.slice(0, n) : s);
  const commits: { sha: string; message: string; url?: string }[] = [];
  const prs: string[] = [];
  for (const item of items(values.get('commits') ?? '')) {
    for (const url of item.match(/https?:\/\/[^\s)<>\]]+\/pull\/\d+/g) ?? []) prs.push(cap(url, 500));
    const commitUrl = /https?:\/\/[^\s)<>\]]+\/commit\/([0-9a-f]{7,40})\b/i.exec(item);
    const rest = item.replace(/https?:\/\/[^\s)<>\]]+/g, ' ');
    const sha = commitUrl?.[1] ?? /\b(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b/i.exec(rest)?.[0];
    if (sha === undefined) continue;
    const message = rest
      .replace(sha, ' ')
      .replace(/[[\]`*]/g, ' ')
      .replace(/\(\s*\)/g, ' ')
      .replace(/^[\s:—–-]+/, '')
      .replace(/[\s,;]+$/, '')
      .replace(/\s+/g, ' ')
      .trim();
    commits.push({ sha, message: cap(message, 500), ...(commitUrl === null ? {} : { url: commitUrl[0] }) });
  }
  const subIssues = items(values.get('subIssues') ?? '').flatMap((item) => {
    const m = /^#(\d{1,9})\b\s*[—–:-]*\s*(.*?)\s*(?:\(([^()]{1,64})\))?$/.exec(item);
    if (m?.[1] === undefined) return [];
    return [{ number: Number(m[1]), title: cap(m[2] || `#${m[1]}`, 256), persona: cap(m[3]?.trim() || '—', 64) }];
  });
  const blockerText = values.get('blocker');
  const escalation = unmark(values.get('escalation') ?? '').toLowerCase();
  const model = unmark(values.get('model') ?? '');
  const value = {
    status,
    summary: cap(values.get('summary') ?? '', 20_000),
    commits: commits.slice(0, 200),
    prs: prs.slice(0, 50),
    sub_issues: subIssues.filter((s) => s.number > 0).slice(0, 100),
    next_steps: items(values.get('nextSteps') ?? '')
      .map((s) => cap(s, 2000))
      .slice(0, 50),
    ...(blockerText === undefined || blockerText === '' || NONE.test(blockerText)
      ? {}
      : {
          blocker: {
            description: cap(blockerText, 20_000),
            action_needed: cap(values.get('actionNeeded') ?? '', 20_000),
            ...(values.has('clearsWhen') ? { clears_when: cap(values.get('clearsWhen') ?? '', 2000) } : {}),
          },
        }),
    ...(/^[a-z0-9][a-z0-9_-]{0,63}$/.test(escalation) && !NONE.test(escalation) ? { escalation_target: escalation } : {}),
    ...(model === '' || NONE.test(model) ? {} : { model_used: cap(model, 100) }),
  };
  return fromValue(value);
}

/** A `claude -p --output-format json` (or the last line of `stream-json`) result envelope. */
interface ResultEnvelope {
  readonly subtype: string;
  readonly isError: boolean;
  readonly result?: string;
  readonly errors: readonly string[];
}

function parseEnvelope(text: string): ResultEnvelope | undefined {
  const trimmed = text.trim();
  const candidates = [trimmed, ...trimmed.split(/\r?\n/).reverse().slice(0, 5)];
  for (const candidate of candidates) {
    if (!candidate.startsWith('{')) continue;
    let value: unknown;
    try {
      value = JSON.parse(candidate);
    } catch {
      continue;
    }
    if (typeof value !== 'object' || value === null || (value as { type?: unknown }).type !== 'result') continue;
    const v = value as { subtype?: unknown; is_error?: unknown; result?: unknown; errors?: unknown };
    return {
      subtype: typeof v.subtype === 'string' ? v.subtype : 'unknown',
      isError: v.is_error === true,
      ...(typeof v.result === 'string' ? { result: v.result } : {}),
      errors: Array.isArray(v.errors) ? v.errors.filter((e): e is string => typeof e === 'string') : [],
    };
  }
  return undefined;
}

/**
 * Reads a dispatch's stdout as an {@link Outcome}, accepting, in order of preference:
 * 1. the last `WOTERCLIP_OUTCOME {json}` line (the form the prompt asks for);
 * 2. an agent CLI's JSON result envelope (`{"type":"result","subtype":"success","result":"…"}`,
 *    as `claude -p --output-format json` prints it), whose `result` text is read by 1 and 3;
 *    an error envelope (`is_error`, `subtype` `error_*`) is an error naming the subtype;
 * 3. the reference's field block (`Status: …`, `Work summary: …`, `Commits / PRs: …`, …).
 * Anything else the persona printed is narration and ignored. Never throws.
 */
export function parseOutcome(stdout: string): Result<Outcome, string> {
  const marker = parseMarker(stdout);
  if (marker !== undefined) return marker;
  const envelope = parseEnvelope(stdout);
  if (envelope !== undefined) {
    if (envelope.isError || envelope.subtype !== 'success') {
      const detail = envelope.errors.length > 0 ? `: ${envelope.errors.join('; ').slice(0, 300)}` : '';
      return err(`the agent's result envelope reports ${envelope.subtype}${envelope.isError ? ' (is_error)' : ''}${detail}`);
    }
    const text = envelope.result ?? '';
    return (
      parseMarker(text) ??
      parseFieldBlock(text) ??
      err(`the agent's result envelope holds neither a ${OUTCOME_MARKER} line nor a "Status:" field block`)
    );
  }
  return parseFieldBlock(stdout) ?? err(`no ${OUTCOME_MARKER} line, result envelope or "Status:" field block in the output`);
}

/** The outcome contract, verbatim in every prompt (reference §13 item 7). */
export const OUTCOME_CONTRACT = `## Outcome contract
When you finish, print exactly one final line:
${OUTCOME_MARKER} {"status": "...", "summary": "...", "commits": [{"sha": "...", "message": "..."}], "prs": ["<url>"], "sub_issues": [{"number": 43, "title": "...", "persona": "backend"}], "next_steps": ["..."], "blocker": {"description": "...", "action_needed": "...", "clears_when": "..."}, "escalation_target": "<persona>", "model_used": "..."}
- status is exactly one of: completed, in progress, blocked, triaged, decomposed.
- summary: the work summary for the report comment.
- commits / prs: SHAs and PR URLs of what you produced.
- sub_issues: children you created (with "number"), or children the loop should create (without "number").
- blocker: only when blocked — what blocks progress, the specific ask, and the observable condition that clears it.
- escalation_target: the persona you hand the issue to; an escalation returns "in progress".
- model_used: the model you ran on (advisory).`;
