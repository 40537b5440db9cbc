import { sanitizeForMessage } from '@heartbeat-kit/core';
import { err, ok, type Result } from 'neverthrow';
import { composePrompt, parentReference } from '../dispatch/prompt.js';
import type { Outcome } from '../dispatch/outcome.js';
import type { InboxEntry } from '../inbox/inbox.js';
import type { IssueStatus } from '../log/log-lines.js';
import type { DispatchFailure, DispatchReport } from '../ports/dispatcher.js';
import type { IssueComment, IssueDetail } from '../ports/issue-tracker.js';
import { commentsSinceLastAgent, lastHeartbeatComment } from '../report/comments.js';
import { dispatchActions, renderIssueReport, renderMissingToolsReport } from '../report/issue-report.js';
import { decompose } from '../subissues/sub-issues.js';
import { createdChildLine, dispatchVerdict, elapsedSeconds, isoSeconds, planSubIssues, type Halt } from './beat-plan.js';
import { appendIssueLine, editLabels, mutate, owns, read, type Beat } from './beat-session.js';
import { halted, joinNotes, stepped, type StepNotes, type Stepped } from './beat-summary.js';
import { planLabelTransition, planParentClose, planPickUp } from './label-plan.js';
import type { LoadedPersona, WorkedIssue } from './beat-types.js';

// Steps 5–10 of a beat for one issue, as a sequence of I/O steps; every decision in them is a pure
// function (label-plan.ts, beat-plan.ts, report/).

/** A beat after step 2: it knows its GitHub login and the parents it decomposed. */
export interface WorkingBeat extends Beat {
  readonly login: string;
  readonly decomposed: ReadonlySet<number>;
}

/** Step 7's reading of an issue. */
interface IssueContext {
  readonly issue: IssueDetail;
  readonly parent?: IssueDetail;
  readonly previousUrl?: string;
  readonly heartbeat: number;
  readonly newComments: ReadonlySet<IssueComment>;
}

const clean = (text: string, max = 300): string => sanitizeForMessage(text, { maxLength: max });

/** Steps 5–10 for one issue of the queue. */
export async function workIssue(beat: WorkingBeat, entry: InboxEntry, persona: LoadedPersona): Promise<Stepped<WorkedIssue>> {
  const n = entry.issue.number;
  // Step 5: required tools.
  const missing = await missingTools(beat, persona);
  if (missing.isErr()) return halted(missing.error);
  const issueStartMs = beat.deps.clock.now().getTime();
  if (missing.value.length > 0) return blockForMissingTools(beat, n, persona, missing.value);

  // Step 6: lock the issue; picking up a blocked issue drops agent-blocked in the same edit.
  const labels = await read(beat.deps.tracker.viewLabels(n));
  if (labels.isErr()) return halted(labels.error);
  const pickUp = planPickUp(labels.value, beat.config.labels);
  if (pickUp !== undefined) {
    const edited = await editLabels(beat, n, pickUp);
    if (edited.isErr()) return halted(edited.error);
  }

  // Step 7: context.
  const context = await readIssueContext(beat, n);
  if (context.result.isErr()) return halted(context.result.error, context.notes);

  // Step 8: dispatch, then the children the persona asked the loop to create, before the report lists them.
  const dispatched = await dispatchPersona(beat, persona, context.result.value);
  // Ctrl-C/SIGTERM cut the agent off: its failure is the signal's, so nothing is posted about it.
  if (dispatched.isErr() && beat.deps.signal?.aborted === true) return halted({ kind: 'interrupted', issue: n }, context.notes);
  const notes = joinNotes(context.notes, { verdicts: [dispatchVerdict(dispatched, n)] });
  const children = await createSubIssues(beat, n, labels.value, dispatched);
  if (children.isErr()) return halted(children.error, notes);

  const reported = await reportIssue(beat, { n, persona, issueStartMs, context: context.result.value, dispatched, ...children.value });
  return { result: reported.result, notes: joinNotes(notes, reported.notes) };
}

/** Step 5: the persona's required tools that are missing (`gh` must be authenticated: a failure halts). */
async function missingTools(beat: WorkingBeat, persona: LoadedPersona): Promise<Result<string[], Halt>> {
  const missing: string[] = [];
  for (const tool of persona.config.required_tools) {
    if (tool === 'gh') {
      const auth = await read(beat.deps.tracker.authStatus());
      if (auth.isErr()) return err(auth.error);
    } else if (tool.startsWith('mcp__')) {
      if (!beat.config.dispatch.mcp_tools.some((t) => t.startsWith(tool))) missing.push(tool);
    } else {
      const found = await beat.deps.tools.hasExecutable(tool);
      if (!found.isOk() || !found.value) missing.push(tool);
    }
  }
  return ok(missing);
}

/** Step 5's block: a comment naming the missing tools, one label edit, an issue line. Not a beat exit. */
async function blockForMissingTools(
  beat: WorkingBeat,
  n: number,
  persona: LoadedPersona,
  missing: readonly string[],
): Promise<Stepped<WorkedIssue>> {
  const { deps, config } = beat;
  const detail = await read(deps.tracker.viewIssue(n));
  if (detail.isErr()) return halted(detail.error);
  const previous = lastHeartbeatComment(detail.value.comments, beat.login);
  const heartbeat = (previous?.n ?? 0) + 1;
  const body = renderMissingToolsReport({
    heartbeat,
    at: deps.clock.now(),
    persona: persona.name,
    issue: n,
    boardUser: config.github.board_user,
    missing,
  });
  const posted = await mutate(beat, () => deps.tracker.comment(n, body));
  if (posted.isErr()) return halted(posted.error);
  const edited = await editLabels(beat, n, { add: [config.labels.blocked], remove: [config.labels.working] });
  if (edited.isErr()) return halted(edited.error);
  const recorded = await appendIssueLine(beat, {
    heartbeat,
    timestamp: isoSeconds(deps.clock.now().getTime()),
    issue: `#${n}`,
    persona: persona.name,
    duration_sec: 0,
    status: 'blocked',
    actions: [`missing tools: ${missing.join(', ')}`],
  });
  return stepped({ issue: n, persona: persona.name, status: 'blocked', heartbeat }, recorded);
}

/** Step 7: the issue, its parent (a failure to read it is a warning), the heartbeat counter and the new comments. */
async function readIssueContext(beat: WorkingBeat, n: number): Promise<Stepped<IssueContext>> {
  const detail = await read(beat.deps.tracker.viewIssue(n));
  if (detail.isErr()) return halted(detail.error);
  const issue = detail.value;
  const parentNumber = parentReference(issue.body);
  let parent: IssueDetail | undefined;
  let notes: StepNotes = {};
  if (parentNumber !== undefined && parentNumber !== n) {
    const p = await beat.deps.tracker.viewIssue(parentNumber);
    if (p.isOk()) parent = p.value;
    else notes = { warnings: [`#${n}: parent #${parentNumber} could not be read (${clean(p.error.message)}).`] };
  }
  const previous = lastHeartbeatComment(issue.comments, beat.login);
  return stepped(
    {
      issue,
      ...(parent === undefined ? {} : { parent }),
      ...(previous === undefined ? {} : { previousUrl: previous.comment.url }),
      heartbeat: (previous?.n ?? 0) + 1,
      newComments: new Set(commentsSinceLastAgent(issue.comments, beat.login)),
    },
    notes,
  );
}

/** Step 8: the persona's prompt, dispatched. */
function dispatchPersona(
  beat: WorkingBeat,
  persona: LoadedPersona,
  context: IssueContext,
): Promise<Result<DispatchReport, DispatchFailure>> {
  const { config } = beat;
  const prompt = composePrompt({
    soul: persona.soul,
    tools: persona.tools,
    issue: context.issue,
    newComments: context.newComments,
    ...(context.parent === undefined ? {} : { parent: context.parent }),
    persona: persona.config,
    repo: config.github.repo,
    boardUser: config.github.board_user,
  });
  return Promise.resolve(
    beat.deps.dispatcher.dispatch({
      persona: persona.name,
      model: persona.config.runtime.model,
      thinkingEffort: persona.config.runtime.thinking_effort,
      maxTurns: persona.config.runtime.max_turns,
      prompt,
    }),
  );
}

/** The sub-issues of an outcome: report lines for all, and the `created #N` actions of those the loop created. */
interface SubIssueLines {
  readonly createdLines: readonly string[];
  readonly actions: readonly string[];
}

/** Step 8's decomposition: creates the children the outcome asks for (only while the lock is ours). */
async function createSubIssues(
  beat: WorkingBeat,
  n: number,
  labels: readonly string[],
  dispatched: Result<DispatchReport, DispatchFailure>,
): Promise<Result<SubIssueLines, Halt>> {
  if (dispatched.isErr()) return ok({ createdLines: [], actions: [] });
  const plan = planSubIssues(dispatched.value.outcome, beat.config.personas);
  if (plan.toCreate.length === 0) return ok({ createdLines: plan.listed, actions: [] });
  const made = await decompose(beat.deps.tracker, { number: n, labels }, plan.toCreate, () => owns(beat));
  if (made.isErr())
    return err(made.error.kind === 'superseded' ? { kind: 'superseded' } : { kind: 'gh-failed', message: made.error.error.message });
  return ok({
    createdLines: [...plan.listed, ...made.value.created.map(createdChildLine)],
    actions: made.value.created.map((c) => `created #${c.number}`),
  });
}

/** What step 9 reports on. */
interface IssueWork extends SubIssueLines {
  readonly n: number;
  readonly persona: LoadedPersona;
  readonly issueStartMs: number;
  readonly context: IssueContext;
  readonly dispatched: Result<DispatchReport, DispatchFailure>;
}

/** Steps 9–10: re-check ownership and the working label, post the report, write the issue line, move the labels. */
async function reportIssue(beat: WorkingBeat, work: IssueWork): Promise<Stepped<WorkedIssue>> {
  const { deps, config } = beat;
  const { n, persona, dispatched } = work;
  if (!(await owns(beat))) return halted({ kind: 'superseded' });
  const current = await read(deps.tracker.viewLabels(n));
  if (current.isErr()) return halted(current.error);
  if (!current.value.includes(config.labels.working)) return halted({ kind: 'withdrawn', issue: n });

  const now = deps.clock.now();
  const durationSec = elapsedSeconds(work.issueStartMs, now.getTime());
  const { body, status } = renderIssueReport(dispatched, {
    heartbeat: work.context.heartbeat,
    at: now,
    durationSec,
    persona: persona.name,
    issue: n,
    repo: config.github.repo,
    boardUser: config.github.board_user,
    blockedLabel: config.labels.blocked,
    createdLines: work.createdLines,
    ...(work.context.previousUrl === undefined ? {} : { previousUrl: work.context.previousUrl }),
  });
  const posted = await mutate(beat, () => deps.tracker.comment(n, body));
  if (posted.isErr()) return halted(posted.error, posted.error.kind === 'gh-failed' ? { reportNotPosted: n } : {});
  const recorded = await appendIssueLine(beat, {
    heartbeat: work.context.heartbeat,
    timestamp: isoSeconds(now.getTime()),
    issue: `#${n}`,
    persona: persona.name,
    duration_sec: durationSec,
    status,
    actions: [...work.actions, ...dispatchActions(dispatched)],
  });

  const outcome = dispatched.isOk() ? dispatched.value.outcome : undefined;
  const transitioned = await transition(beat, { n, status, outcome, persona, labels: current.value });
  const worked: WorkedIssue = { issue: n, persona: persona.name, status, heartbeat: work.context.heartbeat };
  return { result: transitioned.result.map(() => worked), notes: joinNotes(recorded, transitioned.notes) };
}

/** What step 10 moves. */
interface TransitionInput {
  readonly n: number;
  readonly status: IssueStatus;
  readonly outcome: Outcome | undefined;
  readonly persona: LoadedPersona;
  /** The labels as read at step 9. */
  readonly labels: readonly string[];
}

/** Step 10: the planned label edit, then (completed, no PR) the close its sub-issues allow. */
async function transition(beat: WorkingBeat, input: TransitionInput): Promise<Stepped<void>> {
  const { n, outcome } = input;
  const target = outcome?.escalationTarget;
  const targetLabel = target === undefined ? undefined : beat.config.personas[target]?.label;
  const plan = planLabelTransition({
    status: input.status,
    labels: input.labels,
    names: beat.config.labels,
    openedPullRequest: (outcome?.prs.length ?? 0) > 0,
    personaLabel: input.persona.label,
    ...(targetLabel === undefined ? {} : { escalationLabel: targetLabel }),
  });
  if (plan.edit !== undefined) {
    const edited = await editLabels(beat, n, plan.edit);
    if (edited.isErr() || !plan.close) return { result: edited, notes: {} };
  }
  if (!plan.close) return stepped(undefined);
  const subs = await read(beat.deps.tracker.listSubIssues(n));
  if (subs.isErr()) return halted(subs.error);
  const decision = planParentClose(subs.value, beat.decomposed.has(n));
  if (decision.kind === 'leave-open') return stepped(undefined, { warnings: [`#${n}: left open — ${decision.reason}.`] });
  return { result: await mutate(beat, () => beat.deps.tracker.close(n)), notes: {} };
}
