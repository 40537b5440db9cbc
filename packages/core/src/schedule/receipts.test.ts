import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatReceipt,
  futureRecordedSlotMs,
  lastRecordedSlotMs,
  MAX_SOURCE_DETAIL_CHARS,
  parseReceiptLines,
  pruneReceipts,
  SKIP_REASON_NAMES,
  skippedReceipt,
  sortReceipts,
  type Receipt,
} from './receipts.js';

const T0 = Date.parse('2026-02-19T10:00:00Z');
const MIN = 60_000;
const receiptArb: fc.Arbitrary<Receipt> = fc.oneof(
  fc.tuple(fc.integer({ min: 0, max: 1000 }), fc.nat(99)).map(([m, cycle]) => {
    const at = new Date(T0 + m * MIN).toISOString();
    return {
      v: 1 as const,
      kind: 'ran' as const,
      slot: at,
      at,
      source: 'loop' as const,
      cycle,
      status: 'report' as const,
      delivery: 'delivered' as const,
    };
  }),
  fc
    .tuple(fc.integer({ min: 0, max: 1000 }), fc.constantFrom(...SKIP_REASON_NAMES))
    .map(([m, reason]) => skippedReceipt(reason, { slotMs: T0 + m * MIN, atMs: T0 + m * MIN, source: 'cycle' })),
);

describe('receipts', () => {
  it('pruning keeps the newest receipts within both bounds, in order', () => {
    fc.assert(
      fc.property(
        fc.array(receiptArb, { maxLength: 60 }),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 1200 }),
        fc.integer({ min: 0, max: 1200 }),
        (receipts, maxCount, maxAgeMin, nowMin) => {
          const nowMs = T0 + nowMin * MIN;
          const kept = pruneReceipts(receipts, nowMs, { maxCount, maxAgeMs: maxAgeMin * MIN });
          expect(kept.length).toBeLessThanOrEqual(maxCount);
          for (const r of kept) expect(nowMs - Date.parse(r.at)).toBeLessThanOrEqual(maxAgeMin * MIN);
          const eligible = sortReceipts(receipts).filter((r) => nowMs - Date.parse(r.at) <= maxAgeMin * MIN);
          expect(kept).toEqual(eligible.slice(eligible.length - kept.length));
          expect(kept.length).toBe(Math.min(maxCount, eligible.length));
        },
      ),
    );
  });

  it('a JSONL text round-trips; torn or foreign lines are counted, never fatal', () => {
    fc.assert(
      fc.property(fc.array(receiptArb, { maxLength: 20 }), fc.string(), (receipts, junk) => {
        const text = receipts.map((r) => JSON.stringify(r)).join('\n');
        expect(parseReceiptLines(text)).toEqual({ receipts, invalidLines: 0 });
        const torn = parseReceiptLines(`${text}\n${junk.replace(/\n/g, ' ')}{`);
        expect(torn.receipts).toEqual(receipts);
        expect(torn.invalidLines).toBe(1);
      }),
    );
  });

  it('formats one line per receipt', () => {
    expect(formatReceipt(skippedReceipt('overlapping', { slotMs: T0, atMs: T0, source: 'cycle' }))).toBe(
      '2026-02-19T10:00:00.000Z  cycle     skipped  overlapping: another cycle of this project was still running',
    );
  });

  it('says why a delivery was held or failed, and per route', () => {
    const at = new Date(T0).toISOString();
    const ran = { v: 1 as const, kind: 'ran' as const, slot: at, at, source: 'cycle' as const, cycle: 3, status: 'report' as const };
    const held: Receipt = { ...ran, delivery: 'held', why: 'tmux pane =agent:0.0 has typed-but-unsent input' };
    expect(parseReceiptLines(JSON.stringify(held)).receipts).toEqual([held]);
    expect(formatReceipt(held)).toBe(
      '2026-02-19T10:00:00.000Z  cycle     ran      cycle #3 report, delivery held (tmux pane =agent:0.0 has typed-but-unsent input)',
    );
    const routed: Receipt = {
      ...ran,
      delivery: 'failed',
      why: 'HTTP 503',
      routes: [
        { route: 'Immediate', sink: 'tmux', delivery: 'held', id: 'a', why: 'pane busy' },
        { route: 'default', sink: 'webhook', delivery: 'failed', id: 'b', why: 'HTTP 503' },
      ],
    };
    expect(formatReceipt(routed)).toBe(
      '2026-02-19T10:00:00.000Z  cycle     ran      cycle #3 report, delivery failed (Immediate → tmux held: pane busy, default → webhook failed: HTTP 503)',
    );
  });

  it('keeps a failed ping on the receipt and says it at the end of the line (issue 30)', () => {
    const receipt = {
      ...skippedReceipt('overlapping', { slotMs: T0, atMs: T0, source: 'cycle' }),
      ping: { start: 'ECONNREFUSED', end: 'HTTP 500' },
    };
    expect(parseReceiptLines(JSON.stringify(receipt)).receipts).toEqual([receipt]);
    expect(formatReceipt(receipt)).toMatch(/still running \(ping failed: start: ECONNREFUSED; end: HTTP 500\)$/);
  });
});

describe('lastRecordedSlotMs at the current clock (issue 26)', () => {
  it('leaves out slots later than now; futureRecordedSlotMs names them', () => {
    const past = skippedReceipt('down', { slotMs: T0, atMs: T0, source: 'cycle' });
    const ahead = skippedReceipt('dry-run', { slotMs: T0 + 180 * MIN, atMs: T0 + 180 * MIN, source: 'cycle' });
    expect(lastRecordedSlotMs([past, ahead])).toBe(T0 + 180 * MIN);
    expect(lastRecordedSlotMs([past, ahead], T0 + MIN)).toBe(T0);
    expect(lastRecordedSlotMs([ahead], T0 + MIN)).toBeUndefined();
    expect(futureRecordedSlotMs([past, ahead], T0 + MIN)).toBe(T0 + 180 * MIN);
    expect(futureRecordedSlotMs([past], T0 + MIN)).toBeUndefined();
  });
});

describe('a receipt carries its source and the detail its source validates (issue 32)', () => {
  it('any source name reads; the detail is kept whole and never read by core', () => {
    const receipt = {
      ...skippedReceipt('overlapping', { slotMs: T0, atMs: T0, source: 'runbook' }),
      sourceDetail: { step: 3, nested: { ok: true } },
    };
    expect(parseReceiptLines(JSON.stringify(receipt))).toEqual({ receipts: [receipt], invalidLines: 0 });
    expect(formatReceipt(receipt)).toMatch(/^2026-02-19T10:00:00.000Z {2}runbook {3}skipped {2}overlapping: /);
  });

  it("a line in today's format, the detail under `beat`, still reads: the detail moves to sourceDetail", () => {
    const line =
      '{"v":1,"slot":"2026-07-22T10:00:00.000Z","at":"2026-07-22T10:01:00.000Z","source":"woterclip","kind":"ran","cycle":1,"status":"report","delivery":"delivered","beat":{"n":1,"end":"complete","worked":[{"issue":12,"status":"completed"}]}}';
    const { receipts, invalidLines } = parseReceiptLines(line);
    expect(invalidLines).toBe(0);
    expect(receipts).toEqual([
      {
        v: 1,
        slot: '2026-07-22T10:00:00.000Z',
        at: '2026-07-22T10:01:00.000Z',
        source: 'woterclip',
        kind: 'ran',
        cycle: 1,
        status: 'report',
        delivery: 'delivered',
        sourceDetail: { n: 1, end: 'complete', worked: [{ issue: 12, status: 'completed' }] },
      },
    ]);
  });

  it('an empty source, or a detail that is not an object or is too long, is an invalid line', () => {
    const base = skippedReceipt('down', { slotMs: T0, atMs: T0, source: 'cycle' });
    const lines = [
      { ...base, source: '' },
      { ...base, sourceDetail: [1, 2] },
      { ...base, sourceDetail: { text: 'x'.repeat(MAX_SOURCE_DETAIL_CHARS) } },
    ].map((r) => JSON.stringify(r));
    expect(parseReceiptLines(lines.join('\n'))).toEqual({ receipts: [], invalidLines: 3 });
  });

  it('a source words its own ran receipts; without words, the cycle line', () => {
    const ran: Receipt = {
      v: 1,
      slot: '2026-02-19T10:00:00.000Z',
      at: '2026-02-19T10:00:00.000Z',
      source: 'runbook',
      kind: 'ran',
      cycle: 2,
      status: 'ok',
      delivery: 'none',
      sourceDetail: { step: 3 },
    };
    const describe = (r: Extract<Receipt, { kind: 'ran' }>) =>
      r.sourceDetail === undefined ? undefined : `step ${String(r.sourceDetail['step'])} done`;
    expect(formatReceipt(ran, describe)).toBe('2026-02-19T10:00:00.000Z  runbook   ran      step 3 done');
    expect(formatReceipt({ ...ran, sourceDetail: undefined }, describe)).toBe(
      '2026-02-19T10:00:00.000Z  runbook   ran      cycle #2 HEARTBEAT_OK, delivery none',
    );
  });
});
