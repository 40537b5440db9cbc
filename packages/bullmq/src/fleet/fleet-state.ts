import { decodeHeartbeatState, encodeHeartbeatState, type HeartbeatState, type JsonValue } from '@heartbeat-kit/core';
import { sinkBreakerSchema } from '@heartbeat-kit/core/host';
import { z } from 'zod';

// How many delivered message ids to remember: enough to absorb outbox retries arriving out
// of order, small enough to keep the document short.
const DELIVERED_MEMORY = 64;

/** What the fleet remembers about a heartbeat besides the core memory. */
export const fleetMetaSchema = z.object({
  /** Last slot whose cycle committed; a slot at or below it never runs again. */
  lastSlot: z.number().int().optional(),
  /** Core cycle number of that commit. */
  lastCycle: z.number().int().nonnegative().optional(),
  lastCycleStartedAtMs: z.number().optional(),
  lastCycleEndedAtMs: z.number().optional(),
  /** Start minus due time of the last committed slot. */
  lastLagMs: z.number().optional(),
  /** Ids of the last messages the sink confirmed and whose findings were marked reported. */
  delivered: z.array(z.string()).default([]),
  /** Messages enqueued but not yet confirmed: their findings count as reported meanwhile. */
  pending: z
    .array(
      z.object({
        id: z.string(),
        atMs: z.number(),
        fingerprints: z.array(z.string()),
        /** Fingerprints of the `RESOLVED:` notices the message carries. */
        resolved: z.array(z.string()).optional(),
      }),
    )
    .default([]),
  lastReportAtMs: z.number().optional(),
  lastReportSummary: z.string().optional(),
  /**
   * The sink's circuit breaker for this heartbeat (core's, counted in this heartbeat's cycles):
   * present only while its deliveries fail the same way. `triedCycle` is the heartbeat's cycle of
   * the last counted failure, so outbox retries within one cycle count once.
   */
  sinkBreaker: z.object({ breaker: sinkBreakerSchema, triedCycle: z.number().int().nonnegative() }).optional(),
});

/** Fleet bookkeeping stored beside the core heartbeat state. */
export type FleetMeta = z.infer<typeof fleetMetaSchema>;

/** One heartbeat's document in the fleet's state store: core memory plus fleet bookkeeping. */
export interface FleetStateDocument {
  readonly heartbeat: HeartbeatState;
  readonly fleet: FleetMeta;
}

const documentSchema = z.object({ version: z.literal(1), heartbeat: z.unknown(), fleet: fleetMetaSchema });

/** Reads a stored document; anything unreadable starts afresh with a warning, as core does. */
export function decodeFleetState(document: JsonValue | undefined): { state: FleetStateDocument; warnings: string[] } {
  if (document === undefined)
    return { state: { heartbeat: decodeHeartbeatState(undefined).state, fleet: { delivered: [], pending: [] } }, warnings: [] };
  const parsed = documentSchema.safeParse(document);
  if (!parsed.success) {
    return {
      state: { heartbeat: decodeHeartbeatState(undefined).state, fleet: { delivered: [], pending: [] } },
      warnings: ['fleet state document is not version 1; starting with fresh state'],
    };
  }
  const heartbeat = decodeHeartbeatState(parsed.data.heartbeat as JsonValue);
  return { state: { heartbeat: heartbeat.state, fleet: parsed.data.fleet }, warnings: heartbeat.warnings };
}

/** The document as JSON for a `StateStore`. */
export function encodeFleetState(state: FleetStateDocument): JsonValue {
  return { version: 1, heartbeat: encodeHeartbeatState(state.heartbeat), fleet: JSON.parse(JSON.stringify(state.fleet)) as JsonValue };
}

/** Whether a slot's cycle may run: a committed slot (or an older one) never runs again. */
export function decideSlot(meta: FleetMeta, slot: number): 'run' | 'already-ran' {
  return meta.lastSlot !== undefined && slot <= meta.lastSlot ? 'already-ran' : 'run';
}

/** True when the findings of message `id` were already marked delivered (an outbox retry). */
export function wasDelivered(meta: FleetMeta, id: string): boolean {
  return meta.delivered.includes(id);
}

/** Records a confirmed delivery of message `id`; it is no longer pending. */
export function recordDelivery(meta: FleetMeta, id: string, atMs: number, summary: string): FleetMeta {
  const delivered = [...meta.delivered.filter((d) => d !== id), id].slice(-DELIVERED_MEMORY);
  return { ...meta, delivered, pending: meta.pending.filter((p) => p.id !== id), lastReportAtMs: atMs, lastReportSummary: summary };
}

/** Records an enqueued, unconfirmed message `id`, the findings it carries and the recoveries it says. */
export function recordPending(
  meta: FleetMeta,
  id: string,
  atMs: number,
  fingerprints: readonly string[],
  resolved: readonly string[] = [],
): FleetMeta {
  const entry = { id, atMs, fingerprints: [...fingerprints], ...(resolved.length > 0 ? { resolved: [...resolved] } : {}) };
  return { ...meta, pending: [...meta.pending.filter((p) => p.id !== id), entry] };
}

/**
 * The state a cycle evaluates against: findings in a message still waiting in the outbox count
 * as reported at `nowMs`, so the next slot does not report them again while delivery is retried.
 */
export function withPendingAsReported(heartbeat: HeartbeatState, meta: FleetMeta, nowMs: number): HeartbeatState {
  if (meta.pending.length === 0) return heartbeat;
  const reported = { ...heartbeat.reported };
  for (const pending of meta.pending) for (const fingerprint of pending.fingerprints) reported[fingerprint] = nowMs;
  // A recovery notice in a waiting message is said already: the next slot must not say it again
  // (a second RESOLVED line). The cycle then saves the pending list without it; the outbox owns
  // it until the sink confirms (its markDelivered finds nothing left to settle).
  const inFlight = new Set(meta.pending.flatMap((pending) => pending.resolved ?? []));
  const recovery =
    heartbeat.recovery === undefined || inFlight.size === 0
      ? heartbeat.recovery
      : { ...heartbeat.recovery, pending: heartbeat.recovery.pending.filter((notice) => !inFlight.has(notice.fingerprint)) };
  return recovery === undefined ? { ...heartbeat, reported } : { ...heartbeat, reported, recovery };
}

/**
 * Undoes {@link withPendingAsReported} on the evaluated state: only the outbox, after the sink
 * confirmed, may mark a finding reported (core's `markDelivered`).
 */
export function withoutPending(next: HeartbeatState, original: HeartbeatState): HeartbeatState {
  const reported: Record<string, number> = {};
  for (const fingerprint of Object.keys(next.reported)) {
    const at = original.reported[fingerprint];
    if (at !== undefined) reported[fingerprint] = at;
  }
  // Content memory follows its delivery time: none for a finding only the outbox holds.
  const reportedContent = Object.fromEntries(
    Object.entries(next.reportedContent).filter(([fingerprint]) => Object.hasOwn(reported, fingerprint)),
  );
  return { ...next, reported, reportedContent };
}
