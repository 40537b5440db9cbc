import { ackActive, type Ack } from './ack-book.js';
import type { AckMemory } from './ack-decision.js';

/** An ack in force over a planned window, and the first slot it no longer holds at (none: it outlasts the plan). */
export interface PlannedAck {
  readonly id: string;
  readonly selector: string;
  readonly by: string;
  readonly note: string;
  readonly at: string;
  readonly until?: string;
  readonly snooze: boolean;
  /** The first planned slot at or after `until` (the ack ends before it runs); absent: it holds through the plan. */
  readonly endsInSlot?: string;
}

/**
 * The acks in force at the start of a plan (`fromMs`), each with the slot it ends in. Pure. A
 * slot at exactly `until` is the first the ack no longer holds at, as {@link ackActive} says.
 */
export function acksOverPlan(acks: readonly Ack[], slotsAt: readonly string[], fromMs: number): PlannedAck[] {
  return acks
    .filter((ack) => ackActive(ack, new Date(fromMs)))
    .map((ack) => {
      const endMs = ack.until === undefined ? undefined : Date.parse(ack.until);
      const endsInSlot = endMs === undefined ? undefined : slotsAt.find((slot) => Date.parse(slot) >= endMs);
      return {
        id: ack.id,
        selector: ack.selector,
        by: ack.by,
        note: ack.note,
        at: ack.at,
        ...(ack.until === undefined ? {} : { until: ack.until }),
        snooze: ack.snooze,
        ...(endsInSlot === undefined ? {} : { endsInSlot }),
      };
    });
}

/** What the acks hold at an instant: the acks in force and the findings the last cycle held with them. */
export interface AckHolding {
  /** Acks still in force. */
  readonly inForce: number;
  /** Fingerprints the last cycle held with an ack still in force (not ended for them, not cleared). */
  readonly held: readonly string[];
  /** One warning per ack with no end set longer ago than the allowed age: is it forgotten? */
  readonly warnings: readonly string[];
}

/**
 * How many findings the operator's acks hold at `nowMs`, from the state's ack memory (what the
 * last cycle decided) and the ack book. Pure. A finding whose ack ended for it (changed, came
 * back) or that cleared is not held; neither is one whose ack expired or was removed since.
 */
export function ackHolding(acks: readonly Ack[], memory: AckMemory | undefined, nowMs: number, maxOpenAgeMs: number): AckHolding {
  const now = new Date(nowMs);
  const inForce = acks.filter((ack) => ackActive(ack, now));
  const ids = new Set(inForce.map((ack) => ack.id));
  const held = Object.entries(memory ?? {})
    .filter(([, entry]) => ids.has(entry.ack) && entry.ended === undefined && entry.cleared === undefined)
    .map(([fingerprint]) => fingerprint)
    .sort();
  const warnings = inForce
    .filter((ack) => ack.until === undefined && nowMs - Date.parse(ack.at) > maxOpenAgeMs)
    .map(
      (ack) =>
        `ack ${ack.id} (${ack.selector}) has no end and was written ${Math.floor((nowMs - Date.parse(ack.at)) / 3_600_000)} h ago (${ack.at}), longer than ${Math.round(maxOpenAgeMs / 3_600_000)} h: is it forgotten? Fix: 'heartbeat-kit unack ${ack.id}', or ack again with --for or --until`,
    );
  return { inForce: inForce.length, held, warnings };
}
