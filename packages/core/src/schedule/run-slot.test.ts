import fc from 'fast-check';
import { errAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { DEFAULT_HEARTBEAT_CONFIG } from '../config/heartbeat-config-schema.js';
import { runCycle, type CycleOutcome } from '../cycle/run-cycle.js';
import type { PauseDecision } from '../operator/pause-decision.js';
import type { Pause } from '../operator/pause-model.js';
import type { LockStore } from '../ports/lock-store.js';
import type { ReceiptStore } from '../ports/receipt-store.js';
import {
  createFakeClock,
  createMemoryLockStore,
  createMemoryReceiptStore,
  createMemoryStateStore,
  createRecordingSink,
} from '../testing/index.js';
import { runSlot, slotReceipt, type SlotEnd, type SlotPlan } from './run-slot.js';
import { receiptSchema } from './receipts.js';

const T0 = Date.parse('2026-02-19T10:00:00Z');
const HOUR = 3_600_000;
const PAUSE: Pause = { v: 1, note: 'deploy', since: '2026-02-19T09:00:00.000Z' };

/** A real cycle with no scanners (quiet), at the clock's instant; `dryRun` rehearses it. */
async function quietCycle(nowMs: number, dryRun = false): Promise<CycleOutcome> {
  const clock = createFakeClock(nowMs);
  return runCycle(
    { clock, sleep: clock, stateStore: createMemoryStateStore(), sink: createRecordingSink(), scanners: [] },
    { config: DEFAULT_HEARTBEAT_CONFIG, timeZone: 'UTC', now: new Date(nowMs), ...(dryRun ? { dryRun } : {}) },
  );
}

/** A cycle that refused its stored state. */
async function refusedCycle(nowMs: number): Promise<CycleOutcome> {
  const outcome = await quietCycle(nowMs);
  return { ...outcome, refused: { reason: 'newer-version', message: 'written by heartbeat-kit 9; fix: upgrade', version: 9 } };
}

function request(owner: string, nowMs: number) {
  return { owner, nowMs, staleAfterMs: 15 * 60_000 };
}

const failingReceipts = (): ReceiptStore => ({
  append: () => errAsync({ kind: 'io', message: 'disk full' }),
  list: () => errAsync({ kind: 'io', message: 'unreadable' }),
});

describe('slotReceipt: each ending is exactly one receipt of its kind', () => {
  const stamp = { slotMs: T0, atMs: T0 + 1000, source: 'cycle' as const };
  it('maps every skip ending to its reason, the pause to paused, a run to ran', async () => {
    const outcome = await quietCycle(T0);
    const ends: [SlotEnd, string][] = [
      [{ kind: 'ran', outcome }, 'ran'],
      [{ kind: 'ran-step', step: { ...outcome, delivery: 'queued' } }, 'ran'],
      [{ kind: 'paused', pause: PAUSE }, 'paused'],
      [{ kind: 'overlapping', detail: '/x/cycle.lock' }, 'skipped:overlapping'],
      [{ kind: 'lock-unavailable', detail: '/x/cycle.lock' }, 'skipped:lock-unavailable'],
      [{ kind: 'state-refused', detail: 'newer' }, 'skipped:state-refused'],
      [{ kind: 'config-error', detail: 'bad yaml' }, 'skipped:config-error'],
      [{ kind: 'quiet-hours', detail: 'quiet' }, 'skipped:quiet-hours'],
      [{ kind: 'breaker-open', detail: 'held back' }, 'skipped:breaker-open'],
      [{ kind: 'dry-run', detail: 'would have ended' }, 'skipped:dry-run'],
    ];
    for (const [end, kind] of ends) {
      const receipt = receiptSchema.parse(slotReceipt(end, stamp));
      expect(receipt.kind === 'skipped' ? `skipped:${receipt.reason}` : receipt.kind).toBe(kind);
      expect(receipt.slot).toBe(new Date(T0).toISOString());
      expect(receipt.at).toBe(new Date(T0 + 1000).toISOString());
      expect(receipt.source).toBe('cycle');
    }
  });
  it('a dry run outcome is a dry-run skip, never ran', async () => {
    const receipt = slotReceipt({ kind: 'ran', outcome: await quietCycle(T0, true) }, stamp);
    expect(receipt.kind === 'skipped' && receipt.reason).toBe('dry-run');
  });
});

describe('runSlot', () => {
  const plan = (over: Partial<SlotPlan> = {}): SlotPlan => ({ source: 'cycle', run: () => quietCycle(T0), ...over });

  it('ran: takes and releases the lock, writes one ran receipt at the decision instant', async () => {
    const clock = createFakeClock(T0);
    const receipts = createMemoryReceiptStore({ clock });
    const store = createMemoryLockStore();
    let heldDuringRun = false;
    const run = await runSlot(
      { clock, receipts, lock: { store, request: request('me', T0), detail: 'cycle.lock' } },
      plan({ run: () => ((heldDuringRun = store.current()?.owner === 'me'), quietCycle(T0)) }),
    );
    expect(heldDuringRun).toBe(true);
    expect(store.current()).toBeUndefined();
    expect(run.end.kind).toBe('ran');
    expect(run.written).toBe(true);
    expect(receipts.appended()).toEqual([run.receipt]);
    expect(run.receipt).toMatchObject({ kind: 'ran', slot: new Date(T0).toISOString() });
  });

  it('overlapping: a live holder means the cycle does not run; one skipped receipt names the lock', async () => {
    const clock = createFakeClock(T0);
    const receipts = createMemoryReceiptStore({ clock });
    const store = createMemoryLockStore({ initial: { owner: 'other', acquiredAtMs: T0 - 1000 } });
    let ran = false;
    const run = await runSlot(
      { clock, receipts, lock: { store, request: request('me', T0), detail: '/s/cycle.lock' } },
      plan({ run: () => ((ran = true), quietCycle(T0)) }),
    );
    expect(ran).toBe(false);
    expect(run.end).toMatchObject({ kind: 'overlapping', holder: { owner: 'other' } });
    expect(receipts.appended()).toEqual([expect.objectContaining({ kind: 'skipped', reason: 'overlapping', detail: '/s/cycle.lock' })]);
    expect(store.current()?.owner).toBe('other');
  });

  it('lock-unavailable: a lock that cannot be taken is one skipped receipt with the error kept', async () => {
    const clock = createFakeClock(T0);
    const receipts = createMemoryReceiptStore({ clock });
    const store: LockStore = { ...createMemoryLockStore(), acquire: () => errAsync({ kind: 'io', message: 'EACCES' }) };
    const run = await runSlot({ clock, receipts, lock: { store, request: request('me', T0), detail: 'l' } }, plan());
    expect(run.end).toMatchObject({ kind: 'lock-unavailable', error: { kind: 'io', message: 'EACCES' } });
    expect(receipts.appended().map((r) => r.kind === 'skipped' && r.reason)).toEqual(['lock-unavailable']);
  });

  it('paused: the pause is read under the lock, nothing runs, one paused receipt', async () => {
    const clock = createFakeClock(T0);
    const receipts = createMemoryReceiptStore({ clock });
    const store = createMemoryLockStore();
    let lockedWhileReading = false;
    const run = await runSlot(
      { clock, receipts, lock: { store, request: request('me', T0), detail: 'l' } },
      plan({
        slotMs: T0 - 5000,
        pause: () => (
          (lockedWhileReading = store.current() !== undefined),
          Promise.resolve({ kind: 'skip', pause: PAUSE, line: 'paused' })
        ),
        run: () => Promise.reject(new Error('must not run')),
      }),
    );
    expect(lockedWhileReading).toBe(true);
    expect(run.end).toMatchObject({ kind: 'paused', line: 'paused' });
    expect(receipts.appended()).toEqual([
      expect.objectContaining({ kind: 'paused', note: 'deploy', slot: new Date(T0 - 5000).toISOString() }),
    ]);
  });

  it('a partial pause runs the cycle with it and the ran receipt records it', async () => {
    const clock = createFakeClock(T0);
    const receipts = createMemoryReceiptStore({ clock });
    const partial: PauseDecision = {
      kind: 'partial',
      pause: { ...PAUSE, scanners: ['git'] },
      line: 'l',
      scanners: ['git'],
      criticalOnly: false,
    };
    let given: PauseDecision | undefined;
    const run = await runSlot(
      { clock, receipts },
      plan({ pause: () => Promise.resolve(partial), run: (p) => ((given = p), quietCycle(T0)) }),
    );
    expect(given).toBe(partial);
    expect(run.receipt).toMatchObject({ kind: 'ran', pause: { note: 'deploy', scanners: ['git'] } });
  });

  it('state-refused: a cycle that refused its state is one skipped receipt, not ran', async () => {
    const clock = createFakeClock(T0);
    const receipts = createMemoryReceiptStore({ clock });
    const run = await runSlot({ clock, receipts }, plan({ run: () => refusedCycle(T0) }));
    expect(run.end.kind).toBe('state-refused');
    expect(receipts.appended()).toHaveLength(1);
    expect(receipts.appended()[0]).toMatchObject({ reason: 'state-refused', detail: 'written by heartbeat-kit 9; fix: upgrade' });
  });

  it('a grid closes the missed slots under the lock first, then the run closes its own slot', async () => {
    const clock = createFakeClock(T0 + 3 * HOUR + 60_000);
    const receipts = createMemoryReceiptStore({ clock });
    await receipts.append(slotReceipt({ kind: 'config-error', detail: 'x' }, { slotMs: T0, atMs: T0, source: 'cycle' }));
    const grid = {
      nextAfter: (ms: number) => Math.floor(ms / HOUR) * HOUR + HOUR,
      atOrBefore: (ms: number) => Math.floor(ms / HOUR) * HOUR,
    };
    let slotSeen: number | undefined;
    const run = await runSlot(
      { clock, receipts, lock: { store: createMemoryLockStore(), request: request('me', T0), detail: 'l' } },
      plan({ grid, run: (_p, slotMs) => ((slotSeen = slotMs), quietCycle(T0 + 3 * HOUR + 60_000)) }),
    );
    expect(slotSeen).toBe(T0 + 3 * HOUR);
    expect(run.slotMs).toBe(T0 + 3 * HOUR);
    const kinds = receipts.appended().slice(1);
    expect(kinds).toEqual([
      expect.objectContaining({ kind: 'skipped', reason: 'down', slot: new Date(T0 + HOUR).toISOString(), count: 2 }),
      expect.objectContaining({ kind: 'ran', slot: new Date(T0 + 3 * HOUR).toISOString() }),
    ]);
  });

  it('without a store (a dry run) nothing is written, the receipt is still planned; without a lock none is taken', async () => {
    const clock = createFakeClock(T0);
    const run = await runSlot({ clock }, plan({ run: () => quietCycle(T0, true) }));
    expect(run.written).toBe(true);
    expect(run.receipt).toMatchObject({ kind: 'skipped', reason: 'dry-run' });
  });

  it('a store that refuses: the receipt is reported unwritten, missed slots unrecorded with the list error', async () => {
    const clock = createFakeClock(T0);
    const grid = { nextAfter: (ms: number) => ms + HOUR, atOrBefore: (ms: number) => ms };
    const run = await runSlot({ clock, receipts: failingReceipts() }, plan({ grid }));
    expect(run.written).toBe(false);
    expect(run.listError?.message).toBe('unreadable');
    expect(run.unwritten.map((u) => u.error.message)).toEqual(['disk full']);
  });

  it('beforeReceipt sees the ending and what it returns is written', async () => {
    const clock = createFakeClock(T0);
    const receipts = createMemoryReceiptStore({ clock });
    const seen: string[] = [];
    await runSlot(
      { clock, receipts },
      plan({ beforeReceipt: (end, receipt) => (seen.push(end.kind), Promise.resolve({ ...receipt, ping: { end: 'timeout' } })) }),
    );
    expect(seen).toEqual(['ran']);
    expect(receipts.appended()[0]?.ping).toEqual({ end: 'timeout' });
  });
});

type Step = 'free' | 'held-live' | 'io-error' | 'paused' | 'partial' | 'refused' | 'ran';

describe('runSlot over random sequences of lock and state outcomes (property)', () => {
  it('every slot writes exactly one receipt, of the kind its outcome says, and never leaves the lock held', async () => {
    const stepArb = fc.constantFrom<Step>('free', 'held-live', 'io-error', 'paused', 'partial', 'refused', 'ran');
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 12 }), fc.boolean(), async (steps, withGrid) => {
        const clock = createFakeClock(T0);
        const receipts = createMemoryReceiptStore({ clock });
        const memory = createMemoryLockStore();
        const grid = {
          nextAfter: (ms: number) => Math.floor(ms / HOUR) * HOUR + HOUR,
          atOrBefore: (ms: number) => Math.floor(ms / HOUR) * HOUR,
        };
        for (const [i, step] of steps.entries()) {
          clock.advance(HOUR);
          const nowMs = clock.now().getTime();
          if (step === 'held-live') memory.plant({ owner: 'other', acquiredAtMs: nowMs - 1000 });
          const store: LockStore = step === 'io-error' ? { ...memory, acquire: () => errAsync({ kind: 'io', message: 'EIO' }) } : memory;
          const before = receipts.appended().length;
          const pause: PauseDecision =
            step === 'paused'
              ? { kind: 'skip', pause: PAUSE, line: 'p' }
              : step === 'partial'
                ? { kind: 'partial', pause: PAUSE, line: 'p', scanners: [], criticalOnly: true }
                : { kind: 'run' };
          const run = await runSlot(
            { clock, receipts, lock: { store, request: request(`r${i}`, nowMs), detail: 'l' } },
            {
              source: 'loop',
              ...(withGrid ? { grid } : { slotMs: nowMs }),
              pause: () => Promise.resolve(pause),
              run: () => (step === 'refused' ? refusedCycle(nowMs) : quietCycle(nowMs)),
            },
          );
          const written = receipts.appended().slice(before);
          // Only a grid's missed slots add records, and only before the slot's own; here no slot is missed.
          expect(written).toHaveLength(1);
          expect(written[0]).toEqual(run.receipt);
          const own = written[0];
          const kind = own?.kind === 'skipped' ? own.reason : own?.kind;
          const expected = {
            free: 'ran',
            ran: 'ran',
            partial: 'ran',
            'held-live': 'overlapping',
            'io-error': 'lock-unavailable',
            paused: 'paused',
            refused: 'state-refused',
          }[step];
          expect(kind).toBe(expected);
          expect(run.end.kind).toBe(expected);
          if (step === 'held-live') memory.plant(undefined);
          expect(memory.current()).toBeUndefined();
        }
        // One record per slot: no two receipts close the same slot.
        const slots = receipts.appended().map((r) => r.slot);
        expect(new Set(slots).size).toBe(slots.length);
      }),
      { numRuns: 60 },
    );
  });
});
