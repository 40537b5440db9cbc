/**
 * Child process for the receipt crash test: appends numbered receipts with the real file store
 * until it is killed, saying `appended N` after each append returned ok (stdout is a pipe, so a
 * line the parent reads was written before the kill).
 */
import { createFileReceiptStore } from '../../src/node/index.js';

const directory = process.argv[2];
const start = Number(process.argv[3] ?? '0');
if (directory === undefined) throw new Error('usage: receipt-writer <directory> <start>');
const store = createFileReceiptStore({ directory, bounds: { maxCount: 100_000, maxAgeMs: 10 ** 13 } });
process.stdout.write('ready\n');
for (let cycle = start; ; cycle += 1) {
  const at = new Date(Date.UTC(2026, 1, 19) + cycle * 1000).toISOString();
  const appended = await store.append({ v: 1, kind: 'ran', slot: at, at, source: 'loop', cycle, status: 'ok', delivery: 'none' });
  if (appended.isErr()) {
    process.stdout.write(`error ${appended.error.message}\n`);
    process.exit(2);
  }
  process.stdout.write(`appended ${cycle}\n`);
}
