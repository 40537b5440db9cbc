import { randomUUID } from 'node:crypto';
import { mkdir, readdir, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ResultAsync } from 'neverthrow';
import type { Clock } from '../ports/clock.js';
import type { ListedReceipts, ReceiptStore, ReceiptStoreError } from '../ports/receipt-store.js';
import { DEFAULT_RECEIPT_BOUNDS, parseReceiptLines, pruneReceipts, type Receipt, type ReceiptBounds } from '../schedule/receipt-schema.js';
import { describeError, errorCode, syncDirectory } from './durable-fs.js';
import { openRegularFileForAppend, readRegularFile } from './regular-file.js';
import { systemClock } from './system-clock.js';

/** Options of {@link createFileReceiptStore}. */
export interface FileReceiptStoreOptions {
  /** Directory of the segment files (see {@link receiptsDirectoryFor}). */
  readonly directory: string;
  readonly bounds?: ReceiptBounds;
  /** "Now" for the age bound; defaults to the system clock. */
  readonly clock?: Clock;
}

/** The receipts directory beside a state file: `state.json` → `state.receipts/`. */
export function receiptsDirectoryFor(statePath: string): string {
  return join(dirname(statePath), `${basename(statePath).replace(/\.json$/i, '')}.receipts`);
}

const SEGMENT = /^(\d{13})-\d+-[0-9a-f-]{36}\.jsonl$/;

async function segments(directory: string): Promise<string[]> {
  try {
    return (await readdir(directory)).filter((name) => SEGMENT.test(name)).sort();
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return [];
    throw error;
  }
}

async function readSegment(path: string): Promise<string> {
  try {
    return await readRegularFile(path);
  } catch (error) {
    // Pruned by another process between readdir and read.
    if (errorCode(error) === 'ENOENT') return '';
    throw error;
  }
}

async function appendSynced(path: string, text: string): Promise<void> {
  const handle = await openRegularFileForAppend(path);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * A {@link ReceiptStore} on a directory of append-only JSONL segments. Each append is one
 * `O_APPEND` write followed by fsync, so a crash loses at most the line being written (a torn
 * line is skipped on reading) and concurrent appenders never overwrite each other. Nothing is
 * ever rewritten: when the newest segment is full a new one starts, and whole segments that lie
 * beyond the count or age bound are deleted, so the directory stays bounded.
 *
 * @example
 * ```ts
 * import { skippedReceipt } from '@heartbeat-kit/core';
 * import { createFileReceiptStore, receiptsDirectoryFor } from '@heartbeat-kit/core/node';
 *
 * const store = createFileReceiptStore({ directory: receiptsDirectoryFor('.git/heartbeat-kit/state.json') });
 * await store.append(skippedReceipt('overlapping', { slotMs: Date.now(), atMs: Date.now(), source: 'cycle' }));
 * const listed = await store.list(); // oldest first, bounded by count and age
 * if (listed.isOk()) console.log(listed.value.receipts.length);
 * ```
 */
export function createFileReceiptStore(options: FileReceiptStoreOptions): ReceiptStore {
  const { directory } = options;
  const bounds = options.bounds ?? DEFAULT_RECEIPT_BOUNDS;
  const clock = options.clock ?? systemClock;
  const segmentSize = Math.max(8, Math.ceil(bounds.maxCount / 8));

  const prune = async (names: readonly string[]): Promise<void> => {
    // Newest first: a segment is dropped once newer ones already hold maxCount receipts or all
    // of its receipts are older than the age bound. The newest segment is always kept.
    let newer = 0;
    const nowMs = clock.now().getTime();
    for (let index = names.length - 1; index >= 0; index -= 1) {
      const name = names[index] ?? '';
      const { receipts } = parseReceiptLines(await readSegment(join(directory, name)));
      const newest = Math.max(...receipts.map((r) => Date.parse(r.at)), Number.NEGATIVE_INFINITY);
      const expired = receipts.length > 0 && nowMs - newest > bounds.maxAgeMs;
      if (index < names.length - 1 && (newer >= bounds.maxCount || expired)) {
        try {
          await unlink(join(directory, name));
        } catch (error) {
          if (errorCode(error) !== 'ENOENT') throw error;
        }
      }
      newer += receipts.length;
    }
  };

  const append = async (receipt: Receipt): Promise<void> => {
    await mkdir(directory, { recursive: true });
    const names = await segments(directory);
    const last = names.at(-1);
    const line = `${JSON.stringify(receipt)}\n`;
    if (last !== undefined) {
      const text = await readSegment(join(directory, last));
      const lines = text.split('\n').filter((l) => l.trim() !== '').length;
      if (text !== '' && lines < segmentSize) {
        // A crash can leave a torn last line; start on a fresh line so this record stays whole.
        await appendSynced(join(directory, last), text.endsWith('\n') ? line : `\n${line}`);
        return;
      }
    }
    // Names sort in creation order even when the clock stands still or steps back.
    const lastStamp = last === undefined ? 0 : Number(SEGMENT.exec(last)?.[1] ?? 0);
    const stamp = Math.max(clock.now().getTime(), lastStamp + 1);
    const name = `${String(stamp).padStart(13, '0')}-${process.pid}-${randomUUID()}.jsonl`;
    await appendSynced(join(directory, name), line);
    await syncDirectory(directory);
    await prune([...names, name].sort());
  };

  const list = async (): Promise<ListedReceipts> => {
    const all: Receipt[] = [];
    let invalid = 0;
    for (const name of await segments(directory)) {
      const parsed = parseReceiptLines(await readSegment(join(directory, name)));
      all.push(...parsed.receipts);
      invalid += parsed.invalidLines;
    }
    const warnings = invalid === 0 ? [] : [`${invalid} unreadable receipt line(s) in ${directory} skipped (a crash mid-write leaves one)`];
    return { receipts: pruneReceipts(all, clock.now().getTime(), bounds), warnings };
  };

  const ioError =
    (action: string) =>
    (error: unknown): ReceiptStoreError => ({
      kind: 'io',
      message: `Could not ${action} receipts in ${directory}: ${describeError(error)}`,
    });
  return {
    append: (receipt) => ResultAsync.fromPromise(append(receipt), ioError('write')),
    list: () => ResultAsync.fromPromise(list(), ioError('read')),
  };
}
