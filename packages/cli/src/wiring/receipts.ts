import type { Clock, Receipt, ReceiptStore } from '@heartbeat-kit/core';
import type { UnwrittenReceipt } from '@heartbeat-kit/core/host';
import { createFileReceiptStore, receiptsDirectoryFor, systemClock } from '@heartbeat-kit/core/node';
import { err, ok, type Result } from 'neverthrow';
import { withFix } from '../errors.js';
import type { CliIo } from '../io.js';
import { createCliRunner } from './cli-runner.js';
import { resolvePath } from './cycle-deps.js';
import { existingStatePath, locateProject } from './project-location.js';

/**
 * The state file (and the config directory) the shared `--cwd`/`--state` flags point at, by the
 * same rule as `cycle`; an older version's `.heartbeat/` while no cycle has migrated it yet.
 */
export async function locateState(
  io: CliIo,
  values: { readonly cwd?: string | undefined; readonly state?: string | undefined },
): Promise<Result<{ readonly statePath: string; readonly configDir: string }, string>> {
  const cwd = resolvePath(io.cwd, values.cwd ?? '.');
  const located = await locateProject(cwd, {
    runner: createCliRunner(io),
    env: io.env,
    flag: values.cwd === undefined ? 'the current directory' : '--cwd',
  });
  if (values.state !== undefined)
    return ok({ statePath: resolvePath(io.cwd, values.state), configDir: located.isOk() ? located.value.project : cwd });
  if (located.isErr()) return err(located.error);
  return ok({ statePath: await existingStatePath(located.value), configDir: located.value.project });
}

/**
 * The receipts beside a state file. `clock` (the io's, or a fixed `--now`) also judges the age
 * bound, so a command evaluated at a chosen instant sees the receipts as they were then.
 */
export function receiptStoreFor(statePath: string, clock: Clock = systemClock): ReceiptStore {
  return createFileReceiptStore({ directory: receiptsDirectoryFor(statePath), clock });
}

/** Appends a receipt; a failure is one stderr line naming the fix and `false`. */
export async function appendReceipt(
  store: ReceiptStore,
  receipt: Receipt,
  statePath: string,
  io: CliIo,
  command: string,
): Promise<boolean> {
  const appended = await store.append(receipt);
  if (appended.isOk()) return true;
  sayUnwritten({ receipt, error: appended.error }, statePath, io, command);
  return false;
}

/** One stderr line naming a receipt the store did not take, and the fix. */
export function sayUnwritten(unwritten: UnwrittenReceipt, statePath: string, io: CliIo, command: string): void {
  io.stderr(
    `heartbeat-kit ${command}: cannot write the receipt of slot ${unwritten.receipt.slot}: ${withFix(unwritten.error.message, `check that ${receiptsDirectoryFor(statePath)} is writable.`)}\n`,
  );
}
