import type { Receipt, ReceiptStore } from '@heartbeat-kit/core';
import { createFileReceiptStore, receiptsDirectoryFor, systemClock } from '@heartbeat-kit/core/node';
import type { CliIo } from '../io.js';
import { defaultStatePath, resolvePath } from './cycle-deps.js';

/** The state file the shared `--cwd`/`--state` flags point at (the same rule as `cycle`). */
export function statePathOf(io: CliIo, values: { readonly cwd?: string | undefined; readonly state?: string | undefined }): string {
  const cwd = resolvePath(io.cwd, values.cwd ?? '.');
  return values.state === undefined ? defaultStatePath(cwd) : resolvePath(io.cwd, values.state);
}

/**
 * The receipts beside a state file. `now` (from `--now`) also judges the age bound, so a command
 * evaluated at a chosen instant sees the receipts as they were then.
 */
export function receiptStoreFor(statePath: string, now?: Date): ReceiptStore {
  return createFileReceiptStore({ directory: receiptsDirectoryFor(statePath), clock: now === undefined ? systemClock : { now: () => now } });
}

/** Appends a receipt; a failure is one stderr line naming the fix and `false`. */
export async function appendReceipt(store: ReceiptStore, receipt: Receipt, statePath: string, io: CliIo, command: string): Promise<boolean> {
  const appended = await store.append(receipt);
  if (appended.isOk()) return true;
  io.stderr(`heartbeat-kit ${command}: cannot write the receipt of slot ${receipt.slot}: ${appended.error.message}. Fix: check that ${receiptsDirectoryFor(statePath)} is writable.\n`);
  return false;
}
