import { sanitizeForMessage } from '@heartbeat-kit/core';
import { dueItems } from '../dates/due-items.js';
import type { Runbook } from '../model/runbook.js';
import { rebootInterrupted, recentFailures, stalledTasks, unansweredMentions } from '../status/status-views.js';
import { previousChecklist, type StatusTask, type SystemStatus } from '../status/system-status.js';
import type { GateFailure, GateState } from './gate.js';

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// A prefix must stand alone: `1a2b3c4d` names `1a2b3c4d-…`, but `reboot-t` does not name `reboot-task`.
function mentionsToken(text: string, token: string): boolean {
  return new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(token)}(?![A-Za-z0-9])`).test(text);
}

/** Whether the previous checklist output names a task (by full id or its 8-char prefix). */
export function namedIn(output: string | null | undefined, taskId: string): boolean {
  if (output === null || output === undefined || output === '') return false;
  return mentionsToken(output, taskId) || (taskId.length > 8 && mentionsToken(output, taskId.slice(0, 8)));
}

/** Failed (last 6 h), stalled and reboot-interrupted tasks, each once, reboot first. */
export function attentionTasks(status: SystemStatus, now: Date): readonly GateFailure[] {
  const seen = new Set<string>();
  const out: GateFailure[] = [];
  const add = (t: StatusTask, kind: GateFailure['kind'], reason: string): void => {
    if (seen.has(t.id)) return;
    seen.add(t.id);
    out.push({
      id: t.id,
      task: sanitizeForMessage(t.task, { maxLength: 100 }),
      kind,
      reason: sanitizeForMessage(reason, { maxLength: 120 }),
    });
  };
  for (const r of rebootInterrupted(status)) add(r.task, 'reboot-interrupted', r.task.failureReason ?? '');
  for (const t of recentFailures(status, now)) add(t, 'failed', t.failureReason ?? 'no reason');
  for (const t of stalledTasks(status, now)) add(t, 'stalled', `no update since ${t.lastUpdatedAt}`);
  return out;
}

/** Builds the gate's compact state from the status snapshot and the runbook. Pure. */
export function buildGateState(input: {
  readonly status: SystemStatus;
  readonly runbook: Runbook;
  readonly now: Date;
  readonly timeZone: string;
  readonly dryRun?: boolean;
}): GateState {
  const { status, runbook, now, timeZone } = input;
  const previous = previousChecklist(status);
  const output = previous?.output ?? '';
  const newFailures = attentionTasks(status, now).filter((f) => !namedIn(output, f.id));
  const tasks: Record<string, number> = {};
  for (const t of status.tasks) tasks[t.status] = (tasks[t.status] ?? 0) + 1;
  const online = status.agents.filter((a) => a.status === 'online');
  return {
    version: 1,
    now: now.toISOString(),
    timeZone,
    dryRun: input.dryRun ?? false,
    newFailures,
    dueItems: dueItems(runbook, now, timeZone).map((d) => ({
      line: d.item.line,
      section: d.item.section,
      text: sanitizeForMessage(d.item.text, { maxLength: 200 }),
      reason: d.reason,
    })),
    previousChecklist:
      previous === undefined
        ? null
        : {
            taskId: previous.id,
            completedAt: previous.finishedAt ?? previous.lastUpdatedAt,
            output: sanitizeForMessage(output, { maxLength: 2000, multiline: true }),
          },
    unansweredMentions: unansweredMentions(status).length,
    untriagedRebootFailures: rebootInterrupted(status)
      .filter((r) => !namedIn(output, r.task.id))
      .map((r) => r.task.id),
    counts: {
      tasks,
      agents: { online: online.length, offline: status.agents.length - online.length, idle: online.filter((a) => !a.busy).length },
    },
  };
}
