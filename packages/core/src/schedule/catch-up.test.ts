import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_HEARTBEAT_CONFIG } from '../config/heartbeat-config-schema.js';
import { runLoop } from '../loop/run-loop.js';
import { createMemoryStateStore, createRecordingSink } from '../testing/index.js';
import {
  CATCH_UP_POLICIES,
  classifyGap,
  decideCronSlot,
  decideSlots,
  gridSlotAtOrBefore,
  type CatchUpSettings,
  type GapCause,
} from './catch-up.js';
import { lastRecordedSlotMs, receiptForOutcome, receiptForSkippedSlots, type Receipt } from './receipts.js';

const T0 = Date.parse('2026-02-19T10:00:00Z');
const MIN = 60_000;

const catchUpArb = fc.record({ policy: fc.constantFrom(...CATCH_UP_POLICIES), cap: fc.integer({ min: 0, max: 5 }) });

/** Every grid slot a receipt closes (a range closes each slot from `slot` to `through`). */
function slotsOf(receipt: Receipt, intervalMs: number): number[] {
  const from = Date.parse(receipt.slot);
  if (receipt.kind !== 'skipped' || receipt.through === undefined) return [from];
  const out: number[] = [];
  for (let ms = from; ms <= Date.parse(receipt.through); ms += intervalMs) out.push(ms);
  expect(out).toHaveLength(receipt.count ?? 0);
  return out;
}

describe('decideSlots', () => {
  it('every due slot is either run or skipped, exactly once; catch-up runs at most the cap', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3e12 }),
        fc.option(fc.integer({ min: -50 * 600, max: 50 * 600 }), { nil: undefined }),
        fc.integer({ min: 1, max: 120 }),
        fc.nat(),
        catchUpArb,
        fc.constantFrom<GapCause>('asleep', 'down', 'overlapping'),
        (nowMs, lastDeltaS, intervalMin, offsetSeed, catchUp, cause) => {
          const intervalMs = intervalMin * MIN;
          const offsetMs = offsetSeed % intervalMs;
          const recorded = lastDeltaS === undefined ? undefined : gridSlotAtOrBefore(nowMs + lastDeltaS * 1000, intervalMs, offsetMs);
          // A recorded slot later than now closes nothing: the current clock is the authority (issue 26).
          const lastSlotMs = recorded !== undefined && recorded <= nowMs ? recorded : undefined;
          const d = decideSlots({ nowMs, lastSlotMs: recorded, intervalMs, offsetMs, catchUp, cause });
          const newest = gridSlotAtOrBefore(nowMs, intervalMs, offsetMs);
          const due: number[] = [];
          for (let s = lastSlotMs === undefined ? newest : lastSlotMs + intervalMs; s <= newest; s += intervalMs) due.push(s);
          const closed = [...d.run, ...d.skipped.flatMap((r) => Array.from({ length: r.count }, (_, i) => r.fromMs + i * intervalMs))].sort(
            (a, b) => a - b,
          );
          expect(closed).toEqual(due);
          const onTime = lastSlotMs === undefined || nowMs - newest <= Math.min(intervalMs / 2, 300_000);
          const allowed = catchUp.policy === 'skip' ? 0 : catchUp.policy === 'latest-once' ? Math.min(1, catchUp.cap) : catchUp.cap;
          expect(d.run.length).toBeLessThanOrEqual(Math.max(onTime ? 1 : 0, allowed));
          if (onTime && due.length > 0) expect(d.run.at(-1)).toBe(newest);
          expect(d.nextSlotMs).toBeGreaterThan(nowMs);
          if (lastSlotMs !== undefined) expect(d.nextSlotMs).toBeGreaterThan(lastSlotMs);
          expect((d.nextSlotMs - offsetMs) % intervalMs).toBe(0);
        },
      ),
    );
  });

  it('latest-once: a two-hour sleep is one cycle now and one skipped record for the rest', () => {
    const d = decideSlots({
      nowMs: T0 + 120 * MIN + 2_000,
      lastSlotMs: T0,
      intervalMs: 10 * MIN,
      offsetMs: 0,
      catchUp: { policy: 'latest-once', cap: 1 },
      cause: 'asleep',
    });
    expect(d.run).toEqual([T0 + 120 * MIN]);
    expect(d.skipped).toEqual([
      {
        fromMs: T0 + 10 * MIN,
        throughMs: T0 + 110 * MIN,
        count: 11,
        reason: 'asleep',
        detail: 'the machine slept or the clock jumped; catch-up latest-once ran the newest slot',
      },
    ]);
  });

  it('a restart mid-interval after a recorded slot runs nothing until the next slot', () => {
    const d = decideSlots({
      nowMs: T0 + 4 * MIN,
      lastSlotMs: T0,
      intervalMs: 10 * MIN,
      offsetMs: 0,
      catchUp: { policy: 'latest-once', cap: 1 },
      cause: 'down',
    });
    expect(d).toEqual({ run: [], skipped: [], lastSlotMs: T0, nextSlotMs: T0 + 10 * MIN });
  });

  it('a late newest slot is caught up by policy: skip runs none, all runs the newest cap', () => {
    const base = { nowMs: T0 + 47 * MIN, lastSlotMs: T0, intervalMs: 10 * MIN, offsetMs: 0, cause: 'down' as const };
    expect(decideSlots({ ...base, catchUp: { policy: 'skip', cap: 3 } })).toMatchObject({
      run: [],
      skipped: [{ fromMs: T0 + 10 * MIN, count: 4, reason: 'down' }],
    });
    expect(decideSlots({ ...base, catchUp: { policy: 'latest-once', cap: 3 } })).toMatchObject({
      run: [T0 + 40 * MIN],
      skipped: [{ fromMs: T0 + 10 * MIN, count: 3, reason: 'down' }],
    });
    expect(decideSlots({ ...base, catchUp: { policy: 'all', cap: 3 } })).toMatchObject({
      run: [T0 + 20 * MIN, T0 + 30 * MIN, T0 + 40 * MIN],
      skipped: [{ fromMs: T0 + 10 * MIN, count: 1, reason: 'catch-up-cap' }],
    });
  });

  it('a clock that went backwards runs the slot of the current grid: a recorded slot later than now is ignored (issue 26)', () => {
    const d = decideSlots({
      nowMs: T0 - 60 * MIN,
      lastSlotMs: T0,
      intervalMs: 10 * MIN,
      offsetMs: 0,
      catchUp: { policy: 'all', cap: 5 },
      cause: 'asleep',
    });
    expect(d).toEqual({ run: [T0 - 60 * MIN], skipped: [], lastSlotMs: T0 - 60 * MIN, nextSlotMs: T0 - 50 * MIN });
  });

  it('property: with any receipts, future-dated ones included, the slot of now’s grid is closed now unless a receipt at or before now closed it; never a wait past the next slot', () => {
    const intervalMs = 10 * MIN;
    const receiptArb = fc.record({
      slotOffsetMin: fc.integer({ min: -600, max: 600 }),
      ran: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(receiptArb, { maxLength: 8 }),
        fc.integer({ min: 0, max: 4 * 60 }),
        fc.integer({ min: 0, max: intervalMs / 2 }),
        catchUpArb,
        (specs, baseMin, withinGraceMs, catchUp) => {
          const nowMs = gridSlotAtOrBefore(T0 + baseMin * MIN, intervalMs, 0) + withinGraceMs - (withinGraceMs % 1000);
          const receipts: Receipt[] = specs.map(({ slotOffsetMin, ran }) => {
            const slotMs = nowMs + slotOffsetMin * MIN;
            const at = new Date(slotMs).toISOString();
            return ran
              ? { v: 1, slot: at, at, source: 'cycle', kind: 'ran', cycle: 1, status: 'ok', delivery: 'none' }
              : receiptForSkippedSlots({ fromMs: slotMs, throughMs: slotMs, count: 1, reason: 'down', detail: 'x' }, slotMs, 'loop');
          });
          const newest = gridSlotAtOrBefore(nowMs, intervalMs, 0);
          const d = decideSlots({
            nowMs,
            lastSlotMs: lastRecordedSlotMs(receipts, nowMs),
            intervalMs,
            offsetMs: 0,
            catchUp,
            cause: 'down',
          });
          const closedBefore = receipts.some((r) => Date.parse(r.slot) >= newest && Date.parse(r.slot) <= nowMs);
          // On time (within the grace): the current slot runs unless it was already closed at or before now.
          expect(d.run.includes(newest)).toBe(!closedBefore);
          expect(d.nextSlotMs).toBe(newest + intervalMs);
        },
      ),
    );
  });
});

describe('classifyGap', () => {
  it('a wall clock that ran ahead of the monotonic clock is a sleep or a jump; otherwise the process was busy', () => {
    expect(classifyGap(2 * 3_600_000, 600_000)).toBe('asleep');
    expect(classifyGap(1_500_000, 1_500_000)).toBe('overlapping');
    expect(classifyGap(600_300, 600_000)).toBe('overlapping');
  });
});

type Step =
  | { readonly kind: 'tick' }
  | { readonly kind: 'overrun'; readonly ms: number }
  | { readonly kind: 'sleep'; readonly ms: number }
  | { readonly kind: 'jump'; readonly ms: number }
  | { readonly kind: 'restart'; readonly downMs: number; readonly atMs: number };

/** Script steps; `minJumpMs` below 0 lets the clock jump back too. */
const stepsArb = (minJumpMs: number): fc.Arbitrary<Step> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant<Step>({ kind: 'tick' }) },
    fc.integer({ min: 1, max: 90 * MIN }).map((ms): Step => ({ kind: 'overrun', ms })),
    fc.integer({ min: 1, max: 6 * 60 * MIN }).map((ms): Step => ({ kind: 'sleep', ms })),
    fc.integer({ min: minJumpMs, max: 3 * 60 * MIN }).map((ms): Step => ({ kind: 'jump', ms })),
    fc
      .tuple(fc.integer({ min: 0, max: 5 * 60 * MIN }), fc.integer({ min: 0, max: 30 * MIN }))
      .map(([downMs, atMs]): Step => ({ kind: 'restart', downMs, atMs })),
  );
const stepArb = stepsArb(0);
const stepBackArb = stepsArb(-3 * 60 * MIN);

/**
 * Drives the real loop through a script of ticks, overrunning cycles, sleeps (the wall clock runs
 * ahead of the monotonic one), clock jumps both ways and restarts (the loop stops, time passes,
 * a new loop starts from the receipts), and returns what it recorded.
 */
async function simulate(steps: readonly Step[], intervalMs: number, offsetMs: number, catchUp: CatchUpSettings) {
  let wall = T0 + 7 * MIN;
  let mono = 0;
  const receipts: Receipt[] = [];
  let running = 0;
  let overlaps = 0;
  let runsSinceWake = 0;
  let maxRunsPerWake = 0;
  let index = 0;
  const clock = { now: () => new Date(wall) };
  const settings = () => ({ config: { ...DEFAULT_HEARTBEAT_CONFIG, intervalMs }, timeZone: 'UTC' });
  while (index <= steps.length) {
    const controller = new AbortController();
    let restartDown = 0;
    const sleep = {
      sleep: (ms: number) => {
        maxRunsPerWake = Math.max(maxRunsPerWake, runsSinceWake);
        runsSinceWake = 0;
        const step = steps[index++];
        if (step === undefined || step.kind === 'restart') {
          // The process stops here (mid-interval when `atMs` is short of the slot).
          wall += Math.min(ms, step?.atMs ?? 0);
          mono += Math.min(ms, step?.atMs ?? 0);
          restartDown = step?.downMs ?? 0;
          controller.abort();
          return Promise.resolve();
        }
        wall += ms;
        mono += ms;
        if (step.kind === 'sleep') wall += step.ms;
        if (step.kind === 'jump') wall += step.ms;
        if (step.kind === 'overrun') pendingOverrun = step.ms;
        return Promise.resolve();
      },
    };
    let pendingOverrun = 0;
    const lastSlotMs = lastRecordedSlotMs(receipts);
    await runLoop(
      { clock, sleep, stateStore: createMemoryStateStore(), sink: createRecordingSink(), scanners: [] },
      {
        settings,
        configFound: true,
        signal: controller.signal,
        jitterMs: offsetMs,
        catchUp,
        monotonicMs: () => mono,
        ...(lastSlotMs === undefined ? {} : { lastSlotMs }),
        guard: async (cycle) => {
          running++;
          if (running > 1) overlaps++;
          runsSinceWake++;
          wall += pendingOverrun;
          mono += pendingOverrun;
          pendingOverrun = 0;
          const outcome = await cycle();
          running--;
          return outcome;
        },
        onCycle: (outcome, slotMs) => void receipts.push(receiptForOutcome(outcome, { slotMs, atMs: wall, source: 'loop' })),
        onSkipped: (slots) => void receipts.push(receiptForSkippedSlots(slots, wall, 'loop')),
      },
    );
    wall += restartDown;
    mono += restartDown;
    if (index > steps.length) break;
  }
  return { receipts, overlaps, maxRunsPerWake };
}

describe('the loop under gaps, restarts and clock jumps (property)', () => {
  it('a clock jumping both ways: no overlap, at most the cap per wake, every record on the grid and never for a slot later than the clock that wrote it (issue 26)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(stepBackArb, { maxLength: 25 }),
        fc.integer({ min: 1, max: 60 }),
        fc.nat(),
        catchUpArb,
        async (steps, intervalMin, offsetSeed, catchUp) => {
          const intervalMs = intervalMin * MIN;
          const offsetMs = offsetSeed % intervalMs;
          const { receipts, overlaps, maxRunsPerWake } = await simulate(steps, intervalMs, offsetMs, catchUp);
          expect(overlaps).toBe(0);
          const allowed = catchUp.policy === 'skip' ? 0 : catchUp.policy === 'latest-once' ? Math.min(1, catchUp.cap) : catchUp.cap;
          expect(maxRunsPerWake).toBeLessThanOrEqual(Math.max(1, allowed));
          for (const r of receipts) {
            expect(Date.parse(r.slot)).toBeLessThanOrEqual(Date.parse(r.at));
            expect((((Date.parse(r.slot) - offsetMs) % intervalMs) + intervalMs) % intervalMs).toBe(0);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  // The clock runs forward here (jumps ahead, sleeps, restarts): a clock going back re-opens the slots of the current grid by design.
  it('every slot gets exactly one record, no two cycles overlap, catch-up never runs more than its cap', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(stepArb, { maxLength: 25 }),
        fc.integer({ min: 1, max: 60 }),
        fc.nat(),
        catchUpArb,
        async (steps, intervalMin, offsetSeed, catchUp) => {
          const intervalMs = intervalMin * MIN;
          const offsetMs = offsetSeed % intervalMs;
          const { receipts, overlaps, maxRunsPerWake } = await simulate(steps, intervalMs, offsetMs, catchUp);
          expect(overlaps).toBe(0);
          const allowed = catchUp.policy === 'skip' ? 0 : catchUp.policy === 'latest-once' ? Math.min(1, catchUp.cap) : catchUp.cap;
          // At most `cap` cycles per wake (one when the only due slot is on time).
          expect(maxRunsPerWake).toBeLessThanOrEqual(Math.max(1, allowed));
          const slots = receipts.flatMap((r) => slotsOf(r, intervalMs)).sort((a, b) => a - b);
          expect(new Set(slots).size).toBe(slots.length);
          // No hole: from the first recorded slot to the last, every grid slot has its record.
          for (let i = 1; i < slots.length; i++) expect(slots[i]! - slots[i - 1]!).toBe(intervalMs);
          for (const s of slots) expect((((s - offsetMs) % intervalMs) + intervalMs) % intervalMs).toBe(0);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('decideCronSlot', () => {
  const every10 = {
    nextAfter: (ms: number) => Math.floor(ms / (10 * MIN)) * 10 * MIN + 10 * MIN,
    atOrBefore: (ms: number) => Math.floor(ms / (10 * MIN)) * 10 * MIN,
  };
  it('closes its own slot and records the fire times no cycle closed as one run', () => {
    expect(decideCronSlot({ ...every10, nowMs: T0 + 2_000, lastSlotMs: undefined })).toEqual({ slotMs: T0 });
    expect(decideCronSlot({ ...every10, nowMs: T0 + 2_000, lastSlotMs: T0 - 10 * MIN })).toEqual({ slotMs: T0 });
    expect(decideCronSlot({ ...every10, nowMs: T0 + 40 * MIN + 2_000, lastSlotMs: T0 })).toMatchObject({
      slotMs: T0 + 40 * MIN,
      missed: { fromMs: T0 + 10 * MIN, throughMs: T0 + 30 * MIN, count: 3, reason: 'down' },
    });
    // A second invocation for a recorded slot (or one by hand) closes its own instant.
    expect(decideCronSlot({ ...every10, nowMs: T0 + 2_000, lastSlotMs: T0 })).toEqual({ slotMs: T0 + 2_000 });
  });

  it('property: own slot plus missed fire times cover every fire time after the last recorded slot, once', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e6 }), fc.integer({ min: 0, max: 500 }), (lastMin, deltaMin) => {
        const lastSlotMs = T0 + lastMin * 10 * MIN;
        const nowMs = lastSlotMs + deltaMin * MIN + 1;
        const d = decideCronSlot({ ...every10, nowMs, lastSlotMs });
        const fires = Math.floor((nowMs - lastSlotMs) / (10 * MIN));
        if (fires === 0) expect(d).toEqual({ slotMs: nowMs });
        else expect(1 + (d.missed?.count ?? 0)).toBe(fires);
      }),
    );
  });
});
