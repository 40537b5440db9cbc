import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRunbook } from '../model/runbook.js';
import { makeStatus, makeTask } from '../testing/index.js';
import { decideQuietFastPath, quietLine } from './quiet-fast-path.js';

const now = new Date('2026-10-20T10:00:00Z');
const rb = parseRunbook('## Watch Items\n- a. Lift when b (check 10-25)\n');
const prev = makeTask(
  { id: 'prev-1', status: 'completed', taskType: 'heartbeat-checklist', output: 'Triaged 1a2b3c4d and 5e6f7a8b; schedule nightly flagged' },
  '2026-10-20T09:30:00Z',
);
const failures = [
  makeTask({ id: '1a2b3c4d-0000', status: 'failed', failureReason: 'x' }, '2026-10-20T08:00:00Z'),
  makeTask({ id: '5e6f7a8b-0000', status: 'failed', failureReason: 'y' }, '2026-10-20T08:00:00Z'),
];
const scripts = { scheduleHealth: { flagged: ['nightly'], totalSchedules: 3 }, failureAudit: { taskIds: ['1a2b3c4d-0000'] } };

describe('quiet fast path', () => {
  it('prints exactly one line when everything was triaged', () => {
    const d = decideQuietFastPath({ status: makeStatus({ tasks: [prev, ...failures] }), runbook: rb, now, timeZone: 'UTC', scripts });
    expect(d).toEqual({ quiet: true, line: 'Quiet. Same as prev-1: 2 failures (triaged), schedule-health 2/3, controls ok.' });
  });
  it('the line format', () => {
    expect(quietLine('t1', 0, 5, 5)).toBe('Quiet. Same as t1: 0 failures (triaged), schedule-health 5/5, controls ok.');
  });
  it.each([
    [
      'a new failure',
      { tasks: [prev, ...failures, makeTask({ id: '99999999-1', status: 'failed' }, '2026-10-20T09:50:00Z')] },
      rb,
      scripts,
      'untriaged-task',
    ],
    [
      'a mention',
      { tasks: [prev, ...failures], mentions: [{ id: 'm', at: '2026-10-20T09:50:00Z', answered: false, text: '' }] },
      rb,
      scripts,
      'unanswered-mention',
    ],
    ['a due item', { tasks: [prev, ...failures] }, parseRunbook('## Watch Items\n- x DELETE 10-19\n'), scripts, 'tracked-item-due'],
    [
      'a new script finding',
      { tasks: [prev, ...failures] },
      rb,
      { ...scripts, failureAudit: { taskIds: ['abcdef12-new'] } },
      'new-script-finding',
    ],
    ['no previous checklist', { tasks: failures }, rb, scripts, 'no-previous-checklist'],
  ])('not quiet on %s', (_, status, runbook, s, reason) => {
    const d = decideQuietFastPath({ status: makeStatus(status), runbook, now, timeZone: 'UTC', scripts: s });
    expect(d.quiet).toBe(false);
    if (!d.quiet) expect(d.reasons).toContain(reason);
  });
});

describe('quiet fast path: tracked items at or past their date (issue 11 item 7)', () => {
  const quietStatus = makeStatus({ tasks: [prev, ...failures] });
  const decide = (text: string, at: string, timeZone = 'UTC') =>
    decideQuietFastPath({ status: quietStatus, runbook: parseRunbook(text), now: new Date(at), timeZone, scripts });
  const missed = '## Watch Items\n- Webhook retries. Lift when 0 retries for 48 h (check 10-15)\n';

  it('a check date missed on its day refuses the fast path on every later tick', () => {
    expect(decide(missed, '2026-10-14T10:00:00Z').quiet).toBe(true);
    for (const at of ['2026-10-15T10:00:00Z', '2026-10-16T10:00:00Z', '2026-10-20T10:00:00Z', '2026-12-30T10:00:00Z']) {
      const d = decide(missed, at);
      expect(d).toMatchObject({ quiet: false, reasons: ['tracked-item-due'] });
    }
    expect(decide(missed, '2026-10-20T10:00:00Z')).toMatchObject({
      details: ['line 2 (Watch Items) is past its check date (10-15); prune it or write its new date'],
    });
  });
  it('a later check date keeps an item live; a past opened date on the same line does not count', () => {
    expect(decide('## Watch Items\n- Retries since 10-10. Lift when 0 retries (check 10-25)\n', '2026-10-20T10:00:00Z').quiet).toBe(true);
  });
  it('a past date outside the tracked sections does not count', () => {
    expect(decide('## Standing Orders\n- Reviewed 10-01 (check 10-02)\n', '2026-10-20T10:00:00Z').quiet).toBe(true);
  });
  it('the day is taken in the given zone', () => {
    // 10-15 has begun in Berlin but not in Los Angeles.
    expect(decide(missed, '2026-10-14T23:30:00Z', 'Europe/Berlin').quiet).toBe(false);
    expect(decide(missed, '2026-10-14T23:30:00Z', 'America/Los_Angeles').quiet).toBe(true);
  });
});

type Kind = 'check' | 'delete' | 'since-and-check';
interface GenItem {
  readonly tracked: boolean;
  readonly kind: Kind;
  /** Days from today of the item's date (the check date, or the DELETE date). */
  readonly offset: number;
  /** For since-and-check: how many days before the check date the item was opened. */
  readonly openedBefore: number;
}

const DAY = 86_400_000;
const mmdd = (base: number, offset: number): string => {
  const d = new Date(base + offset * DAY);
  return `${String(d.getUTCMonth() + 1).padStart(2, '0')}-${String(d.getUTCDate()).padStart(2, '0')}`;
};
const itemLine = (i: GenItem, base: number, n: number): string => {
  switch (i.kind) {
    case 'check':
      return `- Item ${n}. Lift when fixed (check ${mmdd(base, i.offset)})`;
    case 'delete':
      return `- Item ${n}. Temporary flag DELETE ${mmdd(base, i.offset)}`;
    case 'since-and-check':
      return `- Item ${n} since ${mmdd(base, i.offset - i.openedBefore)}. Lift when fixed (check ${mmdd(base, i.offset)})`;
  }
};

describe('quiet fast path: property', () => {
  const genItem = fc.record({
    tracked: fc.boolean(),
    kind: fc.constantFrom<Kind>('check', 'delete', 'since-and-check'),
    offset: fc.integer({ min: -150, max: 150 }),
    openedBefore: fc.integer({ min: 1, max: 30 }),
  });
  const genDay = fc.integer({ min: Date.UTC(2000, 0, 1) / DAY, max: Date.UTC(2090, 0, 1) / DAY });

  it('refused exactly when some tracked item is at or past its date; otherwise the one quiet line', () => {
    fc.assert(
      fc.property(genDay, fc.array(genItem, { maxLength: 8 }), fc.integer({ min: 0, max: 23 }), (dayNumber, items, hour) => {
        const base = dayNumber * DAY;
        const tracked = items.filter((i) => i.tracked);
        const reference = items.filter((i) => !i.tracked);
        const text = [
          '## Standing Orders',
          ...reference.map((i, n) => itemLine(i, base, n)),
          '',
          '## Watch Items',
          ...tracked.map((i, n) => itemLine(i, base, n)),
          '',
        ].join('\n');
        const now = new Date(base + hour * 3_600_000);
        const d = decideQuietFastPath({
          status: makeStatus({ tasks: [prev, ...failures] }),
          runbook: parseRunbook(text),
          now,
          timeZone: 'UTC',
          scripts,
        });
        // Any bare token equal to today is due (the gate's rule), so an item opened today counts too.
        const atOrPast = (i: GenItem): boolean => i.offset <= 0 || (i.kind === 'since-and-check' && i.offset - i.openedBefore === 0);
        if (tracked.some(atOrPast)) {
          return !d.quiet && d.reasons.join() === 'tracked-item-due' && d.details.length === tracked.filter(atOrPast).length;
        }
        return d.quiet && /^Quiet\. Same as prev-1: \d+ failures \(triaged\), schedule-health 2\/3, controls ok\.$/.test(d.line);
      }),
    );
  });

  it('adding a tracked item dated today or earlier never makes a decision quiet', () => {
    fc.assert(
      fc.property(genDay, fc.array(genItem, { maxLength: 5 }), genItem, (dayNumber, items, extra) => {
        const base = dayNumber * DAY;
        const past: GenItem = { ...extra, tracked: true, offset: -Math.abs(extra.offset) };
        const lines = ['## Active Blockers', ...[...items, past].map((i, n) => itemLine(i, base, n)), ''];
        const d = decideQuietFastPath({
          status: makeStatus({ tasks: [prev, ...failures] }),
          runbook: parseRunbook(lines.join('\n')),
          now: new Date(base),
          timeZone: 'UTC',
          scripts,
        });
        return !d.quiet;
      }),
    );
  });
});
