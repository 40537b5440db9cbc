import { err, ok, type Result } from 'neverthrow';
import { decomposedParents } from '../log/log-lines.js';
import type { IssueSummary } from '../ports/issue-tracker.js';
import { commentsSinceLastAgent, renderStaleCleanupComment } from '../report/comments.js';
import { isStaleWorking, type Halt } from './beat-plan.js';
import { editLabels, mutate, read, type Beat } from './beat-session.js';

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
export async function readInbox(beat: Beat): Promise<Result<InboxRead, Halt>> {
  const { deps, tally } = beat;
  const auth = await read(deps.tracker.authStatus());
  if (auth.isErr()) return err(auth.error);
  const login = auth.value.login;
  const listed = await read(deps.tracker.listInbox());
  if (listed.isErr()) return err(listed.error);
  const logRead = await deps.log.read();
  if (logRead.isErr()) tally.warnings.push(`heartbeat-log.jsonl: ${logRead.error.message}`);
  else tally.warnings.push(...logRead.value.warnings);
  const decomposed = logRead.isOk() ? decomposedParents(logRead.value.lines) : new Set<number>();

  const issues: IssueSummary[] = [];
  const unblockedByHuman = new Set<number>();
  for (const issue of listed.value) {
    const reviewed = await reviewIssue(beat, login, issue);
    if (reviewed.isErr()) return err(reviewed.error);
    if (reviewed.value.unblockedByHuman) unblockedByHuman.add(issue.number);
    issues.push({ ...issue, labels: reviewed.value.labels });
  }
  return ok({ login, issues, unblockedByHuman, decomposed });
}

/**
 * Step 2 for one issue with the working or blocked label: a stale working label is cleaned (not
 * in a dry run); a blocked issue with a human comment after the last agent comment is unblocked
 * (reference Q4: the footer marks agent comments).
 */
async function reviewIssue(
  beat: Beat,
  login: string,
  issue: IssueSummary,
): Promise<Result<{ readonly labels: readonly string[]; readonly unblockedByHuman: boolean }, Halt>> {
  const { deps, config } = beat;
  const { working, blocked } = config.labels;
  let labels = issue.labels;
  if (!labels.includes(working) && !labels.includes(blocked)) return ok({ labels, unblockedByHuman: false });
  const detail = await read(deps.tracker.viewIssue(issue.number));
  if (detail.isErr()) return err(detail.error);
  const comments = detail.value.comments;
  const staleMs = config.heartbeat.stale_lock_hours * 3_600_000;
  if (labels.includes(working) && !beat.dryRun && isStaleWorking(comments, login, deps.clock.now().getTime(), staleMs)) {
    const removed = await editLabels(beat, issue.number, { remove: [working] });
    if (removed.isErr()) return err(removed.error);
    const posted = await mutate(beat, () =>
      deps.tracker.comment(issue.number, renderStaleCleanupComment(working, config.heartbeat.stale_lock_hours)),
    );
    if (posted.isErr()) return err(posted.error);
    beat.tally.messages.push(`Cleaned stale ${working} on #${issue.number}.`);
    labels = labels.filter((l) => l !== working);
  }
  return ok({ labels, unblockedByHuman: labels.includes(blocked) && commentsSinceLastAgent(comments, login).length > 0 });
}
