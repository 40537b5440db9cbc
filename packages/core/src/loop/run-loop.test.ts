import { describe, expect, it } from 'vitest';
import { DEFAULT_HEARTBEAT_CONFIG } from '../config/heartbeat-config-schema.js';
import { scanOk } from '../domain/scan-result.js';
import type { Scanner } from '../ports/scanner.js';
import { createFakeClock, createMemoryStateStore, createRecordingSink } from '../testing/index.js';
import { deterministicJitter, runLoop } from './run-loop.js';
import fc from 'fast-check';
import { createFinding } from '../../test/support/cobuilder-categories.js';

const crash = createFinding({
  category: 'ORCH_FAILURE',
  subject: 'orch-a',
  line: 'CRASHED: orch-a',
  action: 'Re-launch orch-a',
  short: 'orch-a crashed',
});

/** Lets pending promise callbacks run (the loop awaits between steps). */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
  await new Promise((r) => setImmediate(r));
}

describe('deterministicJitter', () => {
  it('jitter is stable per id and inside its range', () => {
    expect(deterministicJitter('hb-1', 1000)).toBe(deterministicJitter('hb-1', 1000));
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 1, max: 1e6 }), (id, max) => {
        const j = deterministicJitter(id, max);
        return j >= 0 && j < max;
      }),
    );
  });
});

describe('runLoop', () => {
  it('sends ONLINE, cycles at once and on the wall-clock grid, then SHUTDOWN on abort', async () => {
    const clock = createFakeClock(new Date('2026-02-19T10:00:00Z'));
    const sink = createRecordingSink();
    const stateStore = createMemoryStateStore();
    let scans = 0;
    let running = 0;
    let maxRunning = 0;
    const scanner: Scanner = {
      name: 'orchestrators',
      runsOutsideActiveHours: true,
      scan: async () => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        scans++;
        // The first cycle overruns by 25 minutes: 10:10 and 10:20 pass meanwhile.
        if (scans === 1) clock.advance(25 * 60_000);
        await Promise.resolve();
        running--;
        return scanOk('orchestrators', { findings: [crash] });
      },
    };
    const controller = new AbortController();
    const cycleTimes: string[] = [];
    const slots: string[] = [];
    const skipped: string[] = [];
    const loop = runLoop(
      { clock, sleep: clock, stateStore, sink, scanners: [scanner] },
      {
        settings: () => ({ config: DEFAULT_HEARTBEAT_CONFIG, timeZone: 'UTC', scannerTimeoutMs: 60 * 60_000 }),
        configFound: false,
        signal: controller.signal,
        onCycle: (o, slotMs) => {
          cycleTimes.push(o.decision.at);
          slots.push(new Date(slotMs).toISOString());
        },
        onSkipped: (r) => void skipped.push(`${new Date(r.fromMs).toISOString()} x${r.count} ${r.reason}`),
      },
    );
    await settle();
    // latest-once: the newest missed slot (10:20) runs at once, one cycle, never a burst; 10:10 is
    // recorded as skipped because the first cycle was still running.
    expect(scans).toBe(2);
    expect(skipped).toEqual(['2026-02-19T10:10:00.000Z x1 overlapping']);
    expect(clock.nextWakeAtMs()).toBe(Date.parse('2026-02-19T10:30:00Z'));
    clock.set(new Date('2026-02-19T10:30:00Z'));
    await settle();
    expect(scans).toBe(3);
    clock.set(new Date('2026-02-19T10:40:00Z'));
    await settle();
    expect(scans).toBe(4);
    controller.abort();
    const summary = await loop;
    expect(maxRunning).toBe(1);
    expect(cycleTimes).toEqual([
      '2026-02-19T10:00:00.000Z',
      '2026-02-19T10:25:00.000Z',
      '2026-02-19T10:30:00.000Z',
      '2026-02-19T10:40:00.000Z',
    ]);
    // Each cycle is told the slot it closes (for its receipt): the late one closes 10:20.
    expect(slots).toEqual(['2026-02-19T10:00:00.000Z', '2026-02-19T10:20:00.000Z', '2026-02-19T10:30:00.000Z', '2026-02-19T10:40:00.000Z']);
    const kinds = sink.delivered.map((m) => m.kind);
    // Reported at 10:00; 10:25 is inside the dedup window, which counts from the cycle instant, so 10:30 reports again and 10:40 is
    // inside the new window.
    expect(kinds).toEqual(['online', 'work_found', 'work_found', 'shutdown']);
    expect(sink.delivered[0]!.content).toBe(
      'HEARTBEAT_ONLINE: Work-finder loop starting. Interval: 600s. Active hours: 8-22. HEARTBEAT.md: missing.',
    );
    expect(sink.delivered.at(-1)!.content).toBe('HEARTBEAT_SHUTDOWN: Final status -- 4 cycles completed, 2 reports sent.');
    expect(summary).toEqual({ cyclesCompleted: 4, cyclesPartial: 0, cutOff: [], reportsSent: 2 });
  });

  it('finishes the current scan before shutting down', async () => {
    const clock = createFakeClock(new Date('2026-02-19T10:00:00Z'));
    const sink = createRecordingSink();
    const controller = new AbortController();
    let release!: () => void;
    let finished = false;
    const scanner: Scanner = {
      name: 'slow',
      runsOutsideActiveHours: true,
      scan: async () => {
        await new Promise<void>((r) => (release = r));
        finished = true;
        return scanOk('slow', {});
      },
    };
    const loop = runLoop(
      { clock, sleep: clock, stateStore: createMemoryStateStore(), sink, scanners: [scanner] },
      {
        settings: () => ({ config: DEFAULT_HEARTBEAT_CONFIG, timeZone: 'UTC' }),
        configFound: true,
        signal: controller.signal,
        intervalMs: 60_000,
      },
    );
    await settle();
    controller.abort();
    await settle();
    expect(sink.delivered.map((m) => m.kind)).toEqual(['online']);
    release();
    const summary = await loop;
    expect(finished).toBe(true);
    expect(summary.cyclesCompleted).toBe(1);
    expect(sink.delivered.at(-1)!.content).toBe('HEARTBEAT_SHUTDOWN: Final status -- 1 cycles completed, 0 reports sent.');
  });

  it('a stop that comes while missed slots are recorded starts no cycle', async () => {
    const clock = createFakeClock(new Date('2026-02-19T10:00:00Z'));
    const sink = createRecordingSink();
    const controller = new AbortController();
    let scans = 0;
    const scanner: Scanner = {
      name: 'orchestrators',
      runsOutsideActiveHours: true,
      scan: () => {
        scans++;
        return Promise.resolve(scanOk('orchestrators', {}));
      },
    };
    const summary = await runLoop(
      { clock, sleep: clock, stateStore: createMemoryStateStore(), sink, scanners: [scanner] },
      {
        settings: () => ({ config: DEFAULT_HEARTBEAT_CONFIG, timeZone: 'UTC' }),
        configFound: true,
        signal: controller.signal,
        // Down since 09:00: 09:10–09:50 are recorded as skipped, then 10:00 would run.
        lastSlotMs: Date.parse('2026-02-19T09:00:00Z'),
        onSkipped: () => controller.abort(),
      },
    );
    expect(scans).toBe(0);
    expect(summary).toEqual({ cyclesCompleted: 0, cyclesPartial: 0, cutOff: [], reportsSent: 0 });
    expect(sink.delivered.map((m) => m.kind)).toEqual(['online', 'shutdown']);
  });

  it('a guard that skips a cycle leaves it uncounted', async () => {
    const clock = createFakeClock(new Date('2026-02-19T10:00:00Z'));
    const sink = createRecordingSink();
    const controller = new AbortController();
    let calls = 0;
    const loop = runLoop(
      { clock, sleep: clock, stateStore: createMemoryStateStore(), sink, scanners: [] },
      {
        settings: () => ({ config: DEFAULT_HEARTBEAT_CONFIG, timeZone: 'UTC' }),
        configFound: true,
        signal: controller.signal,
        // Skip every other cycle, as a held cycle lock would.
        guard: async (cycle) => (calls++ % 2 === 0 ? undefined : cycle()),
      },
    );
    for (let i = 0; i < 3; i++) {
      await settle();
      clock.advance(600_000);
    }
    await settle();
    controller.abort();
    const summary = await loop;
    expect(calls).toBe(4);
    expect(summary.cyclesCompleted).toBe(2);
  });
});
