import { describe, expect, it } from 'vitest';
import type { OutboundMessage } from '../ports/sink.js';
import { createFakeClock } from './fake-clock.js';
import { createFakeCommandRunner } from './fake-command-runner.js';
import { createFakeOperatorActivity } from './fake-operator-activity.js';
import { createMemoryLockStore } from './memory-lock-store.js';
import { createMemoryStateStore } from './memory-state-store.js';
import { createRecordingSink } from './recording-sink.js';

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('createFakeClock', () => {
  it('moves only when told', () => {
    const clock = createFakeClock(new Date('2026-07-22T10:00:00Z'));
    expect(clock.now().toISOString()).toBe('2026-07-22T10:00:00.000Z');
    clock.advance(90_000);
    expect(clock.now().toISOString()).toBe('2026-07-22T10:01:30.000Z');
    clock.set(new Date('2026-01-01T00:00:00Z'));
    expect(clock.now().toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(() => clock.advance(-1)).toThrow(RangeError);
  });

  it('wakes sleepers when advanced to their deadline, in deadline order', async () => {
    const clock = createFakeClock(0);
    const woke: string[] = [];
    void clock.sleep(100).then(() => woke.push('100'));
    void clock.sleep(50).then(() => woke.push('50'));
    expect(clock.pendingSleeps()).toBe(2);
    expect(clock.nextWakeAtMs()).toBe(50);
    clock.advance(49);
    await flush();
    expect(woke).toEqual([]);
    clock.advance(1);
    await flush();
    expect(woke).toEqual(['50']);
    clock.advance(1000);
    await flush();
    expect(woke).toEqual(['50', '100']);
    expect(clock.pendingSleeps()).toBe(0);
    expect(clock.nextWakeAtMs()).toBeUndefined();
  });

  it('resolves at once for zero delays and aborted signals, and on abort without moving time', async () => {
    const clock = createFakeClock(1000);
    await clock.sleep(0);
    const aborted = new AbortController();
    aborted.abort();
    await clock.sleep(10_000, aborted.signal);
    const controller = new AbortController();
    const waiting = clock.sleep(10_000, controller.signal);
    expect(clock.pendingSleeps()).toBe(1);
    controller.abort();
    await expect(waiting).resolves.toBeUndefined();
    expect(clock.pendingSleeps()).toBe(0);
    expect(clock.now().getTime()).toBe(1000);
  });
});

describe('memory fakes', () => {
  it('state store copies documents and reports planted warnings once', async () => {
    const store = createMemoryStateStore({ initial: { cycle: 1 }, loadWarnings: ['corrupt file set aside'] });
    expect((await store.load())._unsafeUnwrap()).toEqual({ document: { cycle: 1 }, warnings: ['corrupt file set aside'] });
    expect((await store.load())._unsafeUnwrap().warnings).toEqual([]);
    (await store.save({ cycle: 2 }))._unsafeUnwrap();
    expect(store.current()).toEqual({ cycle: 2 });
    expect(store.saveCount()).toBe(1);
  });

  it('lock store hands out growing fences and can be planted', async () => {
    const store = createMemoryLockStore({ fencing: true });
    const first = (await store.acquire({ owner: 'a', nowMs: 0, staleAfterMs: 10 }))._unsafeUnwrap();
    const second = (await store.acquire({ owner: 'b', nowMs: 10, staleAfterMs: 10 }))._unsafeUnwrap();
    expect(first.record.fence).toBe(1);
    expect(second.record.fence).toBe(2);
    expect(second.tookOverFrom?.owner).toBe('a');
    store.plant({ owner: 'foreign', acquiredAtMs: 5 });
    expect((await store.read())._unsafeUnwrap()?.owner).toBe('foreign');
    expect((await store.release('b'))._unsafeUnwrap()).toBe('not-owner');
    expect(store.current()?.owner).toBe('foreign');
  });

  it('recording sink fails the first N deliveries and records the rest', async () => {
    const sink = createRecordingSink({ failTimes: 2 });
    const message: OutboundMessage = { kind: 'online', content: 'HEARTBEAT_ONLINE', summary: 'online', at: '2026-07-22T10:00:00Z' };
    expect((await sink.deliver(message)).isErr()).toBe(true);
    expect((await sink.deliver(message))._unsafeUnwrapErr().kind).toBe('delivery-failed');
    (await sink.deliver(message))._unsafeUnwrap();
    expect(sink.delivered).toEqual([message]);
    expect(sink.attempts()).toBe(3);
  });

  it('operator activity can be changed', async () => {
    const activity = createFakeOperatorActivity(undefined);
    expect((await activity.lastActiveAt())._unsafeUnwrap()).toBeUndefined();
    const when = new Date('2026-07-22T10:00:00Z');
    activity.set(when);
    expect((await activity.lastActiveAt())._unsafeUnwrap()).toEqual(when);
  });
});

describe('createFakeCommandRunner', () => {
  it('answers from the handler, fills defaults and records calls', async () => {
    const runner = createFakeCommandRunner((request) => {
      if (request.file === 'gh') return { stdout: 'Logged in' };
      if (request.file === 'missing') return { error: { kind: 'not-found', file: 'missing', message: 'ENOENT' } };
      if (request.file === 'explode') throw new Error('boom');
      return { exitCode: 2, stderr: 'usage' };
    });
    expect((await runner.run({ file: 'gh', args: ['auth', 'status'] }))._unsafeUnwrap()).toEqual({
      exitCode: 0,
      stdout: 'Logged in',
      stderr: '',
      durationMs: 0,
    });
    expect((await runner.run({ file: 'bd', args: [] }))._unsafeUnwrap()).toMatchObject({ exitCode: 2, stderr: 'usage' });
    expect((await runner.run({ file: 'missing', args: [] }))._unsafeUnwrapErr().kind).toBe('not-found');
    expect((await runner.run({ file: 'explode', args: [] }))._unsafeUnwrapErr()).toMatchObject({ kind: 'spawn-failed', message: 'boom' });
    const controller = new AbortController();
    controller.abort();
    expect((await runner.run({ file: 'gh', args: [] }, controller.signal))._unsafeUnwrapErr().kind).toBe('aborted');
    expect(runner.calls.map((call) => call.file)).toEqual(['gh', 'bd', 'missing', 'explode', 'gh']);
  });
});
