import { classifyFailureReason, isNeverRetried, isRealFailureReason } from './failure-reasons.js';
import { TERMINAL_STATUSES, type StatusTask, type SystemStatus } from './system-status.js';

/** Minutes without progress after which an in-progress task is stalled (`HEARTBEAT_STALL_THRESHOLD_MIN`). */
export const DEFAULT_STALL_THRESHOLD_MIN = 30;

const MINUTE = 60_000;

function ageMs(now: Date, iso: string): number {
  return now.getTime() - Date.parse(iso);
}

/** In-progress tasks with no update for `thresholdMin` minutes. */
export function stalledTasks(status: SystemStatus, now: Date, thresholdMin = DEFAULT_STALL_THRESHOLD_MIN): readonly StatusTask[] {
  return status.tasks.filter((t) => t.status === 'in_progress' && ageMs(now, t.lastUpdatedAt) >= thresholdMin * MINUTE);
}

/** Failed tasks updated within the last `windowMin` minutes. */
export function recentFailures(status: SystemStatus, now: Date, windowMin = 360): readonly StatusTask[] {
  return status.tasks.filter((t) => t.status === 'failed' && ageMs(now, t.lastUpdatedAt) <= windowMin * MINUTE);
}

/** A reboot-interrupted task with the retry the sweep should have created. */
export interface RebootInterrupted {
  readonly task: StatusTask;
  /** The retry child (tag `reboot-retry`), when there is one. */
  readonly retry: StatusTask | undefined;
  /** True for task types that never get a retry. */
  readonly systemTask: boolean;
}

/** When a task failed: its finish time, else its last update. */
export function failedAt(task: StatusTask): number {
  return Date.parse(task.finishedAt ?? task.lastUpdatedAt);
}

/**
 * Failed tasks carrying the reboot-sweep reason, each with its retry child if any. With `since`,
 * only those failed at or after it: the sweeps of earlier restarts belong to earlier boots.
 */
export function rebootInterrupted(status: SystemStatus, since?: Date): readonly RebootInterrupted[] {
  return status.tasks
    .filter((t) => t.status === 'failed' && classifyFailureReason(t.failureReason) === 'reboot-interrupted')
    .filter((t) => since === undefined || failedAt(t) >= since.getTime())
    .map((task) => ({
      task,
      retry: status.tasks.find((c) => c.parentTaskId === task.id && c.tags.includes('reboot-retry')),
      systemTask: isNeverRetried(task.taskType),
    }));
}

/** Whether an agent id names a missing or offline agent. */
function offline(status: SystemStatus, agentId: string | null | undefined): boolean {
  if (agentId === null || agentId === undefined) return false;
  const agent = status.agents.find((a) => a.id === agentId);
  return agent === undefined || agent.status === 'offline';
}

/** Pending tasks whose `agentId`, or offered tasks whose `offeredTo`, names a missing or offline agent. */
export function orphanedTasks(status: SystemStatus): readonly StatusTask[] {
  return status.tasks.filter(
    (t) => (t.status === 'pending' && offline(status, t.agentId)) || (t.status === 'offered' && offline(status, t.offeredTo ?? t.agentId)),
  );
}

/** In-progress tasks on offline agents not updated for `stuckMin` minutes. */
export function stuckOnOfflineAgents(status: SystemStatus, now: Date, stuckMin = 5): readonly StatusTask[] {
  return status.tasks.filter(
    (t) => t.status === 'in_progress' && offline(status, t.agentId) && ageMs(now, t.lastUpdatedAt) >= stuckMin * MINUTE,
  );
}

/** Superseded tasks (within `lookbackMin`) without a resume child in a live status: lost work. */
export function supersededWithoutResume(status: SystemStatus, now: Date, lookbackMin = 60): readonly StatusTask[] {
  return status.tasks.filter(
    (t) =>
      t.status === 'superseded' &&
      ageMs(now, t.lastUpdatedAt) <= lookbackMin * MINUTE &&
      !status.tasks.some(
        (c) => c.parentTaskId === t.id && c.taskType === 'resume' && !TERMINAL_STATUSES.has(c.status) && c.status !== 'superseded',
      ),
  );
}

/** Failed tasks within `lookbackMin` whose reason the boot-triage script counts as real. */
export function recentRealFailures(status: SystemStatus, now: Date, lookbackMin = 60): readonly StatusTask[] {
  return recentFailures(status, now, lookbackMin).filter((t) => isRealFailureReason(t.failureReason));
}

/** Mentions of the lead not yet answered. */
export function unansweredMentions(status: SystemStatus): SystemStatus['mentions'] {
  return status.mentions.filter((m) => !m.answered);
}
