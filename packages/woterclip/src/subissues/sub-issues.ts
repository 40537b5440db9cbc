import { err, ok, type Result } from 'neverthrow';
import type { IssueTracker, SubIssueState, TrackerError } from '../ports/issue-tracker.js';
import { PRIORITY_LABELS } from '../inbox/inbox.js';
import { renderUnattachedComment } from '../report/comments.js';

/** A child to create under a parent. */
export interface ChildSpec {
  readonly title: string;
  readonly persona: string;
  /** The persona's label; `null` for the default persona (no label). */
  readonly personaLabel: string | null;
  readonly body?: string;
  /** Blocking children get `priority:high`; others inherit the parent's priority label. */
  readonly blocking?: boolean;
}

/** A child that was created, and whether it is attached to the parent. */
export interface CreatedChild {
  readonly number: number;
  readonly title: string;
  readonly persona: string;
  readonly attached: boolean;
}

/** What decomposing did. A creation failure stops further work (GitHub is failing). */
export interface DecomposeResult {
  readonly created: readonly CreatedChild[];
  readonly unattachedCommentPosted: boolean;
}

/**
 * A guard run before every mutation: resolves to false when the beat no longer owns its lock,
 * in which case nothing more is written.
 */
export type MutationGuard = () => Promise<boolean>;

/** Why decomposition stopped early. */
export type DecomposeError =
  { readonly kind: 'superseded' } | { readonly kind: 'tracker'; readonly error: TrackerError; readonly created: readonly CreatedChild[] };

/** The body of a child: the description plus the required `Parent: #N` reference. */
export function childBody(description: string | undefined, parent: number): string {
  const text = (description ?? '').trim();
  return `${text === '' ? '' : `${text}\n\n`}Parent: #${parent}`;
}

/** The labels of a child: its persona label and the inherited or blocking priority. */
export function childLabels(child: ChildSpec, parentLabels: readonly string[]): string[] {
  const priority =
    child.blocking === true ? PRIORITY_LABELS.high : parentLabels.find((l) => l === PRIORITY_LABELS.high || l === PRIORITY_LABELS.low);
  return [...(child.personaLabel === null ? [] : [child.personaLabel]), ...(priority === undefined ? [] : [priority])];
}

/**
 * Creates children under `parent` (reference §12): create with `Parent: #N`, resolve the REST id,
 * attach with an integer id, verify by listing. Children that could not be attached are named
 * once in a `Created but unattached` comment on the parent — never retried blindly.
 */
export async function decompose(
  tracker: IssueTracker,
  parent: { readonly number: number; readonly labels: readonly string[] },
  children: readonly ChildSpec[],
  guard: MutationGuard,
): Promise<Result<DecomposeResult, DecomposeError>> {
  const created: CreatedChild[] = [];
  for (const child of children) {
    if (!(await guard())) return err({ kind: 'superseded' });
    const made = await tracker.createIssue({
      title: child.title,
      body: childBody(child.body, parent.number),
      labels: childLabels(child, parent.labels),
    });
    if (made.isErr()) return err({ kind: 'tracker', error: made.error, created });
    const attached = (await guard()) ? await attach(tracker, parent.number, made.value.number) : undefined;
    if (attached === undefined) return err({ kind: 'superseded' });
    created.push({ number: made.value.number, title: child.title, persona: child.persona, attached });
  }
  const unattached = created.filter((c) => !c.attached).map((c) => c.number);
  if (unattached.length === 0) return ok({ created, unattachedCommentPosted: false });
  if (!(await guard())) return err({ kind: 'superseded' });
  const posted = await tracker.comment(parent.number, renderUnattachedComment(unattached));
  return ok({ created, unattachedCommentPosted: posted.isOk() });
}

async function attach(tracker: IssueTracker, parent: number, child: number): Promise<boolean> {
  const verified = await tracker
    .issueId(child)
    .andThen((id) => tracker.addSubIssue(parent, id))
    .andThen(() => tracker.listSubIssues(parent));
  return verified.isOk() && verified.value.some((s) => s.number === child);
}

/** Whether a parent may be closed: its sub-issue list is non-empty, all closed, and covers the expected children. */
export function canCloseParent(subIssues: readonly SubIssueState[], expectedChildren: readonly number[]): boolean {
  if (subIssues.length === 0) return false;
  if (!subIssues.every((s) => s.state === 'closed')) return false;
  const listed = new Set(subIssues.map((s) => s.number));
  return expectedChildren.every((c) => listed.has(c));
}
