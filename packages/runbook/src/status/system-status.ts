import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';

/** Task statuses of the server. */
export const TASK_STATUSES = ['pending', 'offered', 'in_progress', 'completed', 'failed', 'cancelled', 'superseded'] as const;

const isoInstant = z.iso.datetime({ offset: true });

/** One task as the status snapshot carries it (a subset of the server's task row). */
export const statusTaskSchema = z
  .object({
    id: z.string().min(1),
    task: z.string().default(''),
    status: z.enum(TASK_STATUSES),
    taskType: z.string().nullable().optional(),
    agentId: z.string().nullable().optional(),
    offeredTo: z.string().nullable().optional(),
    parentTaskId: z.string().nullable().optional(),
    failureReason: z.string().nullable().optional(),
    tags: z.array(z.string()).default([]),
    createdAt: isoInstant,
    lastUpdatedAt: isoInstant,
    finishedAt: isoInstant.nullable().optional(),
    /** What the task completed with (the lead's checklist output). */
    output: z.string().nullable().optional(),
  })
  .strict();

/** One agent. */
export const statusAgentSchema = z
  .object({
    id: z.string().min(1),
    name: z.string().default(''),
    isLead: z.boolean().default(false),
    status: z.enum(['online', 'offline']),
    busy: z.boolean().default(false),
  })
  .strict();

/** One schedule with its recent run counts. */
export const statusScheduleSchema = z
  .object({
    id: z.string().min(1),
    name: z.string().default(''),
    enabled: z.boolean().default(true),
    runs: z.number().int().nonnegative().default(0),
    failed: z.number().int().nonnegative().default(0),
  })
  .strict();

/** A mention of the lead (Slack, a comment) and whether it was answered. */
export const statusMentionSchema = z
  .object({ id: z.string().min(1), at: isoInstant, answered: z.boolean(), text: z.string().default('') })
  .strict();

/**
 * The documented system status snapshot (version 1) a decision reads: tasks, agents, schedules and
 * mentions. Failures and the previous checklist result are derived from `tasks` (failed tasks; the
 * newest completed `heartbeat-checklist` task), so the snapshot cannot contradict itself.
 */
export const systemStatusSchema = z
  .object({
    /** Free text for people reading the file (JSON has no comments); ignored. */
    $comment: z.union([z.string(), z.array(z.string())]).optional(),
    version: z.literal(1),
    generatedAt: isoInstant,
    /** When the server last started; boot triage and the first tick are timed from it. */
    serverStartedAt: isoInstant.nullable().optional(),
    tasks: z.array(statusTaskSchema).default([]),
    agents: z.array(statusAgentSchema).default([]),
    schedules: z.array(statusScheduleSchema).default([]),
    mentions: z.array(statusMentionSchema).default([]),
  })
  .strict();

/** A validated system status snapshot. */
export type SystemStatus = z.infer<typeof systemStatusSchema>;
/** One task of a {@link SystemStatus}. */
export type StatusTask = z.infer<typeof statusTaskSchema>;
/** One agent of a {@link SystemStatus}. */
export type StatusAgent = z.infer<typeof statusAgentSchema>;

/** A snapshot that failed validation, with one line per problem naming the key and the fix. */
export interface StatusValidationError {
  readonly kind: 'invalid-status';
  readonly source: string;
  readonly problems: readonly string[];
}

/** Validates an untrusted value as a {@link SystemStatus}; `source` names the file in every message. */
export function parseSystemStatus(value: unknown, source: string): Result<SystemStatus, StatusValidationError> {
  const parsed = systemStatusSchema.safeParse(value);
  if (parsed.success) return ok(parsed.data);
  const problems = parsed.error.issues.map((issue) => {
    const key = issue.path.length === 0 ? '(root)' : issue.path.map(String).join('.');
    return `${source}: ${key}: ${issue.message}`;
  });
  return err({ kind: 'invalid-status', source, problems });
}

/** Statuses after which a task never moves again. */
export const TERMINAL_STATUSES: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

/** The newest completed checklist task: the "previous heartbeat" the quiet check compares against. */
export function previousChecklist(status: SystemStatus): StatusTask | undefined {
  return status.tasks
    .filter((t) => t.taskType === 'heartbeat-checklist' && t.status === 'completed')
    .sort((a, b) => Date.parse(b.finishedAt ?? b.lastUpdatedAt) - Date.parse(a.finishedAt ?? a.lastUpdatedAt))[0];
}

/** Whether a task of `taskType` is still open (status outside completed, failed, cancelled). */
export function hasOpenTaskOfType(status: SystemStatus, taskType: string): boolean {
  return status.tasks.some((t) => t.taskType === taskType && !TERMINAL_STATUSES.has(t.status));
}
