import { describe, expect, it } from 'vitest';
import { DEFAULT_HEARTBEAT_CONFIG } from '../config/heartbeat-config-schema.js';
import { createFinding } from '../domain/finding.js';
import { scanOk } from '../domain/scan-result.js';
import type { Scanner } from '../ports/scanner.js';
import { createFakeClock, createFakeOperatorActivity, createMemoryStateStore, createRecordingSink } from '../testing/index.js';
import { runCycle } from './run-cycle.js';

const stale = createFinding({ category: 'GIT_STALE', subject: '/wt', line: 'STALE: /wt', action: 'Commit /wt', short: 'wt stale' });
const scanner: Scanner = { name: 'git', runsOutsideActiveHours: false, scan: () => Promise.resolve(scanOk('git', { findings: [stale] })) };
const settings = { config: DEFAULT_HEARTBEAT_CONFIG, timeZone: 'UTC' };

describe('runCycle', () => {
  it('retries a failed delivery on the next cycle and counts the cycle', async () => {
    const clock = createFakeClock(new Date('2026-02-19T10:00:00Z'));
    const sink = createRecordingSink({ failTimes: 1 });
    const stateStore = createMemoryStateStore();
    const first = await runCycle({ clock, sleep: clock, stateStore, sink, scanners: [scanner] }, settings);
    expect(first.delivery).toBe('failed');
    expect(first.warnings.join()).toMatch(/delivery failed/);
    clock.advance(60_000);
    const second = await runCycle({ clock, sleep: clock, stateStore, sink, scanners: [scanner] }, settings);
    expect(second.delivery).toBe('delivered');
    expect(second.decision.cycle).toBe(2);
    expect(second.state.reportsSent).toBe(1);
    clock.advance(60_000);
    const third = await runCycle({ clock, sleep: clock, stateStore, sink, scanners: [scanner] }, settings);
    expect(third.decision.status).toBe('ok');
    expect(third.decision.suppressed[0]?.reason).toBe('dedup');
  });

  it('reads operator activity from its port and holds Advisory findings while busy', async () => {
    const clock = createFakeClock(new Date('2026-02-19T10:00:00Z'));
    const sink = createRecordingSink();
    const outcome = await runCycle(
      { clock, sleep: clock, stateStore: createMemoryStateStore(), sink, scanners: [scanner], operatorActivity: createFakeOperatorActivity(new Date('2026-02-19T09:58:00Z')) },
      settings,
    );
    expect(outcome.decision.held).toHaveLength(1);
    expect(sink.delivered).toHaveLength(0);
  });

  it('starts afresh with a warning when the stored state does not fit the schema', async () => {
    const clock = createFakeClock(new Date('2026-02-19T10:00:00Z'));
    const stateStore = createMemoryStateStore({ initial: { version: 99 } });
    const outcome = await runCycle({ clock, sleep: clock, stateStore, sink: createRecordingSink(), scanners: [] }, settings);
    expect(outcome.decision.cycle).toBe(1);
    expect(outcome.warnings.join()).toMatch(/schema version 1/);
  });

  it('a dry run decides the report but delivers nothing and leaves the state as it was', async () => {
    const clock = createFakeClock(new Date('2026-02-19T10:00:00Z'));
    const sink = createRecordingSink();
    const stateStore = createMemoryStateStore();
    const deps = { clock, sleep: clock, stateStore, sink, scanners: [scanner] };
    const dry = await runCycle(deps, { ...settings, dryRun: true });
    expect(dry.decision.status).toBe('report');
    expect(dry.delivery).toBe('dry-run');
    expect(sink.delivered).toHaveLength(0);
    expect((await stateStore.load())._unsafeUnwrap().document).toBeUndefined();
    // The real cycle after it is still cycle 1 and still reports: the dry run marked nothing.
    const real = await runCycle(deps, settings);
    expect(real.decision.cycle).toBe(1);
    expect(real.delivery).toBe('delivered');
  });
});
