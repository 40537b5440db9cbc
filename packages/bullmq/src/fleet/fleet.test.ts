import { createFakeClock } from '@heartbeat-kit/core/testing';
import { DEFAULT_HEARTBEAT_CONFIG } from '@heartbeat-kit/core';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createFakeScanners } from '../testing/fake-scanners.js';
import { isFleetHeartbeatId, parseFleetHeartbeat, parseRegistryEntry } from './fleet-heartbeat.js';
import {
  decideSlot,
  decodeFleetState,
  encodeFleetState,
  recordDelivery,
  recordPending,
  wasDelivered,
  withPendingAsReported,
  withoutPending,
} from './fleet-state.js';
import { parseRedisUrl, redactRedisUrl } from './redis-url.js';
import { cycleJobId, outboxJobId, slotDueMs, slotOf, spreadOffsetMs } from './slots.js';

describe('slots', () => {
  it('spreadOffsetMs: within (0, interval), the same for the same id, and 10,000 ids spread evenly over a minute', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 1, max: 86_400_000 }), (id, interval) => {
        const offset = spreadOffsetMs(id, interval);
        expect(offset).toBe(spreadOffsetMs(id, interval));
        expect(offset).toBeGreaterThanOrEqual(1);
        if (interval > 2) expect(offset).toBeLessThan(interval);
      }),
    );
    const seconds = new Array<number>(60).fill(0);
    for (let i = 0; i < 10_000; i += 1) seconds[Math.floor(spreadOffsetMs(`hb-${i}`, 60_000) / 1000)]! += 1;
    // ≈ 167 per second offered: no second of the minute gets a herd.
    expect(Math.max(...seconds)).toBeLessThan(250);
    expect(Math.min(...seconds)).toBeGreaterThan(100);
  });

  it('names due times on the epoch grid of the interval', () => {
    expect(slotOf(1_000_000, 1000)).toBe(1000);
    expect(slotOf(1_000_999, 1000)).toBe(1000);
    expect(slotDueMs(1001, 1000)).toBe(1_001_000);
    expect(cycleJobId('repo-a', 42)).toBe('repo-a__42');
    expect(outboxJobId('repo-a', 7)).toBe('repo-a__7');
  });
});

describe('fleet heartbeat registrations', () => {
  it('accepts readable ids and rejects separators and odd characters', () => {
    for (const id of ['repo-a', 'r.1', 'A_b-2']) expect(isFleetHeartbeatId(id), id).toBe(true);
    for (const id of ['', 'a__b', 'a:b', '-x', 'x/y', 'a b', 'x'.repeat(101)]) expect(isFleetHeartbeatId(id), id).toBe(false);
  });

  it('fills the fake source defaults and names the bad field', () => {
    expect(parseFleetHeartbeat({ id: 'a', intervalMs: 1000, source: { kind: 'scanners', set: 'fake' } })._unsafeUnwrap().source).toEqual({
      kind: 'scanners',
      set: 'fake',
      scanMs: 0,
      reportEvery: 5,
    });
    expect(parseFleetHeartbeat({ id: 'a', intervalMs: 10, source: { kind: 'project', cwd: '/x' } })._unsafeUnwrapErr()).toContain(
      'intervalMs',
    );
    expect(parseFleetHeartbeat({ id: 'a', intervalMs: 1000, source: { kind: 'project', cwd: '/x' }, extra: 1 }).isErr()).toBe(true);
  });

  it('reads a stored registry entry: text that is not JSON is an error, never a throw', () => {
    const good = JSON.stringify({ id: 'a', intervalMs: 1000, source: { kind: 'project', cwd: '/x' } });
    expect(parseRegistryEntry(good)._unsafeUnwrap().id).toBe('a');
    expect(parseRegistryEntry('{"id": "a",')._unsafeUnwrapErr()).toMatch(/^not JSON: /);
    expect(parseRegistryEntry('[]')._unsafeUnwrapErr()).toContain('(root)');
    // Any text a hand edit could leave in the hash: a Result, never an exception.
    fc.assert(fc.property(fc.string(), (text) => parseRegistryEntry(text).isErr() || parseRegistryEntry(text).isOk()));
  });
});

describe('fleet state document', () => {
  it('starts fresh, round-trips, and tells a committed slot from a new one', () => {
    const fresh = decodeFleetState(undefined).state;
    expect(fresh.heartbeat.cycle).toBe(0);
    expect(decideSlot(fresh.fleet, 5)).toBe('run');
    const next = { heartbeat: { ...fresh.heartbeat, cycle: 3 }, fleet: { ...fresh.fleet, lastSlot: 5, lastCycle: 3 } };
    const decoded = decodeFleetState(encodeFleetState(next));
    expect(decoded).toEqual({ state: next, warnings: [] });
    expect(decideSlot(decoded.state.fleet, 5)).toBe('already-ran');
    expect(decideSlot(decoded.state.fleet, 4)).toBe('already-ran');
    expect(decideSlot(decoded.state.fleet, 6)).toBe('run');
  });

  it('starts fresh with a warning on a foreign document', () => {
    const decoded = decodeFleetState({ version: 9 });
    expect(decoded.state.heartbeat.cycle).toBe(0);
    expect(decoded.warnings[0]).toContain('not version 1');
  });

  it('remembers delivered messages idempotently and in a bounded window, and clears them from pending', () => {
    let meta = decodeFleetState(undefined).state.fleet;
    meta = recordPending(meta, 'h__2', 5, ['A:x']);
    meta = recordPending(meta, 'h__1', 6, ['B:y']);
    expect(meta.pending.map((p) => p.id)).toEqual(['h__2', 'h__1']);
    meta = recordDelivery(meta, 'h__2', 10, 'two');
    meta = recordDelivery(meta, 'h__2', 12, 'two again');
    expect(meta.delivered).toEqual(['h__2']);
    expect(meta.pending.map((p) => p.id)).toEqual(['h__1']);
    expect(wasDelivered(meta, 'h__2')).toBe(true);
    expect(wasDelivered(meta, 'h__1')).toBe(false);
    for (let cycle = 3; cycle < 200; cycle += 1) meta = recordDelivery(meta, `h__${cycle}`, cycle, '');
    expect(meta.delivered.length).toBe(64);
    expect(meta.delivered.at(-1)).toBe('h__199');
  });

  it('a recovery notice in a waiting message is not said again by the next slot (one RESOLVED line, issue 27 item 4)', () => {
    const fresh = decodeFleetState(undefined).state;
    const notice = (fingerprint: string) => ({
      fingerprint,
      category: 'ORCH_FAILURE',
      priority: 'Immediate' as const,
      line: `CRASHED: ${fingerprint}`,
    });
    const heartbeat = { ...fresh.heartbeat, recovery: { watched: {}, pending: [notice('ORCH_FAILURE:a'), notice('ORCH_FAILURE:b')] } };
    const meta = recordPending(fresh.fleet, 'h__4', 200, [], ['ORCH_FAILURE:a']);
    expect(meta.pending).toEqual([{ id: 'h__4', atMs: 200, fingerprints: [], resolved: ['ORCH_FAILURE:a'] }]);
    // The slot evaluates with only the notice no message carries yet.
    expect(withPendingAsReported(heartbeat, meta, 500).recovery?.pending.map((n) => n.fingerprint)).toEqual(['ORCH_FAILURE:b']);
    // Once the outbox confirmed it (recordDelivery), nothing is hidden.
    const delivered = recordDelivery(meta, 'h__4', 600, 'RESOLVED');
    expect(withPendingAsReported(heartbeat, delivered, 700)).toBe(heartbeat);
  });

  it('pending findings count as reported for evaluation only, never in the saved memory', () => {
    const fresh = decodeFleetState(undefined).state;
    const heartbeat = { ...fresh.heartbeat, reported: { 'A:old': 100 } };
    const meta = recordPending(fresh.fleet, 'h__3', 200, ['B:pending', 'A:old']);
    const augmented = withPendingAsReported(heartbeat, meta, 500);
    expect(augmented.reported).toEqual({ 'A:old': 500, 'B:pending': 500 });
    expect(withPendingAsReported(heartbeat, fresh.fleet, 500)).toBe(heartbeat);
    expect(withoutPending({ ...augmented, cycle: 9 }, heartbeat).reported).toEqual({ 'A:old': 100 });
    // An entry the evaluation let expire stays expired.
    expect(withoutPending({ ...augmented, reported: { 'B:pending': 500 } }, heartbeat).reported).toEqual({});
    // Content memory follows: none is kept for a finding only the outbox holds.
    const content = { 'A:old': { hash: 'aa', repeats: 0 }, 'B:pending': { hash: 'bb', repeats: 0 } };
    expect(withoutPending({ ...augmented, reportedContent: content }, heartbeat).reportedContent).toEqual({
      'A:old': { hash: 'aa', repeats: 0 },
    });
  });
});

describe('fake scanners', () => {
  it('find one failure whose subject changes every reportEvery slots, or nothing', async () => {
    const clock = createFakeClock(new Date('2026-01-01T00:00:00Z'));
    const scan = async (slot: number, reportEvery: number) => {
      const [scanner] = createFakeScanners({ heartbeatId: 'h', slot, sleep: clock, scanMs: 0, reportEvery });
      const result = await scanner!.scan({
        now: clock.now(),
        config: DEFAULT_HEARTBEAT_CONFIG,
        insideActiveHours: true,
        signal: new AbortController().signal,
      });
      return result.status === 'ok' ? result.findings.map((f) => f.fingerprint) : [];
    };
    expect(await scan(10, 5)).toEqual(['ORCH_FAILURE:orch-h-2']);
    expect(await scan(14, 5)).toEqual(['ORCH_FAILURE:orch-h-2']);
    expect(await scan(15, 5)).toEqual(['ORCH_FAILURE:orch-h-3']);
    expect(await scan(15, 0)).toEqual([]);
  });
});

describe('parseRedisUrl', () => {
  it.each([
    ['redis://127.0.0.1:6380', { kind: 'tcp', host: '127.0.0.1', port: 6380 }],
    ['redis://localhost', { kind: 'tcp', host: 'localhost', port: 6379 }],
    ['redis://:s3cret@127.0.0.1:6379/2', { kind: 'tcp', host: '127.0.0.1', port: 6379, db: 2, password: 's3cret' }],
    ['unix:///run/redis/redis.sock', { kind: 'unix', path: '/run/redis/redis.sock' }],
    ['redis+unix:///tmp/r.sock?db=3', { kind: 'unix', path: '/tmp/r.sock', db: 3 }],
    ['unix:///tmp/r.sock?password=s%26cret&username=app', { kind: 'unix', path: '/tmp/r.sock', password: 's&cret', username: 'app' }],
  ])('%s', (text, expected) => {
    expect(parseRedisUrl(text)._unsafeUnwrap()).toEqual(expected);
  });

  it('reads several comma-separated redis:// nodes, or one with `cluster`, as a Redis Cluster', () => {
    expect(parseRedisUrl('redis://127.0.0.1:7000, redis://:pw@127.0.0.1:7001')._unsafeUnwrap()).toEqual({
      kind: 'cluster',
      nodes: [
        { host: '127.0.0.1', port: 7000 },
        { host: '127.0.0.1', port: 7001 },
      ],
      password: 'pw',
    });
    expect(parseRedisUrl('redis://h:7000', { cluster: true })._unsafeUnwrap()).toEqual({
      kind: 'cluster',
      nodes: [{ host: 'h', port: 7000 }],
    });
    expect(parseRedisUrl('redis://h:7000,unix:///tmp/r.sock')._unsafeUnwrapErr()).toContain('is not a TCP node');
    expect(parseRedisUrl('redis://h:7000/2,redis://h:7001')._unsafeUnwrapErr()).toContain('names database 2');
    expect(parseRedisUrl('redis://h:7000,')._unsafeUnwrapErr()).toContain('an empty node');
    expect(parseRedisUrl('redis://:a@h:1,redis://:b@h:2')._unsafeUnwrapErr()).toContain('different passwords');
    expect(redactRedisUrl('redis://:a@h:1,redis://u:b@h:2')).toBe('redis://:***@h:1,redis://u:***@h:2');
  });

  it('never echoes a password in its errors', () => {
    expect(parseRedisUrl('redis://:s3cret@/0')._unsafeUnwrapErr()).not.toContain('s3cret');
    expect(parseRedisUrl('redis://app:s3cret@ho st:6379')._unsafeUnwrapErr()).not.toContain('s3cret');
    expect(redactRedisUrl('redis://app:s3:cr@t@10.0.0.1:6379/2')).toBe('redis://app:***@10.0.0.1:6379/2');
    expect(redactRedisUrl('redis://:s3cret@h')).toBe('redis://:***@h');
    expect(redactRedisUrl('redis://h:6379')).toBe('redis://h:6379');
    expect(redactRedisUrl('unix:///run/redis.sock')).toBe('unix:///run/redis.sock');
    expect(redactRedisUrl('unix:///run/redis.sock?db=1&password=s3cret&username=a')).toBe(
      'unix:///run/redis.sock?db=1&password=***&username=a',
    );
    expect(parseRedisUrl('unix://rel/sock?password=s3cret')._unsafeUnwrapErr()).not.toContain('s3cret');
  });

  it.each(['http://127.0.0.1', 'not a url', 'unix://relative/sock', 'redis://127.0.0.1/x', 'redis+unix:///s?db=-1'])(
    'rejects %s with the accepted forms',
    (text) => {
      expect(parseRedisUrl(text)._unsafeUnwrapErr()).toContain('unix:///path/redis.sock');
    },
  );
});
