import { describe, expect, it } from 'vitest';
import { parseRunbook } from '../model/runbook.js';
import { createFakePullRequestStates } from '../testing/index.js';
import { applyPrunePlan, planPrune, readPullRequestStates } from './prune-plan.js';

const TEXT = [
  '## Standing Orders',
  '- Never prune me DELETE 01-01',
  '',
  '## Watch Items',
  '- Old flag DELETE 10-18',
  '  - root cause: stale cache',
  '- Webhook retries. Lift when 0 retries for 48 h (check 10-20).',
  '- Followed up. Lift when vendor answers (check 10-19)',
  '',
  '## Active Blockers',
  '- Deploy freeze. Lift when #41 merges (check 10-25)',
  '- Flaky test. Lift when acme/web#7 merges (check 10-25)',
  '- Docs. Lift when #9 merges (check 10-25)',
  '- Unknown PR. Lift when #99 merges (check 10-25)',
  '',
].join('\n');

const now = new Date('2026-10-20T12:00:00Z');

describe('planPrune', () => {
  it('removes past DELETE dates and PR-triggered items, lists past checks for review', async () => {
    const rb = parseRunbook(TEXT);
    const prs = createFakePullRequestStates({
      '#41': { state: 'MERGED', mergedAt: '2026-10-19T08:00:00Z' },
      'acme/web#7': { state: 'CLOSED', mergedAt: null },
      '#9': { state: 'OPEN', mergedAt: null },
    });
    const states = (await readPullRequestStates(rb, prs))._unsafeUnwrap();
    expect(prs.reads).toHaveLength(4);
    const plan = planPrune(rb, now, 'UTC', states);
    expect(plan.entries.map((e) => [e.line, e.action, e.reason])).toEqual([
      [5, 'remove', 'delete-date-past'],
      [8, 'review', 'check-date-past'],
      [11, 'remove', 'pr-merged'],
      [12, 'remove', 'pr-closed-unmerged'],
    ]);
    expect(plan.entries[0]!.durableFacts).toEqual(['Old flag DELETE 10-18', 'root cause: stale cache']);
    expect(plan.warnings.map((w) => w.line)).toEqual([14]);
    const out = applyPrunePlan(TEXT, plan);
    expect(out.split('\n')).toEqual([
      '## Standing Orders',
      '- Never prune me DELETE 01-01',
      '',
      '## Watch Items',
      '- Webhook retries. Lift when 0 retries for 48 h (check 10-20).',
      '- Followed up. Lift when vendor answers (check 10-19)',
      '',
      '## Active Blockers',
      '- Docs. Lift when #9 merges (check 10-25)',
      '- Unknown PR. Lift when #99 merges (check 10-25)',
      '',
    ]);
  });
  it('uses the configured zone for "today"', () => {
    const rb = parseRunbook('## Watch Items\n- flag DELETE 10-21\n');
    const instant = new Date('2026-10-20T23:30:00Z');
    expect(planPrune(rb, instant, 'UTC').entries).toHaveLength(0);
    expect(planPrune(rb, instant, 'Europe/Berlin').entries).toHaveLength(1);
  });
  it('an empty plan returns the text unchanged', () => {
    const text = '## Watch Items\r\n- a. Lift when b (check 12-01)\r\n';
    const plan = planPrune(parseRunbook(text), now, 'UTC');
    expect(plan.entries).toEqual([]);
    expect(applyPrunePlan(text, plan)).toBe(text);
  });
  it('DELETE 12-30 is pruned on 01-02 of the next year', () => {
    const plan = planPrune(parseRunbook('## Watch Items\n- flag DELETE 12-30\n'), new Date('2027-01-02T10:00:00Z'), 'UTC');
    expect(plan.entries.map((e) => e.reason)).toEqual(['delete-date-past']);
  });
});
