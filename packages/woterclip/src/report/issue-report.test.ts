import fc from 'fast-check';
import { err, ok, type Result } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import type { Outcome } from '../dispatch/outcome.js';
import type { DispatchFailure, DispatchReport } from '../ports/dispatcher.js';
import { clearsWhenOf, heartbeatNumberOf } from './comments.js';
import { dispatchActions, renderIssueReport, renderMissingToolsReport, type IssueReportContext } from './issue-report.js';

const model = { configured: 'opus', actual: 'opus', fallback: false };
const context: IssueReportContext = {
  heartbeat: 3,
  at: new Date('2026-07-22T10:15:00Z'),
  durationSec: 845,
  persona: 'backend',
  issue: 79,
  repo: 'o/r',
  boardUser: 'boss',
  blockedLabel: 'agent-blocked',
  createdLines: [],
  previousUrl: 'https://github.com/o/r/issues/79#issuecomment-1',
};
const outcome = (o: Partial<Outcome>): Outcome => ({
  status: 'completed',
  summary: '',
  commits: [],
  prs: [],
  subIssues: [],
  nextSteps: [],
  needsManualVerification: false,
  ...o,
});
const report = (o: Partial<Outcome>): Result<DispatchReport, DispatchFailure> => ok({ outcome: outcome(o), model });

const text = fc.string({ maxLength: 60 });
const arbOutcome: fc.Arbitrary<Outcome> = fc.record(
  {
    status: fc.constantFrom('in_progress', 'completed', 'blocked', 'triaged', 'decomposed'),
    summary: text,
    commits: fc.array(fc.record({ sha: fc.stringMatching(/^[0-9a-f]{7,12}$/), message: text }), { maxLength: 3 }),
    prs: fc.array(text, { maxLength: 2 }),
    subIssues: fc.constant([]),
    nextSteps: fc.array(text, { maxLength: 3 }),
    blocker: fc.record(
      { description: text.filter((t) => t.trim() !== ''), actionNeeded: text, clearsWhen: text.filter((t) => t.trim() !== '') },
      { requiredKeys: ['description', 'actionNeeded'] },
    ),
    escalationTarget: fc.constantFrom('qa', 'board'),
    needsManualVerification: fc.boolean(),
  },
  { requiredKeys: ['status', 'summary', 'commits', 'prs', 'subIssues', 'nextSteps', 'needsManualVerification'] },
);
const arbFailure: fc.Arbitrary<DispatchFailure> = fc.record({
  kind: fc.constantFrom('failed', 'unparseable'),
  message: text,
  raw: text,
  model: fc.constant(model),
});
const arbDispatch: fc.Arbitrary<Result<DispatchReport, DispatchFailure>> = fc.oneof(
  arbOutcome.map((o) => ok({ outcome: o, model })),
  arbFailure.map((f) => err(f)),
);

describe('renderIssueReport (step 9)', () => {
  it('a failed dispatch is blocked, tells the Board to check partial work, and carries the raw tail', () => {
    const r = renderIssueReport(err({ kind: 'failed', message: 'exit 1', raw: 'last words', model }), context);
    expect(r.status).toBe('blocked');
    expect(r.body).toContain('The backend dispatch returned no usable outcome: exit 1.');
    expect(r.body).toContain('Raw return (tail):\nlast words');
    expect(clearsWhenOf(r.body)).toBe('the agent-blocked label is removed after the partial work is checked.');
  });

  it('a blocked outcome keeps its blocker, ask and Clears when; work done before is listed', () => {
    const r = renderIssueReport(
      report({
        status: 'blocked',
        summary: 'half done',
        commits: [{ sha: 'a1b2c3d4e5', message: 'wip' }],
        blocker: { description: 'no key', actionNeeded: 'grant it', clearsWhen: 'the key works' },
      }),
      context,
    );
    expect(r.status).toBe('blocked');
    expect(r.body).toMatch(/### Blocker\nno key\n/);
    expect(r.body).toContain('@boss — grant it');
    expect(clearsWhenOf(r.body)).toBe('the key works');
    expect(r.body).toContain('- half done\n- a1b2c3d wip');
  });

  it('an escalation stays in progress and says where it went; the previous report is linked', () => {
    const r = renderIssueReport(report({ status: 'completed', escalationTarget: 'qa' }), context);
    expect(r.status).toBe('in_progress');
    expect(r.body).toContain('**Status:** In Progress');
    expect(r.body).toContain('- Escalated to qa.');
    expect(r.body.endsWith('· from [Heartbeat #2](https://github.com/o/r/issues/79#issuecomment-1)*')).toBe(true);
  });

  it('property: the status follows the dispatch, and the body is a report the counter reads back as #N', () => {
    fc.assert(
      fc.property(arbDispatch, fc.integer({ min: 1, max: 500 }), (dispatched, n) => {
        const r = renderIssueReport(dispatched, { ...context, heartbeat: n });
        const expected = dispatched.isErr()
          ? 'blocked'
          : dispatched.value.outcome.status === 'blocked'
            ? 'blocked'
            : dispatched.value.outcome.escalationTarget !== undefined
              ? 'in_progress'
              : dispatched.value.outcome.status;
        expect(r.status).toBe(expected);
        // Posted by the beat's login, the report is ours and moves the counter to exactly n.
        expect(heartbeatNumberOf({ author: 'octocat', body: r.body, createdAt: '2026-07-22T10:15:00Z', url: 'u' }, 'octocat')).toBe(n);
        // A blocked report always states an observable unblocking condition.
        if (r.status === 'blocked') expect(clearsWhenOf(r.body)).toBeDefined();
        else expect(r.body).toContain('### Blockers\nNone');
      }),
    );
  });
});

describe('dispatchActions', () => {
  it('lists commits, PRs and the escalation, or the dispatch failure', () => {
    expect(
      dispatchActions(
        report({ commits: [{ sha: '0123456789abcdef', message: 'x' }], prs: ['https://github.com/o/r/pull/1'], escalationTarget: 'qa' }),
      ),
    ).toEqual(['committed 0123456789ab', 'opened https://github.com/o/r/pull/1', 'escalated to qa']);
    expect(dispatchActions(err({ kind: 'unparseable', message: 'no outcome line', raw: '', model }))).toEqual([
      'dispatch unparseable: no outcome line',
    ]);
  });
});

describe('renderMissingToolsReport (step 5)', () => {
  it('names the missing tools, asks the Board, and says when it clears', () => {
    const body = renderMissingToolsReport({
      heartbeat: 1,
      at: new Date('2026-07-22T10:00:00Z'),
      persona: 'backend',
      issue: 3,
      boardUser: 'boss',
      missing: ['psql', 'mcp__db'],
    });
    expect(body).toContain('Required tool unavailable for persona backend: `psql`, `mcp__db`.');
    expect(body).toContain('@boss — make `psql`, `mcp__db` available to the heartbeat runner.');
    expect(clearsWhenOf(body)).toMatch(/^`psql`, `mcp__db` are available to the heartbeat runner/);
  });
});
