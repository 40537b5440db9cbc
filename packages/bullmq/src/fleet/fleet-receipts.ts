import { type Receipt, skippedReceipt } from '@heartbeat-kit/core';
import type { CycleStep, Pause, SlotEnd } from '@heartbeat-kit/core/host';
import { slotOf } from './slots.js';

/** Why fleet slots between two committed cycles have no record of their own. */
export const FLEET_GAP_DETAIL =
  'no fleet cycle committed this slot (no worker was running, the slot collapsed into a later one, or its cycle died before committing)';

/**
 * The ending of a fleet cycle that ran, which core's `slotReceipt` (the one place a slot's ending
 * becomes its receipt) turns into the `ran` receipt. A report is `queued`: the outbox holds it
 * durably and retries until the sink confirms, so the slot's record does not wait on the sink;
 * `held` when the heartbeat's sink breaker is open, so the outbox will not try it this cycle.
 * `checks`: the project's check names.
 */
export function fleetRanEnd(
  step: Pick<CycleStep, 'decision' | 'problems' | 'scanResults'>,
  slot: {
    readonly delivery: 'none' | 'queued' | 'held';
    /** The operator pause the slot honoured in part (scanners, or critical findings only). */
    readonly pause?: Pause | undefined;
    readonly checks?: readonly string[];
  },
): Extract<SlotEnd, { kind: 'ran-step' }> {
  return { kind: 'ran-step', step: { ...step, delivery: slot.delivery }, pause: slot.pause, checks: slot.checks ?? [] };
}

/** The slot numbers a receipt closes (a range receipt closes every slot through `through`). */
function slotsOf(receipt: Receipt, intervalMs: number): [number, number] {
  const first = slotOf(Date.parse(receipt.slot), intervalMs);
  const last = receipt.kind === 'skipped' && receipt.through !== undefined ? slotOf(Date.parse(receipt.through), intervalMs) : first;
  return [first, last];
}

/**
 * The `skipped` receipts that close the slots strictly between the last committed slot and this
 * one which no receipt closes yet (overlap and config-error skips have their own): one receipt
 * per run of consecutive unrecorded slots, so every slot of a heartbeat ends in exactly one record.
 */
export function fleetGapReceipts(
  recorded: readonly Receipt[],
  gap: {
    readonly lastSlot: number | undefined;
    readonly slot: number;
    readonly dueMs: number;
    readonly intervalMs: number;
    readonly atMs: number;
  },
): Receipt[] {
  const { lastSlot, slot, dueMs, intervalMs } = gap;
  if (lastSlot === undefined || slot <= lastSlot + 1) return [];
  const closed: [number, number][] = recorded
    .filter((r) => r.source === 'fleet')
    .map((r) => slotsOf(r, intervalMs))
    .filter(([first, last]) => last > lastSlot && first < slot);
  const isClosed = (s: number): boolean => closed.some(([first, last]) => s >= first && s <= last);
  const dueOf = (s: number): number => dueMs - (slot - s) * intervalMs;
  const receipts: Receipt[] = [];
  let runStart: number | undefined;
  const flush = (end: number): void => {
    if (runStart === undefined) return;
    receipts.push(
      skippedReceipt('down', {
        slotMs: dueOf(runStart),
        atMs: gap.atMs,
        source: 'fleet',
        detail: FLEET_GAP_DETAIL,
        ...(end > runStart ? { throughMs: dueOf(end), count: end - runStart + 1 } : {}),
      }),
    );
    runStart = undefined;
  };
  // A gap longer than the receipt bound is one range; walking it slot by slot would be unbounded.
  const from = Math.max(lastSlot + 1, slot - 100_000);
  if (from > lastSlot + 1) {
    runStart = lastSlot + 1;
    flush(from - 1);
  }
  for (let s = from; s < slot; s += 1) {
    if (isClosed(s)) flush(s - 1);
    else runStart ??= s;
  }
  flush(slot - 1);
  return receipts;
}
