import { describe, expect, it } from 'vitest';
import { parseRunbook } from '../model/runbook.js';
import { FAILURE_REASONS } from '../status/failure-reasons.js';
import { makeStatus, makeTask } from '../testing/index.js';
import { buildGateState } from './gate-state.js';
import { decideByRules } from './rules-gate.js';

const now = new Date('2026-10-20T10:00:00Z');
const rb = parseRunbook('## Watch Items\n- a. Lift when b (check 10-25)\n');
const prev = makeTask(
  { id: 'prev-checklist-1', status: 'completed', taskType: 'heartbeat-checklist', output: 'Triaged 0f1e2d3c and reboot-task-0001.' },
  '2026-10-20T09:30:00Z',
);

describe('rules gate', () => {
  it('quiet when everything was already named and nothing is due', () => {
    const status = makeStatus({
      tasks: [prev, makeTask({ id: '0f1e2d3c-aaaa', status: 'failed', failureReason: 'boom' }, '2026-10-20T08:00:00Z')],
    });
    expect(decideByRules(buildGateState({ status, runbook: rb, now, timeZone: 'UTC' })).quiet).toBe(true);
  });
  it.each([
    [
      'a new failure',
      makeStatus({ tasks: [prev, makeTask({ id: 'ffff0000-1', status: 'failed', failureReason: 'boom' }, '2026-10-20T08:00:00Z')] }),
      rb,
    ],
    ['a due item', makeStatus({ tasks: [prev] }), parseRunbook('## Watch Items\n- a. Lift when b (check 10-20)\n')],
    [
      'an unanswered mention',
      makeStatus({ tasks: [prev], mentions: [{ id: 'm', at: '2026-10-20T09:50:00Z', answered: false, text: '' }] }),
      rb,
    ],
    [
      'an untriaged reboot failure',
      makeStatus({
        tasks: [
          prev,
          makeTask({ id: 'reboot-task-0002', status: 'failed', failureReason: FAILURE_REASONS.rebootSweep }, '2026-10-19T08:00:00Z'),
        ],
      }),
      rb,
    ],
  ])('wakes on %s', (_, status, runbook) => {
    const result = decideByRules(buildGateState({ status, runbook, now, timeZone: 'UTC' }));
    expect(result.quiet).toBe(false);
    expect(result.summary).not.toBe('');
  });
});
