import { DEFAULT_HEARTBEAT_CONFIG, type Receipt, runCycle, type Scanner, scanOk } from '@heartbeat-kit/core';
import { receiptForOutcome, SKIP_REASON_NAMES } from '@heartbeat-kit/core/host';
import { createFakeClock, createMemoryStateStore, createRecordingSink } from '@heartbeat-kit/core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { metricFigures, type MetricFamily } from './metric-figures.js';
import { DEFAULT_CATEGORIES } from '@heartbeat-kit/scanners';

const stale = DEFAULT_CATEGORIES.createFinding({
  category: 'GIT_STALE',
  subject: '/wt',
  line: 'STALE: /wt',
  action: 'Commit /wt',
  short: 'wt stale',
});
const settings = { config: DEFAULT_HEARTBEAT_CONFIG, timeZone: 'UTC' };

function value(families: readonly MetricFamily[], name: string, labels: Record<string, string> = {}): number | undefined {
  const family = families.find((f) => f.name === `heartbeat_kit_${name}`);
  return family?.samples.find((s) => JSON.stringify(s.labels) === JSON.stringify(labels))?.value;
}

/** Two real cycles over fakes: the first reports the stale worktree, the second (dedup) is quiet. */
async function busyThenQuiet() {
  const clock = createFakeClock(new Date('2026-02-19T10:00:00Z'));
  const scanner: Scanner = {
    name: 'git',
    runsOutsideActiveHours: false,
    scan: () => Promise.resolve(scanOk('git', { findings: [stale] })),
  };
  const deps = { clock, sleep: clock, stateStore: createMemoryStateStore(), sink: createRecordingSink(), scanners: [scanner] };
  const busy = await runCycle(deps, settings);
  const at = (ms: number) => ({ slotMs: ms, atMs: ms, source: 'cycle' as const });
  const busyReceipt = receiptForOutcome(busy, at(clock.now().getTime()));
  clock.advance(60_000);
  const quiet = await runCycle(deps, settings);
  const quietReceipt = receiptForOutcome(quiet, at(clock.now().getTime()));
  return { busy, quiet, busyReceipt, quietReceipt };
}

describe('metricFigures', () => {
  it('a busy then a quiet cycle: the same families and series, the cycle gauges back to 0, the counters kept', async () => {
    const { busy, quiet, busyReceipt, quietReceipt } = await busyThenQuiet();
    const first = metricFigures({ receipts: [busyReceipt], outcome: busy });
    const second = metricFigures({ receipts: [busyReceipt, quietReceipt], outcome: quiet });
    const series = (f: readonly MetricFamily[]) => f.flatMap((m) => m.samples.map((s) => `${m.name}${JSON.stringify(s.labels)}`));
    expect(series(second)).toEqual(series(first));
    const gitStale = { category: 'GIT_STALE', priority: 'Advisory' };
    expect([value(first, 'last_cycle_findings', gitStale), value(second, 'last_cycle_findings', gitStale)]).toEqual([1, 0]);
    expect(value(first, 'last_cycle_message_tokens')).toBeGreaterThan(0);
    expect(value(second, 'last_cycle_message_tokens')).toBe(0);
    expect([value(second, 'cycles_total', { status: 'report' }), value(second, 'cycles_total', { status: 'ok' })]).toEqual([1, 1]);
    expect(value(second, 'last_status', { status: 'ok' })).toBe(1);
    expect(value(second, 'last_cycle_start_timestamp_seconds')).toBe(Date.parse('2026-02-19T10:01:00Z') / 1000);
    expect(value(second, 'scanner_status', { scanner: 'git', status: 'ok' })).toBe(1);
    expect(value(second, 'scanner_breaker_open', { scanner: 'git' })).toBe(0);
  });

  it('no receipt and no cycle: no timestamps (not 1970), counters at 0, every skip cause listed', () => {
    const figures = metricFigures({ receipts: [] });
    expect(value(figures, 'last_cycle_end_timestamp_seconds')).toBeUndefined();
    expect(figures.find((f) => f.name === 'heartbeat_kit_last_status')?.samples).toEqual([]);
    expect(SKIP_REASON_NAMES.map((cause) => value(figures, 'slots_skipped_total', { cause }))).toEqual(SKIP_REASON_NAMES.map(() => 0));
    expect(value(figures, 'paused')).toBe(0);
  });

  it('routes count per sink; skipped runs count every slot they close; a paused receipt is the last status', () => {
    const base = { v: 1 as const, slot: '2026-02-19T10:00:00.000Z', at: '2026-02-19T10:00:01.000Z' };
    const receipts: Receipt[] = [
      {
        ...base,
        source: 'loop',
        kind: 'ran',
        cycle: 1,
        status: 'report',
        delivery: 'failed',
        routes: [
          { route: 'Immediate', sink: 'webhook', delivery: 'delivered', id: 'a' },
          { route: 'Normal', sink: 'file', delivery: 'failed', id: 'b' },
        ],
      },
      { ...base, source: 'loop', kind: 'skipped', reason: 'asleep', through: '2026-02-19T10:30:00.000Z', count: 3 },
      { ...base, source: 'cycle', kind: 'paused', note: 'maintenance', since: base.at },
    ];
    const figures = metricFigures({ receipts });
    expect(value(figures, 'deliveries_total', { sink: 'webhook', state: 'delivered' })).toBe(1);
    expect(value(figures, 'deliveries_total', { sink: 'file', state: 'failed' })).toBe(1);
    expect(value(figures, 'deliveries_total', { sink: 'default', state: 'failed' })).toBe(0);
    expect(value(figures, 'slots_skipped_total', { cause: 'asleep' })).toBe(3);
    expect(value(figures, 'slots_paused_total')).toBe(1);
    expect(value(figures, 'last_status', { status: 'paused' })).toBe(1);
  });

  it('property: appending receipts never lowers a counter (one-shot cycles keep the textfile monotonic)', () => {
    const slot = fc.integer({ min: 1_700_000_000_000, max: 1_900_000_000_000 }).map((ms) => new Date(ms).toISOString());
    const receipt: fc.Arbitrary<Receipt> = fc.oneof(
      fc.record({
        v: fc.constant(1 as const),
        slot,
        at: slot,
        source: fc.constantFrom('cycle' as const, 'loop' as const),
        kind: fc.constant('ran' as const),
        cycle: fc.nat(1000),
        status: fc.constantFrom('ok' as const, 'report' as const),
        delivery: fc.constantFrom('none' as const, 'delivered' as const, 'failed' as const, 'held' as const, 'queued' as const),
        partial: fc.option(fc.constant(true as const), { nil: undefined }),
      }),
      fc.record({
        v: fc.constant(1 as const),
        slot,
        at: slot,
        source: fc.constant('loop' as const),
        kind: fc.constant('skipped' as const),
        reason: fc.constantFrom(...SKIP_REASON_NAMES),
        count: fc.option(fc.integer({ min: 1, max: 50 }), { nil: undefined }),
      }),
      fc.record({
        v: fc.constant(1 as const),
        slot,
        at: slot,
        source: fc.constant('cycle' as const),
        kind: fc.constant('paused' as const),
        note: fc.string(),
        since: slot,
      }),
    );
    const counters = (receipts: Receipt[]) =>
      new Map(
        metricFigures({ receipts })
          .filter((f) => f.type === 'counter')
          .flatMap((f) => f.samples.map((s) => [`${f.name}${JSON.stringify(s.labels)}`, s.value] as const)),
      );
    fc.assert(
      fc.property(fc.array(receipt, { maxLength: 20 }), fc.array(receipt, { minLength: 1, maxLength: 5 }), (before, added) => {
        const [old, now] = [counters(before), counters([...before, ...added])];
        for (const [key, v] of old) expect(now.get(key) ?? 0).toBeGreaterThanOrEqual(v);
        const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
        expect(total(now)).toBeGreaterThan(total(old));
      }),
    );
  });
});
