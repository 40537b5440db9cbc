import { okAsync } from 'neverthrow';
import type { JsonValue, Receipt, ReceiptStore, StateStore } from '@heartbeat-kit/core';

/**
 * A state store for a rehearsal (`loop --now`): it reads the real state once and keeps every save
 * in memory, so the rehearsal's cycles dedup among themselves and a real run later sees nothing.
 */
export function rehearsalStateStore(real: StateStore): StateStore {
  let saved: { readonly document: JsonValue } | undefined;
  return {
    load: () => (saved === undefined ? real.load() : okAsync({ document: saved.document, warnings: [] })),
    save: (document) => {
      saved = { document };
      return okAsync(undefined);
    },
  };
}

/** A receipt store for a rehearsal: lists the real receipts and the rehearsal's own, writes none to disk. */
export function rehearsalReceiptStore(real: ReceiptStore): ReceiptStore {
  const own: Receipt[] = [];
  return {
    append: (receipt) => {
      own.push(receipt);
      return okAsync(undefined);
    },
    list: () => real.list().map((listed) => ({ receipts: [...listed.receipts, ...own], warnings: listed.warnings })),
  };
}
