import type { ResultAsync } from 'neverthrow';
import type { Receipt } from '../schedule/receipt-schema.js';

/** Why a receipt store could not do its job. */
export interface ReceiptStoreError {
  readonly kind: 'io';
  readonly message: string;
}

/** What listing the receipts gave: oldest first, already bounded; unreadable lines are warnings. */
export interface ListedReceipts {
  readonly receipts: readonly Receipt[];
  readonly warnings: readonly string[];
}

/**
 * Keeps one durable record per heartbeat slot (`ran` or `skipped`), bounded by count and age.
 * An append that returned ok survives a crash; a crash mid-append loses at most that record,
 * never an earlier one. Appends from several processes at once are all kept.
 */
export interface ReceiptStore {
  readonly append: (receipt: Receipt) => ResultAsync<void, ReceiptStoreError>;
  readonly list: () => ResultAsync<ListedReceipts, ReceiptStoreError>;
}
