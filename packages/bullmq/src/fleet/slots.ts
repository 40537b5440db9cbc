/**
 * Slot arithmetic. A slot is a due time divided by the interval: BullMQ's `every` scheduler fires
 * at `first + k × interval`, so consecutive due times get consecutive slot numbers, and every
 * worker names a due time the same way without talking to the others.
 */

/** The slot a due time falls in. */
export function slotOf(dueMs: number, intervalMs: number): number {
  return Math.floor(dueMs / intervalMs);
}

/** When a slot is due (its start), epoch milliseconds. */
export function slotDueMs(slot: number, intervalMs: number): number {
  return slot * intervalMs;
}

/** The deterministic id of a slot's cycle job: adding it twice is a no-op in BullMQ. */
export function cycleJobId(heartbeatId: string, slot: number): string {
  return `${heartbeatId}__${slot}`;
}

/** The deterministic id of a cycle's outbox message: a retried cycle cannot enqueue it twice. */
export function outboxJobId(heartbeatId: string, cycle: number): string {
  return `${heartbeatId}__${cycle}`;
}
