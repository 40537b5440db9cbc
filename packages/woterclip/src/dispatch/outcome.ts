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
  if (typeof value !== 'string') return value.url === undefined ? { sha: value.sha, message: value.message } : { sha: value.sha, message: value.message, url: value.url };
  const [sha = '', ...rest] = value.trim().split(/\s+/);
  return { sha, message: rest.join(' ') };
}

/**
 * Finds and validates the last `WOTERCLIP_OUTCOME {json}` line of a dispatch's stdout. Anything
 * else printed before it is the persona's own narration and is ignored.
 */
export function parseOutcome(stdout: string): Result<Outcome, string> {
  const lines = stdout.split(/\r?\n/);
  const line = lines.reverse().find((l) => l.trimStart().startsWith(OUTCOME_MARKER));
  if (line === undefined) return err(`no ${OUTCOME_MARKER} line in the output`);
  let value: unknown;
  try {
    value = JSON.parse(line.trimStart().slice(OUTCOME_MARKER.length));
  } catch {
    return err(`the ${OUTCOME_MARKER} line is not valid JSON`);
  }
  const parsed = outcomeSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return err(`outcome ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`);
  }
  const o = parsed.data;
  const status: IssueStatus = o.status === 'in progress' ? 'in_progress' : o.status;
  const blocker = o.blocker === undefined
    ? undefined
    : { description: o.blocker.description, actionNeeded: o.blocker.action_needed, ...(o.blocker.clears_when === undefined ? {} : { clearsWhen: o.blocker.clears_when }) };
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
