import { sanitizeForMessage } from '@heartbeat-kit/core';
import type { Result } from 'neverthrow';
import type { IssueStatus } from '../log/log-lines.js';
import type { DispatchFailure, DispatchReport } from '../ports/dispatcher.js';
import { renderBlockedComment, renderStandardComment } from './comments.js';

const clean = (text: string, max: number): string => sanitizeForMessage(text, { maxLength: max });

/** Where and when a report is posted, and what the beat knows besides the dispatch. */
export interface IssueReportContext {
  /** This report's `Heartbeat #N`. */
  readonly heartbeat: number;
  readonly at: Date;
  readonly durationSec: number;
  readonly persona: string;
  readonly issue: number;
  readonly repo: string;
  readonly boardUser: string;
  /** The repository's blocked label, named in a failed dispatch's `Clears when:`. */
  readonly blockedLabel: string;
  /** `#N — Title (persona)` lines of the sub-issues created or announced this beat. */
  readonly createdLines: readonly string[];
  /** URL of the previous report on the issue, when there is one. */
  readonly previousUrl?: string;
}

/** A rendered report and the status it gives the issue (the status logged and used for labels). */
export interface IssueReport {
  readonly status: IssueStatus;
  readonly body: string;
}

/**
 * Step 9's report (reference §11), decided from the dispatch alone: a failed or unparseable
 * dispatch is blocked (it may have done part of the work, so it is not re-run); an outcome that
 * says blocked is blocked; an escalation stays in progress; otherwise the outcome's status.
 */
export function renderIssueReport(dispatched: Result<DispatchReport, DispatchFailure>, r: IssueReportContext): IssueReport {
  const base = { n: r.heartbeat, at: r.at, durationSec: r.durationSec, persona: r.persona, issue: r.issue };
  if (dispatched.isErr()) {
    const f = dispatched.error;
    const raw = f.raw.trim() === '' ? '' : `\n\nRaw return (tail):\n${f.raw}`;
    return {
      status: 'blocked',
      body: renderBlockedComment({
        ...base,
        model: f.model,
        boardUser: r.boardUser,
        blocker: `The ${r.persona} dispatch returned no usable outcome: ${f.message}. It may have done part of the work, so the loop did not re-run it.${raw}`,
        ask: 'check the dispatch log and the branch for partial work, then remove the blocked label.',
        clearsWhen: `the ${r.blockedLabel} label is removed after the partial work is checked.`,
        doneBefore: [],
      }),
    };
  }
  const { outcome: o, model } = dispatched.value;
  if (o.status === 'blocked') {
    return {
      status: 'blocked',
      body: renderBlockedComment({
        ...base,
        model,
        boardUser: r.boardUser,
        blocker: o.blocker?.description ?? (o.summary || 'The persona reported blocked without a description.'),
        ask: o.blocker?.actionNeeded || 'review the blocker above.',
        clearsWhen: o.blocker?.clearsWhen ?? 'not stated by the persona; the Board states the condition when removing the blocked label.',
        doneBefore: [...(o.summary ? [o.summary] : []), ...o.commits.map((c) => `${c.sha.slice(0, 7)} ${c.message}`)],
      }),
    };
  }
  const escalated = o.escalationTarget !== undefined;
  const status: Exclude<IssueStatus, 'blocked'> = escalated ? 'in_progress' : o.status;
  return {
    status,
    body: renderStandardComment({
      ...base,
      status,
      model,
      repo: r.repo,
      summary: o.summary,
      commits: o.commits,
      prs: o.prs,
      subIssues: r.createdLines,
      nextSteps: o.nextSteps,
      notes: escalated ? [`Escalated to ${clean(o.escalationTarget ?? '', 40)}.`] : [],
      ...(r.previousUrl === undefined ? {} : { previousUrl: r.previousUrl }),
      needsManualVerification: o.needsManualVerification,
    }),
  };
}

/** The `actions` of an issue line for what the dispatch did (after any `created #N` entries). */
export function dispatchActions(dispatched: Result<DispatchReport, DispatchFailure>): readonly string[] {
  if (dispatched.isErr()) return [`dispatch ${dispatched.error.kind}: ${clean(dispatched.error.message, 200)}`];
  const o = dispatched.value.outcome;
  return [
    ...o.commits.map((c) => `committed ${c.sha.slice(0, 12)}`),
    ...o.prs.map((p) => `opened ${clean(p, 200)}`),
    ...(o.escalationTarget === undefined ? [] : [`escalated to ${clean(o.escalationTarget, 40)}`]),
  ];
}

/** What a missing-tools report needs. */
export interface MissingToolsContext {
  readonly heartbeat: number;
  readonly at: Date;
  readonly persona: string;
  readonly issue: number;
  readonly boardUser: string;
  /** The required tools that are not available (non-empty). */
  readonly missing: readonly string[];
}

/** Step 5's blocked report when a persona's required tool (other than gh) is unavailable. */
export function renderMissingToolsReport(r: MissingToolsContext): string {
  const names = r.missing.map((t) => `\`${clean(t, 80)}\``).join(', ');
  return renderBlockedComment({
    n: r.heartbeat,
    at: r.at,
    durationSec: 0,
    persona: r.persona,
    issue: r.issue,
    boardUser: r.boardUser,
    blocker: `Required tool unavailable for persona ${r.persona}: ${names}.`,
    ask: `make ${names} available to the heartbeat runner.`,
    clearsWhen: `${names} ${r.missing.length === 1 ? 'is' : 'are'} available to the heartbeat runner (on PATH, or listed in dispatch.mcp_tools for mcp__ tools).`,
    doneBefore: [],
  });
}
