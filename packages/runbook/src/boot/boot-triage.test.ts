import { describe, expect, it } from 'vitest';
import { FAILURE_REASONS, classifyFailureReason, isNeverRetried } from '../status/failure-reasons.js';
import { makeStatus, makeTask } from '../testing/index.js';
import { decideBootTriage } from './boot-triage.js';

const now = new Date('2026-10-20T10:01:30Z');
const offlineWorker = { id: 'w1', name: 'worker-1', isLead: false, status: 'offline' as const, busy: false };
const lead = { id: 'lead', name: 'lead', isLead: true, status: 'online' as const, busy: false };

describe('decideBootTriage', () => {
  it('a clean boot creates no task', () => {
    const status = makeStatus({ tasks: [makeTask({ id: 'done', status: 'completed' })] });
    expect(decideBootTriage({ status, runbookText: null, now, disabled: false })).toMatchObject({ kind: 'skip', reason: 'clean-boot' });
  });
  it.each([
    [
      'a reboot-interrupted task',
      [makeTask({ id: 'r1', status: 'failed', failureReason: FAILURE_REASONS.rebootSweep, agentId: 'w1' }, '2026-10-20T10:00:05Z')],
    ],
    ['a recent real failure', [makeTask({ id: 'f1', status: 'failed', failureReason: 'tests failed' }, '2026-10-20T09:30:00Z')]],
    ['an orphaned pending task', [makeTask({ id: 'o1', status: 'pending', agentId: 'w1' })]],
    ['an orphaned offered task', [makeTask({ id: 'o2', status: 'offered', offeredTo: 'gone' })]],
    ['a superseded task with no resume child', [makeTask({ id: 's1', status: 'superseded' }, '2026-10-20T09:40:00Z')]],
  ])('creates the task for %s', (_, tasks) => {
    const d = decideBootTriage({
      status: makeStatus({ tasks, agents: [lead, offlineWorker] }),
      runbookText: '## Standing Orders\n- x',
      now,
      disabled: false,
    });
    expect(d).toMatchObject({
      kind: 'create',
      task: { taskType: 'boot-triage', tags: ['boot', 'triage', 'auto-generated'], priority: 70, assignTo: 'lead' },
    });
  });
  describe("only this boot's reboot-sweep failures count (issue 11 item 8)", () => {
    const earlier = makeTask(
      { id: 'old-r1', task: 'Ship', status: 'failed', failureReason: FAILURE_REASONS.rebootSweep, agentId: 'w1' },
      '2026-10-20T09:30:05Z',
    );
    const retried = makeTask(
      { id: 'old-r1-retry', status: 'completed', parentTaskId: 'old-r1', tags: ['reboot-retry', 'auto-generated'] },
      '2026-10-20T09:45:00Z',
    );
    const started = '2026-10-20T10:00:00Z';
    it('a clean boot after an earlier failed one creates no task', () => {
      const status = makeStatus({ serverStartedAt: started, tasks: [earlier, retried], agents: [lead] });
      const d = decideBootTriage({ status, runbookText: null, now, disabled: false });
      expect(d).toMatchObject({
        kind: 'skip',
        reason: 'clean-boot',
        findings: { boot: { since: '2026-10-20T10:00:00.000Z', source: 'server-start' }, rebootInterrupted: [], recentFailures: [] },
      });
    });
    it('a failure of this boot still creates the task, and the prompt lists only it', () => {
      const mine = makeTask(
        { id: 'new-r2', task: 'Deploy', status: 'failed', failureReason: FAILURE_REASONS.rebootSweep, agentId: 'w1' },
        '2026-10-20T10:00:05Z',
      );
      const d = decideBootTriage({
        status: makeStatus({ serverStartedAt: started, tasks: [earlier, retried, mine], agents: [lead] }),
        runbookText: null,
        now,
        disabled: false,
      });
      expect(d.kind).toBe('create');
      if (d.kind !== 'create') return;
      expect(d.findings.rebootInterrupted.map((r) => r.task.id)).toEqual(['new-r2']);
      expect(d.task.prompt).toContain('[new-r2]');
      expect(d.task.prompt).not.toContain('[old-r1] "Ship" — was on');
    });
    it('without serverStartedAt, the failure lookback window stands in for the boot', () => {
      const dayOld = makeTask({ id: 'old', status: 'failed', failureReason: FAILURE_REASONS.rebootSweep }, '2026-10-19T10:00:05Z');
      const d = decideBootTriage({ status: makeStatus({ tasks: [dayOld] }), runbookText: null, now, disabled: false });
      expect(d).toMatchObject({
        kind: 'skip',
        reason: 'clean-boot',
        findings: { boot: { source: 'lookback', since: '2026-10-20T09:01:30.000Z' } },
      });
    });
  });
  it('benign reasons and a live resume child do not count', () => {
    const tasks = [
      makeTask({ id: 'w', status: 'failed', failureReason: 'superseded_workflow_task' }, '2026-10-20T09:30:00Z'),
      makeTask({ id: 's1', status: 'superseded' }, '2026-10-20T09:40:00Z'),
      makeTask({ id: 's1-resume', status: 'in_progress', taskType: 'resume', parentTaskId: 's1', agentId: 'lead' }, '2026-10-20T10:01:00Z'),
    ];
    expect(decideBootTriage({ status: makeStatus({ tasks }), runbookText: null, now, disabled: false })).toMatchObject({
      kind: 'skip',
      reason: 'clean-boot',
    });
  });
  it('the prompt lists reboot-interrupted work with full ids and the retry', () => {
    const tasks = [
      makeTask(
        { id: 'reboot-full-id-1', task: 'Ship notes', status: 'failed', failureReason: FAILURE_REASONS.rebootSweep, agentId: 'w1' },
        '2026-10-20T10:00:05Z',
      ),
      makeTask(
        { id: 'retry-1', status: 'pending', parentTaskId: 'reboot-full-id-1', tags: ['reboot-retry', 'auto-generated'] },
        '2026-10-20T10:00:05Z',
      ),
      makeTask(
        { id: 'chk', status: 'failed', taskType: 'heartbeat-checklist', failureReason: FAILURE_REASONS.rebootSweep },
        '2026-10-20T10:00:05Z',
      ),
    ];
    const d = decideBootTriage({ status: makeStatus({ tasks, agents: [lead, offlineWorker] }), runbookText: '', now, disabled: false });
    expect(d.kind).toBe('create');
    if (d.kind !== 'create') return;
    expect(d.task.prompt).toContain('- [reboot-full-id-1] "Ship notes" — was on worker-1 → retry created: retry-1');
    expect(d.task.prompt).toContain('- [chk] "" — was on unassigned → no retry (system task)');
    expect(d.task.prompt).toContain('_No standing orders configured._');
  });
  it('disabled and an open boot-triage task skip', () => {
    const tasks = [makeTask({ id: 'f1', status: 'failed', failureReason: 'x' }, '2026-10-20T09:30:00Z')];
    expect(decideBootTriage({ status: makeStatus({ tasks }), runbookText: null, now, disabled: true })).toMatchObject({
      kind: 'skip',
      reason: 'disabled',
    });
    const open = [...tasks, makeTask({ id: 'bt', status: 'pending', taskType: 'boot-triage', agentId: 'lead' })];
    expect(decideBootTriage({ status: makeStatus({ tasks: open }), runbookText: null, now, disabled: false })).toMatchObject({
      kind: 'skip',
      reason: 'open-boot-triage-task',
    });
  });
});

describe('failure reasons', () => {
  it.each([
    [FAILURE_REASONS.rebootSweep, 'reboot-interrupted'],
    [FAILURE_REASONS.supersededNoSession, 'worker-crash-superseded'],
    [FAILURE_REASONS.supersededStaleHeartbeat, 'worker-crash-superseded'],
    [FAILURE_REASONS.failedNoSession, 'worker-crash-failed'],
    [FAILURE_REASONS.failedStaleHeartbeat, 'worker-crash-failed'],
    ['superseded_workflow_task', 'superseded-workflow-task'],
    ['resume_budget_exhausted', 'resume-budget-exhausted'],
    ['auto-failed by reboot sweep: worker session not found after server restart', 'other'],
    [null, 'other'],
  ])('%j → %s', (reason, cls) => {
    expect(classifyFailureReason(reason)).toBe(cls);
  });
  it('never-retried types', () => {
    expect(['heartbeat-checklist', 'boot-triage', 'heartbeat', 'reroute-decision'].every(isNeverRetried)).toBe(true);
    expect(isNeverRetried('resume')).toBe(false);
  });
});
