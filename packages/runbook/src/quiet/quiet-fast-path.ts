import { itemsAtOrPastDate } from '../dates/due-items.js';
import type { Runbook } from '../model/runbook.js';
import { attentionTasks, namedIn } from '../gate/gate-state.js';
import { unansweredMentions } from '../status/status-views.js';
import { previousChecklist, type SystemStatus } from '../status/system-status.js';

/** The two seeded scripts' results, reduced to what the quiet check compares. */
export interface ScriptReports {
  /** `schedule-health`: flagged schedules (ids) and the total. */
  readonly scheduleHealth: { readonly flagged: readonly string[]; readonly totalSchedules: number };
  /** `task-failure-audit`: the task ids of every failure cluster. */
  readonly failureAudit: { readonly taskIds: readonly string[] };
}

const DATED_DETAIL = {
  'check-today': 'is due today',
  'delete-past': 'is past its DELETE date',
  'check-past': 'is past its check date',
} as const;

/** Why the fast path does not apply. */
export type NotQuietReason = 'no-previous-checklist' | 'untriaged-task' | 'unanswered-mention' | 'tracked-item-due' | 'new-script-finding';

/** The fast-path decision. */
export type QuietDecision =
  | { readonly quiet: true; readonly line: string }
  | { readonly quiet: false; readonly reasons: readonly NotQuietReason[]; readonly details: readonly string[] };

/**
 * Step 0 of a checklist task. Quiet when every failed, stalled or reboot-interrupted task was named
 * by the previous checklist output, no mention is unanswered, no tracked item is at or past its date
 * (a missed `(check 10-15)` counts on every later day, not only on 10-15), and the
 * scripts report nothing the previous output did not name. `<M>/<total>` is healthy/total schedules.
 */
export function decideQuietFastPath(input: {
  readonly status: SystemStatus;
  readonly runbook: Runbook;
  readonly now: Date;
  readonly timeZone: string;
  readonly scripts: ScriptReports;
}): QuietDecision {
  const previous = previousChecklist(input.status);
  const reasons = new Set<NotQuietReason>();
  const details: string[] = [];
  if (previous === undefined) {
    return { quiet: false, reasons: ['no-previous-checklist'], details: ['no completed heartbeat-checklist task to compare with'] };
  }
  const output = previous.output ?? '';
  const attention = attentionTasks(input.status, input.now);
  for (const t of attention) {
    if (!namedIn(output, t.id)) {
      reasons.add('untriaged-task');
      details.push(`${t.kind} task ${t.id} was not named by ${previous.id}`);
    }
  }
  const mentions = unansweredMentions(input.status);
  if (mentions.length > 0) {
    reasons.add('unanswered-mention');
    details.push(`${mentions.length} unanswered mention(s)`);
  }
  for (const d of itemsAtOrPastDate(input.runbook, input.now, input.timeZone)) {
    reasons.add('tracked-item-due');
    details.push(`line ${d.item.line} (${d.item.section}) ${DATED_DETAIL[d.reason]} (${d.token}); prune it or write its new date`);
  }
  for (const id of [...input.scripts.scheduleHealth.flagged, ...input.scripts.failureAudit.taskIds]) {
    if (!namedIn(output, id)) {
      reasons.add('new-script-finding');
      details.push(`script finding ${id} was not named by ${previous.id}`);
    }
  }
  if (reasons.size > 0) return { quiet: false, reasons: [...reasons], details };
  const total = input.scripts.scheduleHealth.totalSchedules;
  const healthy = Math.max(0, total - input.scripts.scheduleHealth.flagged.length);
  return { quiet: true, line: quietLine(previous.id, attention.length, healthy, total) };
}

/** The exact one-line output of the fast path. */
export function quietLine(previousTaskId: string, failures: number, healthySchedules: number, totalSchedules: number): string {
  return `Quiet. Same as ${previousTaskId}: ${failures} failures (triaged), schedule-health ${healthySchedules}/${totalSchedules}, controls ok.`;
}
