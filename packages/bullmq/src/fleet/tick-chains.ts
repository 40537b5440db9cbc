/**
 * When a heartbeat's ticks have stopped. BullMQ keeps each job scheduler going by scheduling the
 * next tick, in its own round trip, when a worker takes the current one; if that write fails
 * (BullMQ only emits `error`) or is lost (a Redis failover drops the last acknowledged writes:
 * replication is asynchronous), no tick is ever scheduled again and the heartbeat goes silent
 * while `fleet status` still lists it. The watchdog (tick-chain-watchdog.ts) asks these
 * questions of every scheduler whose next tick is past due.
 */

/** BullMQ job states in which a tick will still be processed (a backlog, not a broken chain). */
export const LIVE_TICK_STATES: readonly string[] = ['delayed', 'waiting', 'active', 'prioritized', 'waiting-children'];

/** What the watchdog read of one heartbeat whose scheduler's next tick is past due. */
export interface OverdueTick {
  /** When the scheduler says the next tick is due (epoch ms). */
  readonly nextMs: number;
  /** The heartbeat's registered interval. */
  readonly intervalMs: number;
  /** BullMQ's state of the job `repeat:<heartbeat>:<nextMs>` (`unknown` when there is none). */
  readonly jobState: string;
}

/**
 * True when the chain has ended: the next tick is more than one whole interval late and no job
 * carries it. Late alone is a backlog (the tick waits for a busy worker) and is left to BullMQ;
 * within one interval a worker may be between taking a tick and scheduling the next.
 */
export function tickChainBroken(tick: OverdueTick, nowMs: number): boolean {
  return nowMs - tick.nextMs > tick.intervalMs && !LIVE_TICK_STATES.includes(tick.jobState);
}

/** Registered heartbeats that have no job scheduler at all (its first write lost), in registry order. */
export function unscheduledHeartbeats(registered: readonly string[], scheduled: ReadonlySet<string>): string[] {
  return registered.filter((id) => !scheduled.has(id));
}
