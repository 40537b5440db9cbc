import { describe, expect, it } from 'vitest';
import { createFakeGate, makeStatus, makeTask } from '../testing/index.js';
import { createRulesGate } from '../gate/rules-gate.js';
import { checkTickPreconditions, runChecklistTick, type TickInput } from './checklist-tick.js';

const RUNBOOK = '## Watch Items\n- Webhook retries. Lift when 0 retries for 48 h (check 10-20).\n';
const now = new Date('2026-10-20T10:00:00Z');
const base: TickInput = {
  runbookText: RUNBOOK,
  status: makeStatus(),
  now,
  timeZone: 'UTC',
  settings: { intervalMs: 1_800_000, disabled: false, gateMode: 'shadow' },
};

describe('checkTickPreconditions', () => {
  it('proceeds with content, a lead and no open checklist task', () => {
    expect(checkTickPreconditions(base)).toEqual({ kind: 'proceed', leadId: 'lead' });
  });
  it.each<[string, Partial<TickInput>, string]>([
    ['disabled', { settings: { ...base.settings, disabled: true } }, 'disabled'],
    ['no lead', { status: makeStatus({ agents: [] }) }, 'no-lead'],
    ['null runbook', { runbookText: null }, 'runbook-empty'],
    ['headers and comments only', { runbookText: '## Watch Items\n<!-- nothing -->\n- [ ]\n' }, 'runbook-empty'],
    [
      'open checklist task',
      {
        status: makeStatus({
          tasks: [makeTask({ id: 'c1', status: 'in_progress', taskType: 'heartbeat-checklist' }, '2026-10-20T09:00:00Z')],
        }),
      },
      'open-checklist-task',
    ],
    [
      'interval not elapsed',
      {
        status: makeStatus({
          tasks: [makeTask({ id: 'c1', status: 'completed', taskType: 'heartbeat-checklist' }, '2026-10-20T09:45:00Z')],
        }),
      },
      'interval-not-elapsed',
    ],
    ['no tick at boot', { status: makeStatus({ serverStartedAt: '2026-10-20T09:59:00Z' }) }, 'interval-not-elapsed'],
  ])('%s → skip %s', (_, patch, reason) => {
    expect(checkTickPreconditions({ ...base, ...patch })).toMatchObject({ kind: 'skip', reason });
  });
});

describe('runChecklistTick', () => {
  it('without a gate creates the checklist task with status and runbook snapshot', async () => {
    const d = await runChecklistTick(base);
    expect(d.kind).toBe('create');
    if (d.kind !== 'create') return;
    expect(d.task).toMatchObject({
      taskType: 'heartbeat-checklist',
      assignTo: 'lead',
      tags: ['checklist', 'auto-generated'],
      priority: 60,
    });
    expect(d.task.prompt).toContain('## Task Overview [auto-generated]');
    expect(d.task.prompt).toContain('(check 10-20)');
    expect(d.task.prompt).not.toContain('Gate Findings');
  });
  it('shadow: a quiet verdict still creates the task, tagged, prompt unchanged', async () => {
    const plain = await runChecklistTick(base);
    const d = await runChecklistTick(base, { gate: createFakeGate({ quiet: true, reason: 'r', summary: 's' }) });
    expect(d).toMatchObject({ kind: 'create', task: { tags: ['checklist', 'auto-generated', 'heartbeat-gate:quiet'] } });
    if (d.kind === 'create' && plain.kind === 'create') expect(d.task.prompt).toBe(plain.task.prompt);
  });
  it('enforce: quiet skips, wake adds Gate Findings, error fails open', async () => {
    const enforce = { ...base, settings: { ...base.settings, gateMode: 'enforce' as const } };
    expect(await runChecklistTick(enforce, { gate: createFakeGate({ quiet: true, reason: 'r', summary: '' }) })).toMatchObject({
      kind: 'skip',
      reason: 'gate-quiet',
    });
    const wake = await runChecklistTick(enforce, { gate: createFakeGate({ quiet: false, reason: 'r', summary: '- New failure abc' }) });
    expect(wake).toMatchObject({ kind: 'create', task: { tags: ['checklist', 'auto-generated', 'heartbeat-gate:wake'] } });
    if (wake.kind === 'create') expect(wake.task.prompt).toContain('## Gate Findings [auto-generated]\n\n- New failure abc');
    const error = await runChecklistTick(enforce, { gate: createFakeGate({ kind: 'timeout', timeoutMs: 60_000, message: 'slow' }) });
    expect(error).toMatchObject({ kind: 'create', task: { tags: ['checklist', 'auto-generated', 'heartbeat-gate:error'] } });
  });
  it('the gate is not called when a precondition skips the tick', async () => {
    const gate = createFakeGate({ quiet: true, reason: 'r', summary: '' });
    await runChecklistTick({ ...base, runbookText: '' }, { gate });
    expect(gate.calls).toHaveLength(0);
  });
  it('the rules gate wakes on a due item and stays quiet the day after', async () => {
    expect(await runChecklistTick(base, { gate: createRulesGate() })).toMatchObject({ verdict: { kind: 'wake' } });
    const later = await runChecklistTick({ ...base, now: new Date('2026-10-21T10:00:00Z') }, { gate: createRulesGate() });
    expect(later).toMatchObject({ verdict: { kind: 'quiet' } });
  });
});
