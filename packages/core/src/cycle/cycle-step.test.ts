import { errAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { DEFAULT_HEARTBEAT_CONFIG } from '../config/heartbeat-config-schema.js';
import type { Scanner } from '../ports/scanner.js';
import { createFakeClock } from '../testing/index.js';
import { scanAndEvaluate } from './cycle-step.js';
import { decodeHeartbeatState, type HeartbeatState } from './heartbeat-state.js';
import { BREAKER_SKIP_CODE, SCANNER_FAILING } from './scanner-breaker.js';

const config = { ...DEFAULT_HEARTBEAT_CONFIG, activeHours: { ...DEFAULT_HEARTBEAT_CONFIG.activeHours, weekend: true } };

describe('scanAndEvaluate', () => {
  it('reports an operator-activity failure as a warning instead of dropping it', async () => {
    const clock = createFakeClock(new Date('2026-02-19T10:00:00Z'));
    const step = await scanAndEvaluate(
      {
        clock,
        sleep: clock,
        scanners: [],
        operatorActivity: { lastActiveAt: () => errAsync({ kind: 'io', message: 'EACCES on ~/.claude' }) },
      },
      { state: decodeHeartbeatState(undefined).state, config, timeZone: 'UTC', now: clock.now() },
    );
    expect(step.warnings).toEqual(['operator activity unknown: EACCES on ~/.claude']);
    expect(step.operatorLastActiveAt).toBeUndefined();
  });

  it('does not run a scanner whose breaker is open, and raises SCANNER_FAILING once before that', async () => {
    const clock = createFakeClock(new Date('2026-02-19T10:00:00Z'));
    let scans = 0;
    const failing: Scanner = {
      name: 'bd',
      runsOutsideActiveHours: true,
      scan: () => {
        scans += 1;
        return Promise.resolve({ scanner: 'bd', status: 'error' as const, error: 'bd list exited 1: database locked', durationMs: 5 });
      },
    };
    let state: HeartbeatState = decodeHeartbeatState(undefined).state;
    const advisories: number[] = [];
    const skippedAt: number[] = [];
    for (let cycle = 1; cycle <= 8; cycle += 1) {
      const step = await scanAndEvaluate(
        { clock, sleep: clock, scanners: [failing] },
        { state, config, timeZone: 'UTC', now: clock.now() },
      );
      if (step.decision.reportable.some((f) => f.category === SCANNER_FAILING)) advisories.push(cycle);
      if (step.scanResults.some((r) => r.status === 'skipped' && r.code === BREAKER_SKIP_CODE)) skippedAt.push(cycle);
      state = step.nextState;
      clock.advance(600_000);
    }
    expect(advisories[0]).toBe(config.breaker.after);
    expect(skippedAt.length).toBeGreaterThan(0);
    expect(scans).toBe(8 - skippedAt.length);
  });
});
