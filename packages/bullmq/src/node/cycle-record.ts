import type { JsonValue, Receipt } from '@heartbeat-kit/core';
import type { SettledSlot } from '@heartbeat-kit/core/host';
import { UnrecoverableError } from 'bullmq';
import type { FleetHeartbeat } from '../fleet/fleet-heartbeat.js';
import { fleetGapReceipts } from '../fleet/fleet-receipts.js';
import type { FleetStateDocument } from '../fleet/fleet-state.js';
import { commitCycle } from './fleet-commit.js';
import { recordSlotOnce } from './overlap-records.js';
import { receiptStoreFor, type HeldLock, type WorkerContext } from './fleet-worker-context.js';
import type { FleetEvent } from './fleet-worker-types.js';

/** One slot's job as the cycle functions pass it on. */
export interface SlotJob {
  readonly heartbeat: FleetHeartbeat;
  readonly slot: number;
  readonly dueMs: number;
}

/** The fleet lock a slot's cycle holds (fenced). */
export type Held = Extract<HeldLock, { skippedFor: undefined }>;

/**
 * What the fleet's slot body hands to its recorder: the instant the receipt is stamped with and,
 * for an ending that commits (ran, paused), the state document and the event said once it is saved.
 */
export interface FleetSlotValue {
  readonly atMs: number;
  readonly commit?: {
    readonly state: FleetStateDocument;
    readonly document: JsonValue;
    readonly event: FleetEvent;
  };
}

/** The keys one cycle's commit writes under the fence: state, lock fence, receipts. */
const commitKeys = (ctx: WorkerContext, heartbeatId: string) => ({
  state: ctx.keys.state(heartbeatId),
  lockFence: `${ctx.keys.lock(heartbeatId)}:fence`,
  receipts: ctx.keys.receipts(heartbeatId),
});

/**
 * Writes a fleet slot's ending the fleet's way. An ending with a commit (ran, paused) saves the
 * state and its receipt, after the records of the slots since the last commit that have none, in
 * one script under the fence; any other ending appends its receipt (a config error then fails the
 * job for good: a broken registration will not heal by retrying).
 */
export async function recordFleetSlot(ctx: WorkerContext, job: SlotJob, held: Held, settled: SettledSlot<FleetSlotValue>): Promise<void> {
  const { end, receipt, value } = settled;
  if (end === undefined || receipt === undefined) return;
  const heartbeatId = job.heartbeat.id;
  const commit = value?.commit;
  if (value !== undefined && commit !== undefined) {
    const receipts = [...(await gapReceipts(ctx, job, commit.state, value.atMs)), receipt];
    const saved = await commitCycle(ctx.redis, commitKeys(ctx, heartbeatId), commit.document, held.fence, receipts, ctx.receiptBounds);
    if (!saved.written) {
      await ctx.emit({ type: 'stale-write', heartbeatId, slot: job.slot, fence: held.fence, current: saved.current, worker: ctx.id });
      return;
    }
    await ctx.emit(commit.event);
    return;
  }
  if (end.kind === 'config-error') {
    // Once per slot, like an overlap record: a job processed again (its worker died between this
    // record and failing the job) finds the slot closed instead of writing a second config error.
    const keys = { receipts: ctx.keys.receipts(heartbeatId), lock: ctx.keys.lock(heartbeatId), overlaps: ctx.keys.overlaps(heartbeatId) };
    await recordSlotOnce(ctx.redis, keys, held.owner, job.slot, receipt, ctx.receiptBounds);
    await ctx.emit({ type: 'failed', heartbeatId, slot: job.slot, message: end.detail, worker: ctx.id });
    throw new UnrecoverableError(end.detail);
  }
  const appended = await receiptStoreFor(ctx, heartbeatId).append(receipt);
  if (appended.isErr()) throw new Error(appended.error.message);
}

/** The records of the slots since the last commit that have none of their own (collapsed, or died). */
async function gapReceipts(
  ctx: WorkerContext,
  { heartbeat, slot, dueMs }: SlotJob,
  state: FleetStateDocument,
  atMs: number,
): Promise<Receipt[]> {
  const { lastSlot } = state.fleet;
  if (lastSlot === undefined || slot <= lastSlot + 1) return [];
  const listed = await receiptStoreFor(ctx, heartbeat.id).list();
  if (listed.isErr()) throw new Error(listed.error.message);
  return fleetGapReceipts(listed.value.receipts, { lastSlot, slot, dueMs, intervalMs: heartbeat.intervalMs, atMs });
}
