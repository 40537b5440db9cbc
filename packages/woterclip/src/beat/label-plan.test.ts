import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { STATUS_LABELS } from '../inbox/inbox.js';
import { ISSUE_STATUSES } from '../log/log-lines.js';
import type { LabelEdit } from '../ports/issue-tracker.js';
import { planLabelTransition, planParentClose, planPickUp, type LabelTransitionInput } from './label-plan.js';

const names = { working: 'agent-working', blocked: 'agent-blocked' };
const personaLabels = ['backend', 'frontend', 'qa'] as const;
/** Labels an issue may carry: the beat's, the status labels, persona labels and unrelated ones. */
const anyLabel = fc.constantFrom(
  names.working,
  names.blocked,
  STATUS_LABELS.inProgress,
  STATUS_LABELS.inReview,
  STATUS_LABELS.todo,
  ...personaLabels,
  'bug',
  'priority:high',
);
const labelSet = fc.uniqueArray(anyLabel, { maxLength: 8 });
const personaLabel = fc.constantFrom<string | null>(null, ...personaLabels);

const input = fc.record(
  {
    status: fc.constantFrom(...ISSUE_STATUSES),
    labels: labelSet,
    names: fc.constant(names),
    openedPullRequest: fc.boolean(),
    personaLabel,
    escalationLabel: personaLabel,
  },
  { requiredKeys: ['status', 'labels', 'names', 'openedPullRequest', 'personaLabel'] },
) satisfies fc.Arbitrary<LabelTransitionInput>;

/** The labels after one atomic edit, the way gh applies it. */
function apply(labels: readonly string[], edit: LabelEdit | undefined): readonly string[] {
  if (edit === undefined) return labels;
  const remove = new Set(edit.remove ?? []);
  return [...labels.filter((l) => !remove.has(l)), ...(edit.add ?? []).filter((l) => !labels.includes(l) && !remove.has(l))];
}

describe('planPickUp (step 6)', () => {
  it('adds the working label and drops blocked in the same edit; nothing when already picked up', () => {
    expect(planPickUp(['backend'], names)).toEqual({ add: [names.working] });
    expect(planPickUp([names.blocked, 'backend'], names)).toEqual({ add: [names.working], remove: [names.blocked] });
    expect(planPickUp([names.working, names.blocked], names)).toEqual({ add: [names.working], remove: [names.blocked] });
    expect(planPickUp([names.working, 'bug'], names)).toBeUndefined();
  });

  it('property: after the edit the issue carries working and not blocked, and other labels are untouched', () => {
    fc.assert(
      fc.property(labelSet, (labels) => {
        const after = apply(labels, planPickUp(labels, names));
        expect(after).toContain(names.working);
        expect(after).not.toContain(names.blocked);
        const others = (l: readonly string[]) => l.filter((x) => x !== names.working && x !== names.blocked);
        expect(others(after)).toEqual(others(labels));
      }),
    );
  });
});

describe('planLabelTransition (step 10)', () => {
  it('follows the reference table', () => {
    const base = { labels: [names.working, STATUS_LABELS.inProgress, 'backend'], names, openedPullRequest: false, personaLabel: 'backend' };
    expect(planLabelTransition({ ...base, status: 'blocked' })).toEqual({
      edit: { remove: [names.working], add: [names.blocked] },
      close: false,
    });
    expect(planLabelTransition({ ...base, status: 'completed' })).toEqual({
      edit: { remove: [names.working, STATUS_LABELS.inProgress] },
      close: true,
    });
    expect(planLabelTransition({ ...base, status: 'completed', openedPullRequest: true })).toEqual({
      edit: { add: [STATUS_LABELS.inReview], remove: [names.working, STATUS_LABELS.inProgress] },
      close: false,
    });
    expect(planLabelTransition({ ...base, status: 'in_progress' })).toEqual({ close: false });
    expect(planLabelTransition({ ...base, labels: [names.working], status: 'in_progress' })).toEqual({
      edit: { add: [STATUS_LABELS.inProgress] },
      close: false,
    });
    expect(planLabelTransition({ ...base, status: 'in_progress', escalationLabel: 'qa' })).toEqual({
      edit: { add: ['qa'], remove: ['backend'] },
      close: false,
    });
    expect(planLabelTransition({ ...base, status: 'in_progress', escalationLabel: null })).toEqual({
      edit: { remove: ['backend'] },
      close: false,
    });
    expect(planLabelTransition({ ...base, personaLabel: null, status: 'in_progress', escalationLabel: 'qa' })).toEqual({
      edit: { add: ['qa'] },
      close: false,
    });
    expect(planLabelTransition({ ...base, status: 'triaged' })).toEqual({ edit: { remove: [names.working] }, close: false });
    expect(planLabelTransition({ ...base, status: 'decomposed' })).toEqual({
      edit: { remove: [names.working, STATUS_LABELS.inProgress] },
      close: false,
    });
  });

  it('property: one consistent edit whose result matches the status', () => {
    fc.assert(
      fc.property(input, (i) => {
        const plan = planLabelTransition(i);
        const add = plan.edit?.add ?? [];
        const remove = plan.edit?.remove ?? [];
        // One atomic edit never adds and removes the same label, and is omitted rather than empty.
        expect(add.filter((l) => remove.includes(l))).toEqual([]);
        if (plan.edit !== undefined) expect(add.length + remove.length).toBeGreaterThan(0);
        // Only a completed issue without a PR is closed.
        expect(plan.close).toBe(i.status === 'completed' && !i.openedPullRequest);
        const after = apply(i.labels, plan.edit);
        // The working label stays only while the issue is in progress.
        if (i.status === 'in_progress') expect(after.includes(names.working)).toBe(i.labels.includes(names.working));
        else expect(after).not.toContain(names.working);
        if (i.status === 'blocked') expect(after).toContain(names.blocked);
        if (i.status === 'in_progress') expect(after).toContain(STATUS_LABELS.inProgress);
        if (i.status === 'completed' || i.status === 'decomposed') expect(after).not.toContain(STATUS_LABELS.inProgress);
        if (i.status === 'completed' && i.openedPullRequest) expect(after).toContain(STATUS_LABELS.inReview);
        // Persona labels change only on an escalation to another persona.
        const personaOf = (labels: readonly string[]) => labels.filter((l) => (personaLabels as readonly string[]).includes(l)).sort();
        const escalates = i.status === 'in_progress' && i.escalationLabel !== undefined && i.escalationLabel !== i.personaLabel;
        if (!escalates) expect(personaOf(after)).toEqual(personaOf(i.labels));
        else {
          if (i.escalationLabel !== null && i.escalationLabel !== undefined) expect(after).toContain(i.escalationLabel);
          if (i.personaLabel !== null) expect(after).not.toContain(i.personaLabel);
        }
      }),
    );
  });
});

describe('planParentClose', () => {
  it('closes a plain issue; leaves a parent open while a sub-issue is open or none is listed', () => {
    expect(planParentClose([], false)).toEqual({ kind: 'close' });
    expect(planParentClose([{ number: 4, state: 'closed' }], true)).toEqual({ kind: 'close' });
    expect(planParentClose([], true)).toEqual({ kind: 'leave-open', reason: 'it was decomposed but lists no sub-issues' });
    expect(
      planParentClose(
        [
          { number: 4, state: 'closed' },
          { number: 5, state: 'open' },
          { number: 6, state: 'open' },
        ],
        false,
      ),
    ).toEqual({ kind: 'leave-open', reason: 'sub-issues still open: #5, #6' });
  });

  it('property: closes exactly when no sub-issue is open and a decomposed issue lists some', () => {
    const sub = fc.record({ number: fc.integer({ min: 1, max: 9999 }), state: fc.constantFrom<'open' | 'closed'>('open', 'closed') });
    fc.assert(
      fc.property(fc.array(sub, { maxLength: 6 }), fc.boolean(), (subs, decomposed) => {
        const decision = planParentClose(subs, decomposed);
        const shouldClose = subs.every((s) => s.state === 'closed') && !(decomposed && subs.length === 0);
        expect(decision.kind).toBe(shouldClose ? 'close' : 'leave-open');
      }),
    );
  });
});
