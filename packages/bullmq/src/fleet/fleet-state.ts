import { decodeHeartbeatState, encodeHeartbeatState, type HeartbeatState, type JsonValue } from '@heartbeat-kit/core';
import { z } from 'zod';

// How many delivered cycle numbers to remember: enough to absorb outbox retries arriving out
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
  /** Cycles whose message the sink confirmed and whose findings were marked reported. */
  delivered: z.array(z.number().int().nonnegative()).default([]),
  lastReportAtMs: z.number().optional(),
  lastReportSummary: z.string().optional(),
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
  if (document === undefined) return { state: { heartbeat: decodeHeartbeatState(undefined).state, fleet: { delivered: [] } }, warnings: [] };
  const parsed = documentSchema.safeParse(document);
  if (!parsed.success) {
    return { state: { heartbeat: decodeHeartbeatState(undefined).state, fleet: { delivered: [] } }, warnings: ['fleet state document is not version 1; starting with fresh state'] };
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

/** True when the findings of `cycle` were already marked delivered (an outbox retry). */
export function wasDelivered(meta: FleetMeta, cycle: number): boolean {
  return meta.delivered.includes(cycle);
}

/** Records a confirmed delivery of `cycle` in the fleet bookkeeping. */
export function recordDelivery(meta: FleetMeta, cycle: number, atMs: number, summary: string): FleetMeta {
  const delivered = [...meta.delivered.filter((c) => c !== cycle), cycle].sort((a, b) => a - b).slice(-DELIVERED_MEMORY);
  return { ...meta, delivered, lastReportAtMs: atMs, lastReportSummary: summary };
}
