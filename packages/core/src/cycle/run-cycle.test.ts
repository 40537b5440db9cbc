import { errAsync } from 'neverthrow';
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

  it('salvages a stored state that does not fit: keeps a copy, the cycle counter and the undelivered reply', async () => {
    const clock = createFakeClock(new Date('2026-02-19T10:00:00Z'));
    const reply = createFinding({ category: 'GCHAT_REPLY_RECEIVED', subject: 'q-1', line: 'Q-1: yes', action: 'Act on it', short: 'reply' });
    const damaged = { version: 1, cycle: 41, reportsSent: 3, reported: {}, seen: 'oops', panes: {}, pipelines: {}, undelivered: [JSON.parse(JSON.stringify(reply))] };
    const stateStore = createMemoryStateStore({ initial: damaged });
    const sink = createRecordingSink();
    const outcome = await runCycle({ clock, sleep: clock, stateStore, sink, scanners: [] }, settings);
    expect(outcome.refused).toBeUndefined();
    expect(outcome.decision.cycle).toBe(42);
    expect(sink.delivered.map((m) => m.content.split('\n')[0])).toEqual(['WORK_FOUND: GCHAT_REPLY_RECEIVED']);
    expect(stateStore.asides()).toEqual([{ document: damaged, reason: 'seen: expected an object, got "oops"' }]);
    expect(outcome.warnings.join()).toMatch(/schema version 1 \(seen: .*kept every other field; the original is kept at memory:aside-1/);
    expect(outcome.state.reportsSent).toBe(4);
  });

  it('refuses a state written by a newer version: nothing scanned, sent or saved, the version named', async () => {
    const clock = createFakeClock(new Date('2026-02-19T10:00:00Z'));
    const newer = { version: 2, cycle: 500, somethingNew: [1] };
    const stateStore = createMemoryStateStore({ initial: newer });
    const sink = createRecordingSink();
    let scanned = 0;
    const counting: Scanner = { ...scanner, scan: (ctx) => ((scanned += 1), scanner.scan(ctx)) };
    const outcome = await runCycle({ clock, sleep: clock, stateStore, sink, scanners: [counting] }, settings);
    expect(outcome.refused).toMatchObject({ reason: 'newer-version', version: 2 });
    expect(outcome.refused?.message).toContain('state version 2');
    expect(scanned).toBe(0);
    expect(sink.delivered).toHaveLength(0);
    expect(stateStore.saveCount()).toBe(0);
    expect(stateStore.asides()).toEqual([]);
    expect(stateStore.current()).toEqual(newer);
  });

  it('refuses to overwrite a damaged state when no copy of it can be kept', async () => {
    const clock = createFakeClock(new Date('2026-02-19T10:00:00Z'));
    const inner = createMemoryStateStore({ initial: { version: 1, cycle: 'x' } });
    const stateStore = { ...inner, setAside: () => errAsync({ kind: 'io' as const, message: 'ENOSPC: no space left on device' }) };
    const outcome = await runCycle({ clock, sleep: clock, stateStore, sink: createRecordingSink(), scanners: [scanner] }, settings);
    expect(outcome.refused?.reason).toBe('cannot-keep-copy');
    expect(outcome.refused?.message).toContain('ENOSPC');
    expect(inner.saveCount()).toBe(0);
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
