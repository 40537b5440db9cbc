import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IssueStatus } from '../log/log-lines.js';
import type { IssueComment } from '../ports/issue-tracker.js';
import { closingSuggestions, isStaleWorking, planHalt, planQueueEnd, planSubIssues } from './beat-plan.js';
import type { WorkedIssue } from './beat-types.js';

const STATUSES: readonly IssueStatus[] = ['in_progress', 'completed', 'blocked', 'triaged', 'decomposed'];
const entry = (n: number) => ({ issue: { number: n, title: `t${n}`, labels: [], createdAt: '2026-07-01T00:00:00Z' }, persona: 'dev' });
const worked = (issue: number, status: IssueStatus): WorkedIssue => ({ issue, persona: 'dev', status, heartbeat: 1 });
const report = (at: string, login = 'bot'): IssueComment => ({
  author: login,
  body: `## Heartbeat #1 — 2026-07-22 10:00 UTC\n\nwork\n\n*WoterClip · dev · #5*`,
  createdAt: at,
  url: 'https://example.invalid/c',
});

describe('planHalt: how a beat ends when it halts mid-work', () => {
  it('superseded is silent; GitHub failing finishes blocked_exit naming the failure', () => {
    expect(planHalt({ kind: 'superseded' }, { recorded: 3, workingLabel: 'agent-working' })).toEqual({ kind: 'silent' });
    expect(planHalt({ kind: 'gh-failed', message: 'HTTP 502' }, { recorded: 0, workingLabel: 'w' })).toEqual({
      kind: 'finish',
      reason: 'blocked_exit',
      extra: ['GitHub failed: HTTP 502'],
    });
  });

  it('property: a withdrawal finishes complete (with its beat line) exactly when issue lines were recorded', () => {
    fc.assert(
      fc.property(fc.nat(20), fc.integer({ min: 1, max: 9999 }), (recorded, issue) => {
        const plan = planHalt({ kind: 'withdrawn', issue }, { recorded, workingLabel: 'agent-working' });
        const note = `#${issue}: agent-working was removed while the agent worked; nothing posted, beat stopped.`;
        expect(plan).toEqual(recorded > 0 ? { kind: 'finish', reason: 'complete', extra: [note] } : { kind: 'withdrawn', note });
      }),
    );
  });
});

describe('planQueueEnd', () => {
  it('queue_empty with its line when nothing was worked, complete otherwise', () => {
    expect(planQueueEnd(0)).toEqual({ reason: 'queue_empty', extra: ['No issues in queue.'] });
    expect(planQueueEnd(2)).toEqual({ reason: 'complete', extra: [] });
  });
});

describe('isStaleWorking', () => {
  const hour = 3_600_000;
  const now = Date.parse('2026-07-22T12:00:00Z');

  it('no heartbeat comment is stale; a comment by someone else or without the footer does not count', () => {
    expect(isStaleWorking([], 'bot', now, 4 * hour)).toBe(true);
    expect(isStaleWorking([report('2026-07-22T11:00:00Z', 'mallory')], 'bot', now, 4 * hour)).toBe(true);
    expect(isStaleWorking([report('2026-07-22T11:00:00Z')], 'bot', now, 4 * hour)).toBe(false);
  });

  it('property: stale exactly when the last report is at least staleMs old (age == stale_lock_hours is stale)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 48 * 60 }), fc.integer({ min: 1, max: 24 }), (ageMin, hours) => {
        const at = new Date(now - ageMin * 60_000).toISOString();
        expect(isStaleWorking([report(at)], 'bot', now, hours * hour)).toBe(ageMin * 60_000 >= hours * hour);
      }),
    );
  });
});

describe('closingSuggestions', () => {
  it('pause when nothing is left; Board attention at 3 blocked', () => {
    expect(closingSuggestions({ anyPersona: [], worked: [], blockedCount: 0 })).toEqual([
      'No todo issues remain: consider pausing the heartbeat schedule.',
    ]);
    expect(closingSuggestions({ anyPersona: [entry(1)], worked: [], blockedCount: 3 })).toEqual([
      "3 issues are blocked: the Board's attention is needed more than further heartbeats.",
    ]);
  });

  it('property: "no todo" exactly when every inbox issue was worked to completed or blocked, and no worked issue still waits', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 30 }), { maxLength: 8 }),
        fc.array(fc.tuple(fc.integer({ min: 1, max: 30 }), fc.constantFrom(...STATUSES)), { maxLength: 6 }),
        fc.nat(6),
        (inbox, work, blockedCount) => {
          const workedIssues = work.map(([n, s]) => worked(n, s));
          const suggestions = closingSuggestions({ anyPersona: inbox.map(entry), worked: workedIssues, blockedCount });
          const done = new Set(workedIssues.filter((w) => w.status === 'completed' || w.status === 'blocked').map((w) => w.issue));
          const workedNumbers = new Set(workedIssues.map((w) => w.issue));
          const nothingLeft = inbox.every((n) => workedNumbers.has(n)) && workedIssues.every((w) => done.has(w.issue));
          expect(suggestions.some((s) => s.startsWith('No todo issues remain'))).toBe(nothingLeft);
          expect(suggestions.some((s) => s.includes("the Board's attention"))).toBe(blockedCount >= 3);
        },
      ),
    );
  });
});

describe('planSubIssues', () => {
  it('lists the children the agent made and plans the rest with their persona labels (null for an unknown persona)', () => {
    const plan = planSubIssues(
      {
        status: 'decomposed',
        summary: '',
        commits: [],
        prs: [],
        nextSteps: [],
        needsManualVerification: false,
        subIssues: [
          { title: 'made', persona: 'backend', number: 7 },
          { title: 'todo', persona: 'backend', body: 'b', blocking: true },
          { title: 'other', persona: 'nobody' },
        ],
      },
      { backend: { path: 'p/b', label: 'backend', is_default: false } },
    );
    expect(plan.listed).toEqual(['#7 — made (backend)']);
    expect(plan.toCreate).toEqual([
      { title: 'todo', persona: 'backend', personaLabel: 'backend', body: 'b', blocking: true },
      { title: 'other', persona: 'nobody', personaLabel: null },
    ]);
  });
});
