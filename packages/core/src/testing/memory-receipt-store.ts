import { okAsync } from 'neverthrow';
import type { ReceiptStore } from '../ports/receipt-store.js';
import { DEFAULT_RECEIPT_BOUNDS, pruneReceipts, receiptSchema, type Receipt, type ReceiptBounds } from '../schedule/receipt-schema.js';
import type { Clock } from '../ports/clock.js';

/** An in-memory {@link ReceiptStore} that also shows every receipt ever appended. */
export interface MemoryReceiptStore extends ReceiptStore {
  /** Every appended receipt, unbounded, in append order. */
  readonly appended: () => readonly Receipt[];
}

/**
 * An in-memory receipt store with the file store's bounds (applied when listing).
 *
 * @example
 * ```ts
 * import { skippedReceipt } from '@heartbeat-kit/core';
 * import { createMemoryReceiptStore } from '@heartbeat-kit/core/testing';
 *
 * const store = createMemoryReceiptStore({ clock: { now: () => new Date('2026-02-19T10:00:00Z') } });
 * await store.append(skippedReceipt('dry-run', { slotMs: 0, atMs: 0, source: 'cycle' }));
 * console.log(store.appended().length); // 1
 * ```
 */
export function createMemoryReceiptStore(options: { readonly clock: Clock; readonly bounds?: ReceiptBounds }): MemoryReceiptStore {
  const all: Receipt[] = [];
  return {
    append: (receipt) => {
      all.push(receiptSchema.parse(JSON.parse(JSON.stringify(receipt))));
      return okAsync(undefined);
    },
    list: () =>
      okAsync({ receipts: pruneReceipts(all, options.clock.now().getTime(), options.bounds ?? DEFAULT_RECEIPT_BOUNDS), warnings: [] }),
    appended: () => [...all],
  };
}
