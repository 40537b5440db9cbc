import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import type { SystemStatus } from '../status/system-status.js';
import type { ScriptReports } from './quiet-fast-path.js';

/** The seeded schedule-health script's flag rule: at least 3 runs and a failure rate above this. */
export const SCHEDULE_FAILURE_THRESHOLD = 0.2;

const DAY = 86_400_000;

/**
 * What the two seeded scripts would report, derived from the snapshot alone (`days: 1`): schedules
 * with 3+ runs failing more than 20%, and the failed tasks created within the last day. Used when
 * the caller has no real script output; the rules are the scripts' own (reference §6).
 */
export function scriptReportsFromStatus(status: SystemStatus, now: Date): ScriptReports {
  const flagged = status.schedules.filter((s) => s.runs >= 3 && s.failed / s.runs > SCHEDULE_FAILURE_THRESHOLD).map((s) => s.id);
  const since = now.getTime() - DAY;
  const taskIds = status.tasks.filter((t) => t.status === 'failed' && Date.parse(t.createdAt) >= since).map((t) => t.id);
  return { scheduleHealth: { flagged, totalSchedules: status.schedules.length }, failureAudit: { taskIds } };
}

const scheduleHealthSchema = z.looseObject({
  totalSchedules: z.number().int().nonnegative(),
  flagged: z.array(z.looseObject({ id: z.string().min(1) })),
});

const failureAuditSchema = z.looseObject({
  groups: z.array(z.looseObject({ taskIds: z.array(z.string().min(1)) })),
});

/** A script output that could not be used, with one line per problem naming the key. */
export interface ScriptReportError {
  readonly kind: 'invalid-script-output';
  readonly source: string;
  readonly problems: readonly string[];
}

function problemsOf(source: string, issues: readonly z.core.$ZodIssue[], value: unknown): ScriptReportError {
  const scriptError = typeof value === 'object' && value !== null && 'error' in value ? String(value.error) : undefined;
  if (scriptError !== undefined)
    return { kind: 'invalid-script-output', source, problems: [`${source}: the script reported an error: ${scriptError}`] };
  return {
    kind: 'invalid-script-output',
    source,
    problems: issues.map((i) => `${source}: ${i.path.length === 0 ? '(root)' : i.path.map(String).join('.')}: ${i.message}`),
  };
}

/** Reads the JSON the `schedule-health` script printed (`{ totalSchedules, flagged: [{ id }] }`). */
export function parseScheduleHealth(value: unknown, source: string): Result<ScriptReports['scheduleHealth'], ScriptReportError> {
  const r = scheduleHealthSchema.safeParse(value);
  if (!r.success) return err(problemsOf(source, r.error.issues, value));
  return ok({ totalSchedules: r.data.totalSchedules, flagged: r.data.flagged.map((f) => f.id) });
}

/** Reads the JSON the `task-failure-audit` script printed (`{ groups: [{ taskIds }] }`). */
export function parseFailureAudit(value: unknown, source: string): Result<ScriptReports['failureAudit'], ScriptReportError> {
  const r = failureAuditSchema.safeParse(value);
  if (!r.success) return err(problemsOf(source, r.error.issues, value));
  return ok({ taskIds: r.data.groups.flatMap((g) => g.taskIds) });
}
