import { describe, expect, it } from 'vitest';
import { DEFAULT_HEARTBEAT_CONFIG } from '../config/heartbeat-config-schema.js';
import { scanOk } from '../domain/scan-result.js';
import type { Scanner } from '../ports/scanner.js';
import { createFakeClock } from '../testing/index.js';
import { runScanners } from './run-scanners.js';

const now = new Date('2026-02-19T10:00:00Z');

describe('runScanners', () => {
  it('turns a throw into error, a hang into timeout and keeps the order', async () => {
    const clock = createFakeClock(now);
    let abortedHang = false;
    const scanners: Scanner[] = [
      { name: 'fine', runsOutsideActiveHours: true, scan: () => Promise.resolve(scanOk('fine', {})) },
      { name: 'throws', runsOutsideActiveHours: true, scan: () => Promise.reject(new Error('boom')) },
      {
        name: 'hangs',
        runsOutsideActiveHours: true,
        scan: (ctx) =>
          new Promise(() => {
            ctx.signal.addEventListener('abort', () => (abortedHang = true));
          }),
      },
    ];
    const pending = runScanners(scanners, {
      clock,
      sleep: clock,
      now,
      config: DEFAULT_HEARTBEAT_CONFIG,
      insideActiveHours: true,
      timeoutMs: 5_000,
    });
    await new Promise((r) => setImmediate(r));
    clock.advance(5_000);
    const results = await pending;
    expect(results.map((r) => [r.scanner, r.status])).toEqual([
      ['fine', 'ok'],
      ['throws', 'error'],
      ['hangs', 'timeout'],
    ]);
    expect(results[1]).toMatchObject({ error: 'boom' });
    expect(abortedHang).toBe(true);
  });

  it('skips scanners that do not run outside active hours', async () => {
    const clock = createFakeClock(now);
    let ran = false;
    const scanner: Scanner = { name: 'git', runsOutsideActiveHours: false, scan: () => ((ran = true), Promise.resolve(scanOk('git', {}))) };
    const [result] = await runScanners([scanner], { clock, sleep: clock, now, config: DEFAULT_HEARTBEAT_CONFIG, insideActiveHours: false });
    expect(result).toMatchObject({ status: 'skipped', reason: 'outside active hours' });
    expect(ran).toBe(false);
  });

  it('never runs more scanners at once than the pool allows', async () => {
    const clock = createFakeClock(now);
    let running = 0;
    let peak = 0;
    const scanners: Scanner[] = Array.from({ length: 9 }, (_, i) => ({
      name: `s${i}`,
      runsOutsideActiveHours: true,
      scan: async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setImmediate(r));
        running--;
        return scanOk(`s${i}`, {});
      },
    }));
    const results = await runScanners(scanners, {
      clock,
      sleep: clock,
      now,
      config: DEFAULT_HEARTBEAT_CONFIG,
      insideActiveHours: true,
      concurrency: 3,
    });
    expect(results.every((r) => r.status === 'ok')).toBe(true);
    expect(peak).toBe(3);
  });
});
