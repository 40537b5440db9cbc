import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEFAULT_HEARTBEAT_CONFIG } from '../config/heartbeat-config-schema.js';
import { createFinding } from '../domain/finding.js';
import { scanOk, type ScanResult } from '../domain/scan-result.js';
import type { Scanner } from '../ports/scanner.js';
import { createFakeClock, createMemoryStateStore, createRecordingSink } from '../testing/index.js';
import { evaluateCycle } from './evaluate-cycle.js';
import { decodeHeartbeatState, encodeHeartbeatState, initialHeartbeatState } from './heartbeat-state.js';
import { runCycle } from './run-cycle.js';
import { runScanners } from './run-scanners.js';
import { defineStatefulScanner, SLICE_REJECTED_CODE, SLICE_SET_ASIDE_CODE, type StoredSlice } from './scanner-slice.js';
import { cycleContext } from '../../test/support/cycle-context.js';

const NOW = new Date('2026-02-19T10:00:00Z');

/** Counts how many cycles running it has seen the same `value()`; remembers what it was given. */
function repeatCounter(value: () => string, seenPrevious: unknown[] = [], maxBytes?: number): Scanner {
  return defineStatefulScanner({
    name: 'repeats',
    runsOutsideActiveHours: false,
    slice: {
      version: 2,
      schema: z.object({ value: z.string(), cycles: z.number().int().positive() }).nullable(),
      initial: () => null,
      migrate: (from, data) => (from === 1 && typeof data === 'string' ? { value: data, cycles: 1 } : data),
      ...(maxBytes === undefined ? {} : { maxBytes }),
    },
    scan: (_context, previous) => {
      seenPrevious.push(previous);
      const now = value();
      const cycles = previous !== null && previous.value === now ? previous.cycles + 1 : 1;
      return Promise.resolve({ result: scanOk('repeats', {}), next: { value: now, cycles } });
    },
  });
}

const other: Scanner = {
  name: 'other',
  runsOutsideActiveHours: false,
  scan: () =>
    Promise.resolve(
      scanOk('other', {
        findings: [createFinding({ category: 'DISK_FULL', priority: 'Immediate', subject: '/', line: 'x', action: 'y', short: 'z' })],
      }),
    ),
};

async function scanWith(scanners: readonly Scanner[], slices?: Record<string, StoredSlice>): Promise<ScanResult[]> {
  const clock = createFakeClock(NOW);
  return runScanners(scanners, {
    clock,
    sleep: clock,
    now: NOW,
    config: DEFAULT_HEARTBEAT_CONFIG,
    insideActiveHours: true,
    ...(slices === undefined ? {} : { slices }),
  });
}

const warningsOf = (result: ScanResult | undefined): string[] =>
  result?.status === 'ok' ? result.warnings.map((w) => `${w.code}: ${w.message}`) : [];

describe('scanner slices through runScanners', () => {
  it('hands a scanner its own stored slice, validated, and keeps what it returns', async () => {
    const given: unknown[] = [];
    const [result] = await scanWith([repeatCounter(() => 'a', given)], { repeats: { version: 2, data: { value: 'a', cycles: 4 } } });
    expect(given).toEqual([{ value: 'a', cycles: 4 }]);
    expect(result).toMatchObject({ status: 'ok', slice: { version: 2, data: { value: 'a', cycles: 5 } } });
  });

  it("migrates an older slice with the scanner's own migration", async () => {
    const given: unknown[] = [];
    await scanWith([repeatCounter(() => 'a', given)], { repeats: { version: 1, data: 'a' } });
    expect(given).toEqual([{ value: 'a', cycles: 1 }]);
  });

  it('sets aside a slice that does not fit (or is newer) with a warning naming the scanner; other findings are untouched', async () => {
    for (const stored of [
      { version: 2, data: { value: 7 } },
      { version: 3, data: { value: 'a', cycles: 1 } },
    ]) {
      const given: unknown[] = [];
      const [mine, theirs] = await scanWith([repeatCounter(() => 'a', given), other], { repeats: stored, other: { version: 1, data: 1 } });
      expect(given).toEqual([null]);
      expect(warningsOf(mine)).toEqual([
        expect.stringMatching(new RegExp(`^${SLICE_SET_ASIDE_CODE}: scanner repeats: its saved state \\(version ${stored.version}\\)`)),
      ]);
      expect(mine).toMatchObject({ slice: { version: 2, data: { value: 'a', cycles: 1 } } });
      expect(theirs?.status === 'ok' && theirs.findings).toHaveLength(1);
      // A stateless scanner never gets or keeps a slice.
      expect(theirs).not.toHaveProperty('slice');
    }
  });

  it('does not keep a next slice over its bound: the previous one stays and the warning says so', async () => {
    const stored = { repeats: { version: 2, data: { value: 'a', cycles: 1 } } };
    const results = await scanWith([repeatCounter(() => 'b'.repeat(200), [], 100)], stored);
    expect(warningsOf(results[0])).toEqual([expect.stringContaining(`${SLICE_REJECTED_CODE}: scanner repeats: its next state is 2`)]);
    const { nextState } = evaluateCycle({ ...initialHeartbeatState(), scannerSlices: stored }, results, cycleContext(NOW));
    expect(nextState.scannerSlices).toEqual(stored);
  });
});

describe('scanner slices through runCycle', () => {
  it('a scanner sees "unchanged for N cycles" across saved and reloaded state', async () => {
    const clock = createFakeClock(NOW);
    const stateStore = createMemoryStateStore();
    let value = 'x';
    const scanner = repeatCounter(() => value);
    const counts: unknown[] = [];
    for (const next of ['x', 'x', 'x', 'y']) {
      value = next;
      const outcome = await runCycle(
        { clock, sleep: clock, stateStore, sink: createRecordingSink(), scanners: [scanner] },
        { config: DEFAULT_HEARTBEAT_CONFIG, timeZone: 'UTC' },
      );
      expect(outcome.warnings).toEqual([]);
      counts.push((decodeHeartbeatState(stateStore.current()).state.scannerSlices?.['repeats']?.data as { cycles: number }).cycles);
      clock.advance(600_000);
    }
    expect(counts).toEqual([1, 2, 3, 1]);
    expect(encodeHeartbeatState(decodeHeartbeatState(stateStore.current()).state)).toMatchObject({ version: 3 });
  });
});
