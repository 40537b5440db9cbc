import { sanitizeForMessage } from '@heartbeat-kit/core';
import type { WoterclipConfig } from '../config/woterclip-config.js';
import { buildInbox, STATUS_LABELS } from '../inbox/inbox.js';
import { renderLockView, type LockView } from '../lock/lock-holder.js';
import { decomposedParents, groupBeats, isBeatLine, type BeatGroup, type LogLine } from '../log/log-lines.js';
import type { IssueDetail, IssueSummary } from '../ports/issue-tracker.js';
import { clearsWhenOf, isAgentComment } from '../report/comments.js';

/** After this long without a beat, a non-empty queue reads as "Stopped" (a reporting threshold, not a timeout). */
export const STOPPED_AFTER_MS = 2 * 3_600_000;

/** What the status view is computed from. */
export interface StatusInput {
  readonly config: WoterclipConfig;
  readonly login: string;
  readonly inbox: readonly IssueSummary[];
  /** Details of the blocked issues (for their `Clears when:` line). */
  readonly blockedDetails: readonly IssueDetail[];
  readonly log: readonly LogLine[];
  readonly now: Date;
  /** How many beat groups to show. */
  readonly lastBeats?: number;
}

/** The status of the WoterClip queue. */
export interface StatusView {
  readonly queue: readonly { readonly persona: string; readonly issues: readonly number[] }[];
  readonly inProgress: readonly number[];
  readonly blocked: readonly { readonly issue: number; readonly title: string; readonly clearsWhen: string }[];
  readonly beats: readonly BeatGroup[];
  readonly lastBeatAt?: string;
  readonly stopped: boolean;
  /** The agent dispatch's circuit breaker, while it is open (beats work no issue until the next try). */
  readonly dispatchBreaker?: {
    readonly failures: number;
    readonly message: string;
    readonly since: string;
    readonly nextTryBeat: number;
    readonly lastBeat: number;
  };
  /** `.woterclip/.heartbeat-lock`, when the status was loaded with the lock store. */
  readonly lock?: LockView;
}

/** Computes the status view (reference §7 reading rules). */
export function buildStatus(input: StatusInput): StatusView {
  const { config } = input;
  const entries = buildInbox(input.inbox, {
    config,
    triageOnly: false,
    unblockedByHuman: new Set(),
    decomposed: decomposedParents(input.log),
  });
  const queue = new Map<string, number[]>();
  for (const e of entries) queue.set(e.persona, [...(queue.get(e.persona) ?? []), e.issue.number]);
  const blocked = input.inbox
    .filter((i) => i.labels.includes(config.labels.blocked))
    .map((i) => {
      const detail = input.blockedDetails.find((d) => d.number === i.number);
      const last = [...(detail?.comments ?? [])]
        .reverse()
        .find((c) => isAgentComment(c, input.login) && /\*\*Status:\*\* Blocked/.test(c.body));
      const clears = last === undefined ? undefined : clearsWhenOf(last.body);
      return { issue: i.number, title: i.title, clearsWhen: clears ?? 'not stated' };
    });
  const lastBeat = [...input.log].reverse().find(isBeatLine);
  const lastMs = lastBeat === undefined ? undefined : Date.parse(lastBeat.ended_at);
  const stale = lastMs === undefined || Number.isNaN(lastMs) || input.now.getTime() - lastMs > STOPPED_AFTER_MS;
  return {
    queue: [...queue].map(([persona, issues]) => ({ persona, issues })),
    inProgress: input.inbox
      .filter((i) => i.labels.includes(config.labels.working) || i.labels.includes(STATUS_LABELS.inProgress))
      .map((i) => i.number),
    blocked,
    beats: groupBeats(input.log).slice(-(input.lastBeats ?? 5)),
    ...(lastBeat === undefined ? {} : { lastBeatAt: lastBeat.ended_at }),
    stopped: stale && entries.length > 0,
  };
}

const DASH = '—';

/** Renders the status view as text. Missing values are an em dash, never 0. */
export function renderStatus(view: StatusView): string {
  const lines: string[] = [];
  lines.push(
    view.stopped
      ? `Stopped: no heartbeat since ${view.lastBeatAt ?? DASH} and the queue is not empty.`
      : `Running: last heartbeat ${view.lastBeatAt ?? DASH}.`,
  );
  if (view.lock !== undefined) lines.push(renderLockView(view.lock));
  const b = view.dispatchBreaker;
  if (b !== undefined)
    lines.push(
      `Dispatch breaker open: the agent dispatch failed ${b.failures} beats in a row (${sanitizeForMessage(b.message, { maxLength: 200 })}) since ${b.since}; last beat #${b.lastBeat}, next try at beat #${b.nextTryBeat}.`,
    );
  lines.push('', 'Queue by persona:');
  if (view.queue.length === 0) lines.push('  (empty)');
  for (const q of view.queue) lines.push(`  ${q.persona}: ${q.issues.map((n) => `#${n}`).join(', ')}`);
  lines.push('', `In progress: ${view.inProgress.length === 0 ? '(none)' : view.inProgress.map((n) => `#${n}`).join(', ')}`);
  lines.push('', 'Blocked:');
  if (view.blocked.length === 0) lines.push('  (none)');
  for (const b of view.blocked)
    lines.push(
      `  #${b.issue} "${sanitizeForMessage(b.title, { maxLength: 80 })}" — Clears when: ${sanitizeForMessage(b.clearsWhen, { maxLength: 200 })}`,
    );
  lines.push('', 'Last beats:');
  if (view.beats.length === 0) lines.push('  (none recorded)');
  for (const g of view.beats) {
    const issues = g.issues.map((i) => i.issue).join(' ') || DASH;
    if (g.beat !== undefined)
      lines.push(
        `  ${g.beat.ended_at}  ${g.beat.stop_reason.padEnd(13)} worked ${g.beat.issues_worked}  ${g.beat.beat_elapsed_sec}s  ${issues}`,
      );
    else if (g.kind === 'died')
      lines.push(`  ${g.issues.at(-1)?.timestamp ?? DASH}  died (no beat line — incident)  cost ${DASH}  ${issues}`);
    else lines.push(`  ${g.issues.at(-1)?.timestamp ?? DASH}  pre-contract history  cost ${DASH}  ${issues}`);
  }
  return `${lines.join('\n')}\n`;
}
