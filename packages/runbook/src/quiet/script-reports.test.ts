import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeStatus, makeTask } from '../testing/index.js';
import { parseFailureAudit, parseScheduleHealth, scriptReportsFromStatus } from './script-reports.js';

describe('script reports', () => {
  it("derived from the status with the scripts' own rules (3+ runs, over 20% failed; failed in the last day)", () => {
    const status = makeStatus({
      schedules: [
        { id: 'flaky', name: '', enabled: true, runs: 5, failed: 1 },
        { id: 'bad', name: '', enabled: true, runs: 3, failed: 1 },
        { id: 'new', name: '', enabled: true, runs: 2, failed: 2 },
      ],
      tasks: [
        makeTask({ id: 'f-new', status: 'failed' }, '2026-10-20T08:00:00Z'),
        makeTask({ id: 'f-old', status: 'failed' }, '2026-10-18T08:00:00Z'),
        makeTask({ id: 'ok', status: 'completed' }),
      ],
    });
    expect(scriptReportsFromStatus(status, new Date('2026-10-20T10:00:00Z'))).toEqual({
      scheduleHealth: { flagged: ['bad'], totalSchedules: 3 },
      failureAudit: { taskIds: ['f-new'] },
    });
  });
  it("reads the scripts' JSON and names the key or the script's own error", () => {
    expect(parseScheduleHealth({ totalSchedules: 2, flaggedCount: 1, flagged: [{ id: 's1', runs: 4 }] }, 'h.json')._unsafeUnwrap()).toEqual(
      {
        totalSchedules: 2,
        flagged: ['s1'],
      },
    );
    expect(parseFailureAudit({ groups: [{ key: 'timeout', taskIds: ['a', 'b'] }, { taskIds: ['c'] }] }, 'a.json')._unsafeUnwrap()).toEqual({
      taskIds: ['a', 'b', 'c'],
    });
    expect(parseScheduleHealth({ flagged: [] }, 'h.json')._unsafeUnwrapErr()).toMatchObject({
      kind: 'invalid-script-output',
      problems: [expect.stringMatching(/^h\.json: totalSchedules: /)],
    });
    expect(parseFailureAudit({ error: 'invalid args: days' }, 'a.json')._unsafeUnwrapErr()).toMatchObject({
      problems: ['a.json: the script reported an error: invalid args: days'],
    });
  });
  it('never throw on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        parseScheduleHealth(v, 'x');
        parseFailureAudit(v, 'x');
        return true;
      }),
    );
  });
});
