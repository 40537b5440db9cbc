import { describe, expect, it } from 'vitest';
import { parseRunbook } from '../model/runbook.js';
import { makeStatus, makeTask } from '../testing/index.js';
import { decideQuietFastPath, quietLine } from './quiet-fast-path.js';

const now = new Date('2026-10-20T10:00:00Z');
const rb = parseRunbook('## Watch Items\n- a. Lift when b (check 10-25)\n');
const prev = makeTask({ id: 'prev-1', status: 'completed', taskType: 'heartbeat-checklist', output: 'Triaged 1a2b3c4d and 5e6f7a8b; schedule nightly flagged' }, '2026-10-20T09:30:00Z');
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
    ['a new failure', { tasks: [prev, ...failures, makeTask({ id: '99999999-1', status: 'failed' }, '2026-10-20T09:50:00Z')] }, rb, scripts, 'untriaged-task'],
    ['a mention', { tasks: [prev, ...failures], mentions: [{ id: 'm', at: '2026-10-20T09:50:00Z', answered: false, text: '' }] }, rb, scripts, 'unanswered-mention'],
    ['a due item', { tasks: [prev, ...failures] }, parseRunbook('## Watch Items\n- x DELETE 10-19\n'), scripts, 'tracked-item-due'],
    ['a new script finding', { tasks: [prev, ...failures] }, rb, { ...scripts, failureAudit: { taskIds: ['abcdef12-new'] } }, 'new-script-finding'],
    ['no previous checklist', { tasks: failures }, rb, scripts, 'no-previous-checklist'],
  ])('not quiet on %s', (_, status, runbook, s, reason) => {
    const d = decideQuietFastPath({ status: makeStatus(status), runbook, now, timeZone: 'UTC', scripts: s });
    expect(d.quiet).toBe(false);
    if (!d.quiet) expect(d.reasons).toContain(reason);
  });
});
