import { appendFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { heldFifo } from '../../test/support/fifo.js';
import type { Receipt } from '../schedule/receipts.js';
import { createFileReceiptStore, receiptsDirectoryFor } from './file-receipt-store.js';

const root = mkdtempSync(join(tmpdir(), 'hb-receipts-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const T0 = Date.parse('2026-02-19T10:00:00Z');
const clock = { now: () => new Date(T0 + 10_000 * 60_000) };

function ran(cycle: number): Receipt {
  const at = new Date(T0 + cycle * 60_000).toISOString();
  return { v: 1, kind: 'ran', slot: at, at, source: 'cycle', cycle, status: 'ok', delivery: 'none' };
}

describe('file receipt store', () => {
  it('lives beside the state file, named after it', () => {
    expect(receiptsDirectoryFor('/x/.git/heartbeat/state.json')).toBe('/x/.git/heartbeat/state.receipts');
  });

  // Issue 25 item 6: a FIFO among the segments blocked the read (or the append's open) forever.
  it('a FIFO among the segments is refused, never read or appended to: an io error naming it and the fix', async () => {
    const directory = join(root, 'fifo');
    const store = createFileReceiptStore({ directory, clock });
    (await store.append(ran(1)))._unsafeUnwrap();
    const [segment] = readdirSync(directory);
    rmSync(join(directory, segment!));
    heldFifo(join(directory, segment!));
    for (const result of [await store.list(), await store.append(ran(2))]) {
      expect(result._unsafeUnwrapErr().message).toContain(
        `${join(directory, segment!)} is a FIFO (named pipe), not a regular file; reading or writing one can block forever. Fix: move it away or replace it with a regular file.`,
      );
    }
  });

  it('a torn last line (crash mid-append) loses only that line; the next append starts on a fresh line', async () => {
    const directory = join(root, 'torn');
    const store = createFileReceiptStore({ directory, clock });
    (await store.append(ran(1)))._unsafeUnwrap();
    const [segment] = readdirSync(directory);
    appendFileSync(join(directory, segment!), '{"v":1,"kind":"ran","slot":"2026-02');
    (await store.append(ran(3)))._unsafeUnwrap();
    const listed = (await store.list())._unsafeUnwrap();
    expect(listed.receipts).toEqual([ran(1), ran(3)]);
    expect(listed.warnings).toEqual([expect.stringMatching(/1 unreadable receipt line/)]);
  });

  it('stays bounded on disk: old segments are deleted whole, never rewritten', async () => {
    const directory = join(root, 'bounded');
    const store = createFileReceiptStore({ directory, clock, bounds: { maxCount: 32, maxAgeMs: 10 ** 12 } });
    for (let cycle = 1; cycle <= 400; cycle += 1) (await store.append(ran(cycle)))._unsafeUnwrap();
    // Segments of maxCount/8 lines: what the bound needs, plus the one being filled.
    expect(readdirSync(directory).length).toBeLessThanOrEqual(32 / 4 + 1);
    const listed = (await store.list())._unsafeUnwrap().receipts;
    expect(listed).toHaveLength(32);
    expect(listed.at(-1)).toEqual(ran(400));
  });
});
