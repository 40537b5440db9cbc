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

/**
 * Where in its interval a heartbeat's ticks fall: a hash of its id (FNV-1a), in
 * `[1, intervalMs - 1]`. Without it BullMQ starts each schedule when it is added, so 10,000
 * heartbeats registered by one script all tick in the same few seconds of every interval and
 * the last waits for the whole herd; spread by id, they arrive evenly, and the same id always
 * keeps the same place (re-adding it does not move its slots).
 */
export function spreadOffsetMs(heartbeatId: string, intervalMs: number): number {
  if (intervalMs <= 2) return 1;
  let hash = 0x811c9dc5;
  for (let i = 0; i < heartbeatId.length; i += 1) {
    hash ^= heartbeatId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return 1 + (hash % (intervalMs - 1));
}

/**
 * When a tick was due. BullMQ names scheduler jobs `repeat:<scheduler>:<due millis>` and does not
 * keep `prevMillis` on the job; creation time plus delay is the fallback.
 */
export function tickDueMs(job: {
  readonly id?: string | undefined;
  readonly timestamp: number;
  readonly delay?: number | undefined;
}): number {
  const id = job.id ?? '';
  const fromId = Number(id.slice(id.lastIndexOf(':') + 1));
  if (id.startsWith('repeat:') && Number.isSafeInteger(fromId) && fromId > 0) return fromId;
  return job.timestamp + (job.delay ?? 0);
}
