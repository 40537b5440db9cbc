import { ResultAsync, okAsync } from 'neverthrow';
import { calendarDateIn, daysFromToday, formatMonthDay, isDeletePast, type CalendarDate } from '../dates/date-tokens.js';
import type { PullRequestRef, Runbook, RunbookItem } from '../model/runbook.js';
import type { PullRequestState, PullRequestStateError, PullRequestStates } from '../ports/pull-request-states.js';

/** Why an item is in the plan. */
export type PruneReason = 'delete-date-past' | 'check-date-past' | 'pr-merged' | 'pr-closed-unmerged';

/**
 * What the plan does with an item: `remove` deletes its lines; `review` is listed for the lead only
 * (a past bare check date makes the item invisible to the gate, but whether it lifted is a judgement).
 */
export type PruneAction = 'remove' | 'review';

/** One planned change. */
export interface PruneEntry {
  readonly action: PruneAction;
  readonly reason: PruneReason;
  readonly line: number;
  readonly endLine: number;
  readonly section: string;
  readonly text: string;
  /** What to move to memory before the line goes: the item and its sub-lines, list markers removed. */
  readonly durableFacts: readonly string[];
  /** Human-readable detail: the date or PR that fired. */
  readonly detail: string;
}

/** A PR whose state could not be read: its item stays, with a warning. */
export interface PruneWarning {
  readonly line: number;
  readonly message: string;
}

/** The result of planning a prune. Apply it with {@link applyPrunePlan}. */
export interface PrunePlan {
  readonly entries: readonly PruneEntry[];
  readonly warnings: readonly PruneWarning[];
}

/** Pull request states by `#N` or `owner/repo#N` (the key of a `PullRequestRef`); an error means "unknown, keep the item". */
export type PullRequestStateMap = ReadonlyMap<string, PullRequestState | PullRequestStateError>;

/** The map key of a pull request reference (`#12`, `o/r#12`). */
export function pullRequestKey(ref: PullRequestRef): string {
  return `${ref.repo ?? ''}#${ref.number}`;
}

function isState(v: PullRequestState | PullRequestStateError): v is PullRequestState {
  return 'state' in v;
}

function facts(item: RunbookItem): readonly string[] {
  return [item.text, ...item.children]
    .map((l) => l.replace(/^(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]?\]\s*)?/, '').trim())
    .filter((l) => l !== '');
}

/** Every distinct pull request the runbook's tracked triggers name. */
export function pullRequestsToRead(runbook: Runbook): readonly PullRequestRef[] {
  const seen = new Map<string, PullRequestRef>();
  for (const item of runbook.trackedItems) for (const ref of item.pullRequests) seen.set(pullRequestKey(ref), ref);
  return [...seen.values()];
}

/** Reads every PR a trigger names through the port; a failed read becomes an error entry, never a failure. */
export function readPullRequestStates(runbook: Runbook, port: PullRequestStates): ResultAsync<PullRequestStateMap, never> {
  const refs = pullRequestsToRead(runbook);
  const reads = refs.map((ref) =>
    port.read(ref).match<[string, PullRequestState | PullRequestStateError]>(
      (state) => [pullRequestKey(ref), state],
      (error) => [pullRequestKey(ref), error],
    ),
  );
  if (reads.length === 0) return okAsync(new Map());
  return ResultAsync.fromSafePromise(Promise.all(reads).then((pairs) => new Map(pairs)));
}

/**
 * Plans step 2 of a checklist task ("prune first"): past `DELETE` dates, merged PR triggers (the
 * lift fired) and closed-unmerged PR triggers (the item is dead) are removed; past bare check dates
 * are listed for review.
 */
export function planPrune(runbook: Runbook, now: Date, timeZone: string, prStates: PullRequestStateMap = new Map()): PrunePlan {
  return planPruneOn(runbook, calendarDateIn(now, timeZone), prStates);
}

/** {@link planPrune} for an already-resolved calendar day. */
export function planPruneOn(runbook: Runbook, today: CalendarDate, prStates: PullRequestStateMap = new Map()): PrunePlan {
  const entries: PruneEntry[] = [];
  const warnings: PruneWarning[] = [];
  for (const item of runbook.trackedItems) {
    const base = { line: item.line, endLine: item.endLine, section: item.section, text: item.text, durableFacts: facts(item) };
    const del = item.tokens.deletes.find((d) => isDeletePast(d, today));
    if (del !== undefined) {
      entries.push({
        ...base,
        action: 'remove',
        reason: 'delete-date-past',
        detail: `DELETE ${formatMonthDay(del)} is on or before today`,
      });
      continue;
    }
    let decided = false;
    for (const ref of item.pullRequests) {
      const state = prStates.get(pullRequestKey(ref));
      if (state === undefined) continue;
      if (!isState(state)) {
        warnings.push({
          line: item.line,
          message: `line ${item.line}: could not read PR ${pullRequestKey(ref)} (${state.kind}: ${state.message}); item kept`,
        });
        continue;
      }
      if (state.state === 'MERGED') {
        entries.push({
          ...base,
          action: 'remove',
          reason: 'pr-merged',
          detail: `PR ${pullRequestKey(ref)} merged${state.mergedAt === null ? '' : ` at ${state.mergedAt}`}: the lift fired`,
        });
        decided = true;
        break;
      }
      if (state.state === 'CLOSED') {
        entries.push({
          ...base,
          action: 'remove',
          reason: 'pr-closed-unmerged',
          detail: `PR ${pullRequestKey(ref)} closed without merge: the item is dead`,
        });
        decided = true;
        break;
      }
    }
    if (decided) continue;
    const bare = item.tokens.bare.filter((b) => !item.tokens.deletes.some((d) => d.month === b.month && d.day === b.day));
    // Past only when every bare date is past: an item with a future check is still live.
    if (bare.length > 0 && bare.every((b) => daysFromToday(b, today) < 0)) {
      entries.push({
        ...base,
        action: 'review',
        reason: 'check-date-past',
        detail: `check ${bare.map(formatMonthDay).join(', ')} is past; the gate no longer sees this item: lift it or write a new date`,
      });
    }
  }
  return { entries, warnings };
}

/**
 * The runbook text without the lines of every `remove` entry; everything else is kept byte for byte.
 * A blank line left doubled by a removal is kept: the rewrite never touches lines it did not plan.
 */
export function applyPrunePlan(text: string, plan: PrunePlan): string {
  const drop = new Set<number>();
  for (const e of plan.entries) {
    if (e.action !== 'remove') continue;
    for (let l = e.line; l <= e.endLine; l += 1) drop.add(l);
  }
  if (drop.size === 0) return text;
  return text
    .split('\n')
    .filter((_, i) => !drop.has(i + 1))
    .join('\n');
}
