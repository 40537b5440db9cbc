/**
 * The behaviour every {@link ReceiptStore} adapter must have. `makeStore(bounds, clock)` returns a
 * fresh, empty store whose age bound is judged by `clock`.
 */
import type { Clock } from '../../ports/clock.js';
import type { ReceiptStore } from '../../ports/receipt-store.js';
import { pruneReceipts, skippedReceipt, type Receipt, type ReceiptBounds } from '../../schedule/receipts.js';

/** Makes a fresh, empty store for one test. */
export type ReceiptStoreFactory = (bounds: ReceiptBounds, clock: Clock) => ReceiptStore | Promise<ReceiptStore>;

const T0 = Date.parse('2026-02-19T10:00:00Z');
const MINUTE = 60_000;

function ran(index: number, atMs = T0 + index * MINUTE): Receipt {
  return {
    v: 1,
    kind: 'ran',
    slot: new Date(atMs).toISOString(),
    at: new Date(atMs).toISOString(),
    source: 'loop',
    cycle: index,
    status: 'ok',
    delivery: 'none',
  };
}

/** Registers the ReceiptStore contract suite under `describe(name)`. */
export async function receiptStoreContract(name: string, makeStore: ReceiptStoreFactory): Promise<void> {
  const { describe, expect, it } = await import('vitest');
  const { default: fc } = await import('fast-check');
  describe(`ReceiptStore contract: ${name}`, () => {
    const clockAt = (ms: number): Clock & { set: (ms: number) => void } => {
      let now = ms;
      return { now: () => new Date(now), set: (next) => void (now = next) };
    };

    it('a fresh store lists nothing', async () => {
      const store = await makeStore({ maxCount: 10, maxAgeMs: 60 * MINUTE }, clockAt(T0));
      expect((await store.list())._unsafeUnwrap()).toEqual({ receipts: [], warnings: [] });
    });

    it('lists what was appended, oldest first', async () => {
      const clock = clockAt(T0 + 10 * MINUTE);
      const store = await makeStore({ maxCount: 100, maxAgeMs: 60 * MINUTE }, clock);
      const receipts = [
        ran(1),
        skippedReceipt('overlapping', { slotMs: T0 + 2 * MINUTE, atMs: T0 + 2 * MINUTE, source: 'cycle', detail: 'held' }),
        ran(3),
      ];
      for (const receipt of receipts) (await store.append(receipt))._unsafeUnwrap();
      expect((await store.list())._unsafeUnwrap().receipts).toEqual(receipts);
    });

    it('keeps at most maxCount receipts, the newest', async () => {
      const clock = clockAt(T0 + 1000 * MINUTE);
      const store = await makeStore({ maxCount: 16, maxAgeMs: 10_000 * MINUTE }, clock);
      for (let index = 1; index <= 60; index += 1) (await store.append(ran(index)))._unsafeUnwrap();
      const listed = (await store.list())._unsafeUnwrap().receipts;
      expect(listed.map((r) => (r.kind === 'ran' ? r.cycle : -1))).toEqual(Array.from({ length: 16 }, (_, i) => 45 + i));
    });

    it('drops receipts older than maxAgeMs', async () => {
      const clock = clockAt(T0);
      const store = await makeStore({ maxCount: 100, maxAgeMs: 30 * MINUTE }, clock);
      for (let index = 0; index < 10; index += 1) (await store.append(ran(index, T0 + index * 10 * MINUTE)))._unsafeUnwrap();
      clock.set(T0 + 100 * MINUTE);
      const listed = (await store.list())._unsafeUnwrap().receipts;
      expect(listed.map((r) => Date.parse(r.at) - T0)).toEqual([70, 80, 90].map((m) => m * MINUTE));
    });

    it('concurrent appends are all kept', async () => {
      const store = await makeStore({ maxCount: 1000, maxAgeMs: 10_000 * MINUTE }, clockAt(T0 + 100 * MINUTE));
      const results = await Promise.all(Array.from({ length: 40 }, (_, index) => store.append(ran(index))));
      for (const result of results) expect(result.isOk()).toBe(true);
      expect((await store.list())._unsafeUnwrap().receipts).toHaveLength(40);
    });

    it('for any appends, listing equals the pure bound of everything appended', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.record({ gap: fc.integer({ min: 0, max: 20 }), skip: fc.boolean() }), { maxLength: 40 }),
          fc.integer({ min: 1, max: 12 }),
          async (steps, maxCount) => {
            const clock = clockAt(T0);
            const bounds = { maxCount, maxAgeMs: 60 * MINUTE };
            const store = await makeStore(bounds, clock);
            const all: Receipt[] = [];
            let at = T0;
            for (const [index, step] of steps.entries()) {
              at += step.gap * MINUTE;
              clock.set(at);
              const receipt = step.skip ? skippedReceipt('asleep', { slotMs: at, atMs: at, source: 'loop' }) : ran(index, at);
              all.push(receipt);
              (await store.append(receipt))._unsafeUnwrap();
            }
            expect((await store.list())._unsafeUnwrap().receipts).toEqual(pruneReceipts(all, at, bounds));
          },
        ),
        { numRuns: 25 },
      );
    });
  });
}
