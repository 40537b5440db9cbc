import { errAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { DEFAULT_HEARTBEAT_CONFIG } from '../config/heartbeat-config-schema.js';
import { type Finding } from '../domain/finding.js';
import { scanOk } from '../domain/scan-result.js';
import type { Scanner } from '../ports/scanner.js';
import type { StateStore } from '../ports/state-store.js';
import {
  createFakeClock,
  createFakeOperatorActivity,
  createMemoryReplyInbox,
  createMemoryStateStore,
  createRecordingSink,
  type MemoryReplyInbox,
} from '../testing/index.js';
import { runCycle } from './run-cycle.js';
import { createFinding, DEFAULT_CATEGORIES } from '../../test/support/cobuilder-categories.js';

const stale = createFinding({ category: 'GIT_STALE', subject: '/wt', line: 'STALE: /wt', action: 'Commit /wt', short: 'wt stale' });
const scanner: Scanner = { name: 'git', runsOutsideActiveHours: false, scan: () => Promise.resolve(scanOk('git', { findings: [stale] })) };
const settings = { config: DEFAULT_HEARTBEAT_CONFIG, timeZone: 'UTC', categories: DEFAULT_CATEGORIES };

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

  it('a sink that holds the report back: held with its why, not a breaker failure, retried and delivered next cycle', async () => {
    const clock = createFakeClock(new Date('2026-02-19T10:00:00Z'));
    const sink = createRecordingSink({ holdTimes: 1 });
    const stateStore = createMemoryStateStore();
    const deps = { clock, sleep: clock, stateStore, sink, scanners: [scanner] };
    const first = await runCycle(deps, settings);
    expect(first.delivery).toBe('held');
    expect(first.deliveryWhy).toBe('recording sink: planned hold 1');
    expect(first.warnings.join()).toMatch(/delivery held by the sink: recording sink: planned hold 1/);
    expect(first.state.reportsSent).toBe(0);
    expect(first.state.sinkBreaker).toBeUndefined();
    expect(sink.delivered).toHaveLength(0);
    clock.advance(60_000);
    const second = await runCycle(deps, settings);
    expect(second.delivery).toBe('delivered');
    expect(second.deliveryWhy).toBeUndefined();
    expect(second.state.reportsSent).toBe(1);
    expect(sink.delivered).toHaveLength(1);
  });

  it('reads operator activity from its port and holds Advisory findings while busy', async () => {
    const clock = createFakeClock(new Date('2026-02-19T10:00:00Z'));
    const sink = createRecordingSink();
    const outcome = await runCycle(
      {
        clock,
        sleep: clock,
        stateStore: createMemoryStateStore(),
        sink,
        scanners: [scanner],
        operatorActivity: createFakeOperatorActivity(new Date('2026-02-19T09:58:00Z')),
      },
      settings,
    );
    expect(outcome.decision.held).toHaveLength(1);
    expect(sink.delivered).toHaveLength(0);
  });

  it('salvages a stored state that does not fit: keeps a copy, the cycle counter and the undelivered reply', async () => {
    const clock = createFakeClock(new Date('2026-02-19T10:00:00Z'));
    const reply = createFinding({
      category: 'GCHAT_REPLY_RECEIVED',
      subject: 'q-1',
      line: 'Q-1: yes',
      action: 'Act on it',
      short: 'reply',
    });
    const damaged = {
      version: 1,
      cycle: 41,
      reportsSent: 3,
      reported: {},
      seen: 'oops',
      panes: {},
      pipelines: {},
      undelivered: [JSON.parse(JSON.stringify(reply))],
    };
    const stateStore = createMemoryStateStore({ initial: damaged });
    const sink = createRecordingSink();
    const outcome = await runCycle({ clock, sleep: clock, stateStore, sink, scanners: [] }, settings);
    expect(outcome.refused).toBeUndefined();
    expect(outcome.decision.cycle).toBe(42);
    expect(sink.delivered.map((m) => m.content.split('\n')[0])).toEqual(['WORK_FOUND: GCHAT_REPLY_RECEIVED']);
    expect(stateStore.asides()).toEqual([{ document: damaged, reason: 'seen: expected an object, got "oops"' }]);
    expect(outcome.warnings.join()).toMatch(/schema version 3 \(seen: .*kept every other field; the original is kept at memory:aside-1/);
    expect(outcome.state.reportsSent).toBe(4);
  });

  it('refuses a state written by a newer version: nothing scanned, sent or saved, the version named', async () => {
    const clock = createFakeClock(new Date('2026-02-19T10:00:00Z'));
    const newer = { version: 4, cycle: 500, somethingNew: [1] };
    const stateStore = createMemoryStateStore({ initial: newer });
    const sink = createRecordingSink();
    let scanned = 0;
    const counting: Scanner = { ...scanner, scan: (ctx) => ((scanned += 1), scanner.scan(ctx)) };
    const outcome = await runCycle({ clock, sleep: clock, stateStore, sink, scanners: [counting] }, settings);
    expect(outcome.refused).toMatchObject({ reason: 'newer-version', version: 4 });
    expect(outcome.refused?.message).toContain('state version 4');
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

describe('runCycle with a reply inbox', () => {
  const reply = createFinding({
    category: 'GCHAT_REPLY_RECEIVED',
    subject: 'q-1',
    line: '- Question ID: q-1',
    action: 'Answer q-1',
    short: 'reply from Ana',
    details: { replyText: 'yes' },
  });
  // Stands in for the GChat scanner: reports what the inbox holds (after adding what a poll read).
  const inboxScanner = (inbox: MemoryReplyInbox, read: () => readonly Finding[]): Scanner => ({
    name: 'gchat',
    runsOutsideActiveHours: true,
    scan: async (ctx) => scanOk('gchat', { findings: (await inbox.add(read(), ctx.now))._unsafeUnwrap().entries.map((e) => e.finding) }),
  });
  const failingSave = (store: StateStore): StateStore => ({
    ...store,
    save: () => errAsync({ kind: 'io', message: 'killed before the save' }),
  });

  it('removes an entry only once the saved state records it as reported', async () => {
    const clock = createFakeClock(new Date('2026-02-19T10:00:00Z'));
    const inbox = createMemoryReplyInbox();
    const sink = createRecordingSink();
    const stateStore = createMemoryStateStore();
    let polls = [reply];
    const scanners = [inboxScanner(inbox, () => polls.splice(0))];
    // A cycle that dies between delivery and the state save (here: the save fails) keeps the entry.
    const killed = await runCycle({ clock, sleep: clock, stateStore: failingSave(stateStore), sink, scanners, inbox }, settings);
    expect(killed.delivery).toBe('delivered');
    expect(inbox.entries()).toHaveLength(1);
    polls = [];
    clock.advance(60_000);
    // At least once: the next cycle offers it again under the same message id, then removes it.
    const next = await runCycle({ clock, sleep: clock, stateStore, sink, scanners, inbox }, settings);
    expect(next.delivery).toBe('delivered');
    expect(sink.delivered.map((m) => m.id)).toEqual([sink.delivered[0]?.id, sink.delivered[0]?.id]);
    expect(inbox.entries()).toEqual([]);
    clock.advance(60_000);
    const third = await runCycle({ clock, sleep: clock, stateStore, sink, scanners, inbox }, settings);
    expect(third.delivery).toBe('none');
    expect(sink.delivered).toHaveLength(2);
  });

  it('keeps an entry the cycle did not evaluate (added after its scan)', async () => {
    const clock = createFakeClock(new Date('2026-02-19T10:00:00Z'));
    const inbox = createMemoryReplyInbox();
    const late = createFinding({ category: 'GCHAT_REPLY_RECEIVED', subject: 'q-late', line: '- q-late', action: 'Answer', short: 'late' });
    const stateStore = createMemoryStateStore();
    const sink = createRecordingSink();
    const scanners = [inboxScanner(inbox, () => [reply])];
    // The dedup window says q-1 was reported; q-late was never evaluated, so it stays.
    await runCycle({ clock, sleep: clock, stateStore, sink, scanners, inbox }, settings);
    (await inbox.add([late], clock.now()))._unsafeUnwrap();
    await runCycle({ clock, sleep: clock, stateStore, sink, scanners: [], inbox }, settings);
    expect(inbox.entries().map((e) => e.finding.subject)).toEqual(['q-late']);
  });

  it('a failed delivery hands the entry to the state as undelivered, and the next cycle sends it', async () => {
    const clock = createFakeClock(new Date('2026-02-19T10:00:00Z'));
    const inbox = createMemoryReplyInbox();
    const sink = createRecordingSink({ failTimes: 1 });
    const stateStore = createMemoryStateStore();
    let polls = [reply];
    const scanners = [inboxScanner(inbox, () => polls.splice(0))];
    const failed = await runCycle({ clock, sleep: clock, stateStore, sink, scanners, inbox }, settings);
    expect(failed.delivery).toBe('failed');
    expect(failed.state.undelivered?.map((f) => f.fingerprint)).toEqual([reply.fingerprint]);
    expect(inbox.entries()).toEqual([]);
    polls = [];
    clock.advance(60_000);
    expect((await runCycle({ clock, sleep: clock, stateStore, sink, scanners, inbox }, settings)).delivery).toBe('delivered');
  });
});
