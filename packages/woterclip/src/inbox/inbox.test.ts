import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseWoterclipConfig } from '../config/woterclip-config.js';
import type { IssueSummary } from '../ports/issue-tracker.js';
import { buildInbox } from './inbox.js';

const config = parseWoterclipConfig(`version: 2
github: {board_user: boss, repo: o/r}
personas:
  orchestrator: {path: personas/orchestrator, label: null, is_default: true}
  backend: {path: personas/backend, label: backend}
`)._unsafeUnwrap();

const LABELS = [
  'backend',
  'in-progress',
  'priority:high',
  'priority:low',
  'backlog',
  'in-review',
  'agent-blocked',
  'agent-working',
  'todo',
];
const issue = fc.record({
  number: fc.integer({ min: 1, max: 10_000 }),
  title: fc.string(),
  labels: fc.subarray(LABELS),
  createdAt: fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
}) as fc.Arbitrary<IssueSummary>;

const rank = (i: IssueSummary): [number, number] => [
  i.labels.includes('in-progress') ? 0 : 1,
  i.labels.includes('priority:high') ? 0 : i.labels.includes('priority:low') ? 2 : 1,
];

describe('buildInbox', () => {
  it('property: skips backlog, in-review and blocked-without-reply; sorts by status then priority', () => {
    fc.assert(
      fc.property(fc.uniqueArray(issue, { selector: (i) => i.number }), (issues) => {
        const entries = buildInbox(issues, { config, triageOnly: false, unblockedByHuman: new Set(), decomposed: new Set() });
        for (const e of entries) {
          expect(e.issue.labels).not.toContain('backlog');
          expect(e.issue.labels).not.toContain('in-review');
          expect(e.issue.labels).not.toContain('agent-blocked');
          expect(e.persona).toBe(e.issue.labels.includes('backend') ? 'backend' : 'orchestrator');
        }
        for (let k = 1; k < entries.length; k += 1) {
          const [a, b] = [rank(entries[k - 1]!.issue), rank(entries[k]!.issue)];
          expect(a[0] < b[0] || (a[0] === b[0] && a[1] <= b[1])).toBe(true);
        }
      }),
    );
  });

  it('a decomposed parent waits below its newer children in the same tier', () => {
    const parent = { number: 1, title: 'p', labels: ['backend'], createdAt: '2026-01-01T00:00:00Z' };
    const child = { number: 2, title: 'c', labels: ['backend'], createdAt: '2026-02-01T00:00:00Z' };
    const order = (decomposed: number[]) =>
      buildInbox([parent, child], { config, triageOnly: false, unblockedByHuman: new Set(), decomposed: new Set(decomposed) }).map(
        (e) => e.issue.number,
      );
    expect(order([])).toEqual([1, 2]);
    expect(order([1])).toEqual([2, 1]);
  });

  it('triage-only keeps only default-persona issues; --persona keeps only that persona', () => {
    const issues = [
      { number: 1, title: 'a', labels: ['backend'], createdAt: 'x' },
      { number: 2, title: 'b', labels: [], createdAt: 'x' },
    ];
    expect(
      buildInbox(issues, { config, triageOnly: true, unblockedByHuman: new Set(), decomposed: new Set() }).map((e) => e.issue.number),
    ).toEqual([2]);
    expect(
      buildInbox(issues, { config, persona: 'backend', triageOnly: false, unblockedByHuman: new Set(), decomposed: new Set() }).map(
        (e) => e.issue.number,
      ),
    ).toEqual([1]);
  });
});
