import { decomposedParents } from '../log/log-lines.js';
import type { IssueSummary } from '../ports/issue-tracker.js';
import { commentsSinceLastAgent, renderStaleCleanupComment } from '../report/comments.js';
import { isStaleWorking } from './beat-plan.js';
import { editLabels, mutate, read, type Beat } from './beat-session.js';
import { halted, joinNotes, stepped, type StepNotes, type Stepped } from './beat-summary.js';

// Step 2 of a beat: who it is on GitHub, its inbox with stale working labels cleaned and blocked
// issues a human answered marked, and which parents the log says were decomposed.

/** Step 2's reading: who the beat is on GitHub, its inbox (stale working labels cleaned), and what the log says. */
export interface InboxRead {
  readonly login: string;
  readonly issues: readonly IssueSummary[];
  readonly unblockedByHuman: ReadonlySet<number>;
  readonly decomposed: ReadonlySet<number>;
}

/** Step 2: the inbox. The authenticated login tells agent comments from human ones. */
export async function readInbox(beat: Beat): Promise<Stepped<InboxRead>> {
  const { deps } = beat;
  const auth = await read(deps.tracker.authStatus());
  if (auth.isErr()) return halted(auth.error);
  const login = auth.value.login;
  const listed = await read(deps.tracker.listInbox());
  if (listed.isErr()) return halted(listed.error);
  const logRead = await deps.log.read();
  let notes: StepNotes = { warnings: logRead.isErr() ? [`heartbeat-log.jsonl: ${logRead.error.message}`] : logRead.value.warnings };
  const decomposed = logRead.isOk() ? decomposedParents(logRead.value.lines) : new Set<number>();

  const issues: IssueSummary[] = [];
  const unblockedByHuman = new Set<number>();
  for (const issue of listed.value) {
    const reviewed = await reviewIssue(beat, login, issue);
    notes = joinNotes(notes, reviewed.notes);
    if (reviewed.result.isErr()) return halted(reviewed.result.error, notes);
    if (reviewed.result.value.unblockedByHuman) unblockedByHuman.add(issue.number);
    issues.push({ ...issue, labels: reviewed.result.value.labels });
  }
  return stepped({ login, issues, unblockedByHuman, decomposed }, notes);
}

/**
 * Step 2 for one issue with the working or blocked label: a stale working label is cleaned (unless
 * the beat leaves them, as a dry run does); a blocked issue with a human comment after the last
 * agent comment is unblocked (reference Q4: the footer marks agent comments).
 */
async function reviewIssue(
  beat: Beat,
  login: string,
  issue: IssueSummary,
): Promise<Stepped<{ readonly labels: readonly string[]; readonly unblockedByHuman: boolean }>> {
  const { deps, config } = beat;
  const { working, blocked } = config.labels;
  let labels = issue.labels;
  if (!labels.includes(working) && !labels.includes(blocked)) return stepped({ labels, unblockedByHuman: false });
  const detail = await read(deps.tracker.viewIssue(issue.number));
  if (detail.isErr()) return halted(detail.error);
  const comments = detail.value.comments;
  const staleMs = config.heartbeat.stale_lock_hours * 3_600_000;
  let notes: StepNotes = {};
  if (labels.includes(working) && beat.cleansStaleLabels && isStaleWorking(comments, login, deps.clock.now().getTime(), staleMs)) {
    const removed = await editLabels(beat, issue.number, { remove: [working] });
    if (removed.isErr()) return halted(removed.error);
    const posted = await mutate(beat, () =>
      deps.tracker.comment(issue.number, renderStaleCleanupComment(working, config.heartbeat.stale_lock_hours)),
    );
    if (posted.isErr()) return halted(posted.error);
    notes = { messages: [`Cleaned stale ${working} on #${issue.number}.`] };
    labels = labels.filter((l) => l !== working);
  }
  return stepped({ labels, unblockedByHuman: labels.includes(blocked) && commentsSinceLastAgent(comments, login).length > 0 }, notes);
}
