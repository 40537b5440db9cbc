/** The exact `failureReason` strings the server writes (reference §5). */
export const FAILURE_REASONS = {
  rebootSweep: 'Auto-failed by reboot sweep: worker session not found after server restart',
  supersededNoSession: 'Auto-superseded by heartbeat: worker session not found (no active session for task)',
  supersededStaleHeartbeat: 'Auto-superseded by heartbeat: worker session heartbeat is stale (likely crashed)',
  failedNoSession: 'Auto-failed by heartbeat: worker session not found (no active session for task)',
  failedStaleHeartbeat: 'Auto-failed by heartbeat: worker session heartbeat is stale (likely crashed)',
  supersededWorkflowTask: 'superseded_workflow_task',
  resumeBudgetExhausted: 'resume_budget_exhausted',
} as const;

/** What a failure reason says happened. */
export type FailureClass =
  | 'reboot-interrupted'
  | 'worker-crash-superseded'
  | 'worker-crash-failed'
  | 'superseded-workflow-task'
  | 'resume-budget-exhausted'
  | 'other';

/** Classifies a failure reason by exact string match; anything else (or none) is `other`. */
export function classifyFailureReason(reason: string | null | undefined): FailureClass {
  if (reason === null || reason === undefined) return 'other';
  switch (reason) {
    case FAILURE_REASONS.rebootSweep:
      return 'reboot-interrupted';
    case FAILURE_REASONS.supersededNoSession:
    case FAILURE_REASONS.supersededStaleHeartbeat:
      return 'worker-crash-superseded';
    case FAILURE_REASONS.failedNoSession:
    case FAILURE_REASONS.failedStaleHeartbeat:
      return 'worker-crash-failed';
    case FAILURE_REASONS.supersededWorkflowTask:
      return 'superseded-workflow-task';
    case FAILURE_REASONS.resumeBudgetExhausted:
      return 'resume-budget-exhausted';
    default:
      return 'other';
  }
}

/** Task types the server never retries or resumes. */
export const NEVER_RETRIED_TASK_TYPES: ReadonlySet<string> = new Set([
  'heartbeat-checklist',
  'boot-triage',
  'heartbeat',
  'reroute-decision',
]);

/** Whether a task of this type gets no retry or resume child. */
export function isNeverRetried(taskType: string | null | undefined): boolean {
  return taskType !== null && taskType !== undefined && NEVER_RETRIED_TASK_TYPES.has(taskType);
}

// The boot-triage script's whole-string exclusion: the real reboot reason is not excluded.
const BENIGN_FAILURE = /^(superseded_workflow_task|cancelled|reboot-sweep)$/i;

/** Whether the boot-triage script counts a failure reason as a real failure. */
export function isRealFailureReason(reason: string | null | undefined): boolean {
  return !BENIGN_FAILURE.test(reason ?? '');
}
