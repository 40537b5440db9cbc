import { sanitizeForMessage } from '@heartbeat-kit/core';
import type { IssueComment } from '../ports/issue-tracker.js';
import type { IssueStatus } from '../log/log-lines.js';
import type { ModelUsed } from '../ports/dispatcher.js';
import type { OutcomeCommit } from '../dispatch/outcome.js';

const HEADER = /^## Heartbeat #(\d{1,9}) — \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\b/;
const FOOTER = /^\*WoterClip · [^\n]*\*\s*$/m;

/** True when `comment` is an agent comment: posted by `login` and carrying the WoterClip footer. */
export function isAgentComment(comment: IssueComment, login: string): boolean {
  return comment.author === login && FOOTER.test(comment.body);
}

/**
 * The heartbeat number of a WoterClip report comment by `login`, or undefined. A comment by
 * anyone else, or without the exact header and footer, is not ours: a forged `Heartbeat #99`
 * cannot move the counter.
 */
export function heartbeatNumberOf(comment: IssueComment, login: string): number | undefined {
  if (!isAgentComment(comment, login)) return undefined;
  const match = HEADER.exec(comment.body.trimStart());
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/** The last WoterClip report comment (in time) by `login`, with its number. */
export function lastHeartbeatComment(
  comments: readonly IssueComment[],
  login: string,
): { readonly comment: IssueComment; readonly n: number } | undefined {
  for (let i = comments.length - 1; i >= 0; i -= 1) {
    const comment = comments[i];
    if (comment === undefined) continue;
    const n = heartbeatNumberOf(comment, login);
    if (n !== undefined) return { comment, n };
  }
  return undefined;
}

/** The next counter: last report's N + 1, or 1 when there is none. */
export function nextHeartbeatNumber(comments: readonly IssueComment[], login: string): number {
  return (lastHeartbeatComment(comments, login)?.n ?? 0) + 1;
}

/** Comments after the last agent comment (all of them when the agent never commented). */
export function commentsSinceLastAgent(comments: readonly IssueComment[], login: string): readonly IssueComment[] {
  let last = -1;
  comments.forEach((comment, index) => {
    if (isAgentComment(comment, login)) last = index;
  });
  return comments.slice(last + 1);
}

/** `14m 5s`, `45s`, `1h 2m`: the duration in a comment header. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (h > 0) return `${h}h ${m}m`;
  if (m > 0) return `${m}m ${s % 60}s`;
  return `${s}s`;
}

function headerTime(at: Date): string {
  return at.toISOString().slice(0, 16).replace('T', ' ');
}

/** The Model line: the dispatch parameter, with the configured model disclosed on fallback. */
export function modelLine(model: ModelUsed): string {
  return model.fallback ? `**Model:** ${model.actual} (fallback — configured: ${model.configured})` : `**Model:** ${model.configured}`;
}

const STATUS_TITLES: Readonly<Record<IssueStatus, string>> = {
  in_progress: 'In Progress',
  completed: 'Completed',
  blocked: 'Blocked',
  triaged: 'Triaged',
  decomposed: 'Decomposed',
};

/** Untrusted text (persona output, tool names) as comment text: no escapes, secrets or pings. */
export function commentText(text: string, maxLength = 4000): string {
  return sanitizeForMessage(text, { multiline: true, maxLength });
}

function bullets(items: readonly string[], empty: string): string {
  return items.length === 0 ? empty : items.map((item) => `- ${item}`).join('\n');
}

/** What a standard report comment says. */
export interface StandardReport {
  readonly n: number;
  readonly at: Date;
  readonly durationSec: number;
  readonly status: Exclude<IssueStatus, 'blocked'>;
  readonly model: ModelUsed;
  readonly repo: string;
  readonly persona: string;
  readonly issue: number;
  readonly summary: string;
  readonly commits: readonly OutcomeCommit[];
  readonly prs: readonly string[];
  /** `#N — Description (persona)` lines. */
  readonly subIssues: readonly string[];
  readonly nextSteps: readonly string[];
  readonly notes: readonly string[];
  /** URL of the previous report, when there is one. */
  readonly previousUrl?: string;
  readonly triagedTo?: string;
  readonly needsManualVerification?: boolean;
}

/** Renders the standard template (reference §11). */
export function renderStandardComment(r: StandardReport): string {
  const done = [
    ...(r.summary.trim() === '' ? [] : [commentText(r.summary)]),
    ...r.commits.map((c) => {
      const sha = c.sha.slice(0, 7);
      const url = /^[0-9a-f]{7,40}$/i.test(c.sha) ? `https://github.com/${r.repo}/commit/${c.sha}` : undefined;
      return `${url === undefined ? `\`${commentText(sha, 40)}\`` : `[\`${sha}\`](${url})`} ${commentText(c.message, 300)}`;
    }),
    ...r.prs.map((pr) => `PR: ${commentText(pr, 300)}`),
    ...r.notes,
  ];
  const footer = `*WoterClip · ${r.persona} · #${r.issue}${r.n > 1 && r.previousUrl !== undefined ? ` · from [Heartbeat #${r.n - 1}](${r.previousUrl})` : ''}*`;
  return [
    `## Heartbeat #${r.n} — ${headerTime(r.at)} UTC (${formatDuration(r.durationSec)})`,
    '',
    `**Status:** ${STATUS_TITLES[r.status]}`,
    modelLine(r.model),
    ...(r.triagedTo === undefined ? [] : [`**Triage:** → ${r.triagedTo}`]),
    ...(r.needsManualVerification === true ? ['⚠️ Needs manual verification.'] : []),
    '',
    '### What was done',
    bullets(
      done.map((d) => d.replace(/\n+/g, ' ')),
      '- Nothing recorded',
    ),
    ...(r.subIssues.length === 0 ? [] : ['### Created sub-issues', bullets(r.subIssues, '')]),
    "### What's next",
    bullets(
      r.nextSteps.map((s) => commentText(s, 500)),
      '- Next heartbeat continues',
    ),
    '### Blockers',
    'None',
    '',
    '---',
    footer,
  ].join('\n');
}

/** What a blocked report comment says. `clearsWhen` is required: an observable unblocking condition. */
export interface BlockedReport {
  readonly n: number;
  readonly at: Date;
  readonly durationSec: number;
  readonly model?: ModelUsed;
  readonly persona: string;
  readonly issue: number;
  readonly boardUser: string;
  readonly blocker: string;
  readonly ask: string;
  readonly clearsWhen: string;
  readonly doneBefore: readonly string[];
}

/** Renders the blocked template (reference §11); the Board is @-mentioned, the footer has no link. */
export function renderBlockedComment(r: BlockedReport): string {
  return [
    `## Heartbeat #${r.n} — ${headerTime(r.at)} UTC (${formatDuration(r.durationSec)})`,
    '',
    '**Status:** Blocked',
    ...(r.model === undefined ? [] : [modelLine(r.model)]),
    '',
    '### Blocker',
    commentText(r.blocker),
    '',
    '### Action needed',
    `@${r.boardUser} — ${commentText(r.ask, 1000)}`,
    '',
    `**Clears when:** ${commentText(r.clearsWhen, 500).replace(/\n+/g, ' ')}`,
    '',
    '### What was done before blocking',
    bullets(
      r.doneBefore.map((d) => commentText(d, 500)),
      '- Nothing',
    ),
    '',
    '---',
    `*WoterClip · ${r.persona} · #${r.issue}*`,
  ].join('\n');
}

/** The stale `agent-working` cleanup comment (its text is not specified upstream). */
export function renderStaleCleanupComment(workingLabel: string, staleHours: number): string {
  return [
    `Removed stale \`${workingLabel}\`: no heartbeat report on this issue within ${staleHours} h, so the beat that held it is gone. The issue is eligible again.`,
    '',
    '---',
    '*WoterClip · cleanup*',
  ].join('\n');
}

/** The comment posted on a parent when attaching children failed. */
export function renderUnattachedComment(children: readonly number[]): string {
  return [`Created but unattached: ${children.map((c) => `#${c}`).join(', ')}`, '', '---', '*WoterClip · sub-issues*'].join('\n');
}

/** The `**Clears when:**` condition of a blocked comment, or undefined when it does not state one. */
export function clearsWhenOf(body: string): string | undefined {
  const match = /^\*\*Clears when:\*\*[ \t]*(.+)$/m.exec(body);
  const text = match?.[1]?.trim();
  return text === undefined || text === '' ? undefined : text;
}
