import { z } from 'zod';
import type { PipelineStage } from '../domain/scan-result.js';
import type { JsonValue } from '../domain/json.js';
import { findingSchema } from '../domain/finding.js';

const STAGES = ['Definition', 'Implementation', 'Validation', 'Finalized'] as const satisfies readonly PipelineStage[];

/**
 * Schema of the cross-cycle memory (one versioned JSON document behind `StateStore`).
 * Times are epoch milliseconds.
 */
export const heartbeatStateSchema = z.object({
  version: z.literal(1),
  /** Number of the last evaluated cycle. */
  cycle: z.number().int().nonnegative(),
  /** Report messages delivered so far. */
  reportsSent: z.number().int().nonnegative(),
  /** Fingerprint → when it was last delivered. */
  reported: z.record(z.string(), z.number()),
  /** Fingerprint → consecutive cycles it has been seen (hysteresis). */
  seen: z.record(z.string(), z.number().int().positive()),
  /** Orchestrator session → pane hash and when it last changed. */
  panes: z.record(z.string(), z.object({ hash: z.string(), sinceMs: z.number() })),
  /** Pipeline name → stage at the last cycle that saw it. */
  pipelines: z.record(z.string(), z.enum(STAGES)),
  /** In-progress bead count at the last cycle (for "Alert if: in_progress count changed"). */
  inProgressCount: z.number().int().nonnegative().optional(),
  /** One-shot findings (GChat replies, pipeline finalization) not yet delivered: offered again next cycle. */
  undelivered: z.array(findingSchema).optional(),
});

/** The heartbeat's cross-cycle memory. */
export type HeartbeatState = z.infer<typeof heartbeatStateSchema>;

/** The memory of a heartbeat that has never run. */
export function initialHeartbeatState(): HeartbeatState {
  return { version: 1, cycle: 0, reportsSent: 0, reported: {}, seen: {}, panes: {}, pipelines: {} };
}

/**
 * Reads a stored document as heartbeat state. Anything that does not fit the schema starts
 * afresh with a warning rather than failing the cycle.
 */
export function decodeHeartbeatState(document: JsonValue | undefined): { state: HeartbeatState; warnings: string[] } {
  if (document === undefined) return { state: initialHeartbeatState(), warnings: [] };
  const parsed = heartbeatStateSchema.safeParse(document);
  if (parsed.success) return { state: parsed.data, warnings: [] };
  const issue = parsed.error.issues[0];
  const where = issue === undefined ? '' : ` at ${issue.path.join('.') || '(root)'}: ${issue.message}`;
  return { state: initialHeartbeatState(), warnings: [`heartbeat state does not match schema version 1${where}; starting with fresh state`] };
}

/** The state as a plain JSON document for a `StateStore`. */
export function encodeHeartbeatState(state: HeartbeatState): JsonValue {
  return JSON.parse(JSON.stringify(state)) as JsonValue;
}
