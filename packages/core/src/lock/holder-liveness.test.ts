import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LockRecord } from '../ports/lock-store.js';
import { judgeHolder, type ProcessProbe } from './holder-liveness.js';

const HOST = 'vm';
const host = fc.oneof(fc.constant(HOST), fc.string({ minLength: 1, maxLength: 12 }));
const start = fc.oneof(fc.constant('157731'), fc.stringMatching(/^\d{1,12}$/));
const record: fc.Arbitrary<LockRecord> = fc.record(
  {
    owner: fc.string({ minLength: 1, maxLength: 20 }),
    acquiredAtMs: fc.integer({ min: 0, max: 4_000_000_000_000 }),
    pid: fc.integer({ min: 1, max: 4_194_304 }),
    host,
    processStart: start,
  },
  { requiredKeys: ['owner', 'acquiredAtMs'] },
);
const probe: fc.Arbitrary<ProcessProbe> = fc.record(
  {
    signal: fc.constantFrom('exists', 'gone', 'other-user', 'unknown'),
    stat: fc.record({ state: fc.constantFrom('R', 'S', 'D', 'Z', 'T'), start }),
  },
  { requiredKeys: ['signal'] },
);
const sameHost = (r: LockRecord): boolean => r.pid !== undefined && r.host === HOST;

describe('judgeHolder', () => {
  it('another host, or a record without pid or host, is unknown whatever the probe says (the age decides)', () => {
    fc.assert(
      fc.property(record, probe, (r, p) => {
        fc.pre(!sameHost(r));
        expect(judgeHolder(r, HOST, p)).toBe('unknown');
      }),
    );
  });

  it('on this host, no such process (ESRCH) is dead at once', () => {
    fc.assert(
      fc.property(record, probe, (r, p) => {
        fc.pre(sameHost(r));
        expect(judgeHolder(r, HOST, { ...p, signal: 'gone' })).toBe('dead');
      }),
    );
  });

  it('a live pid with the recorded start time is alive; with another start time it is a reused pid: dead', () => {
    fc.assert(
      fc.property(record, start, start, fc.constantFrom<'exists' | 'other-user'>('exists', 'other-user'), (r, s1, s2, signal) => {
        fc.pre(sameHost(r) && s1 !== s2);
        const held = { ...r, processStart: s1 };
        expect(judgeHolder(held, HOST, { signal, stat: { state: 'S', start: s1 } })).toBe('alive');
        expect(judgeHolder(held, HOST, { signal, stat: { state: 'S', start: s2 } })).toBe('dead');
      }),
    );
  });

  it('a zombie is dead, even with the recorded start time', () => {
    fc.assert(
      fc.property(record, start, (r, s) => {
        fc.pre(sameHost(r));
        expect(judgeHolder({ ...r, processStart: s }, HOST, { signal: 'exists', stat: { state: 'Z', start: s } })).toBe('dead');
      }),
    );
  });

  it('a live pid whose start cannot be compared (none recorded, no /proc) is unknown, never alive: pid reuse cannot pin a lock', () => {
    fc.assert(
      fc.property(record, probe, (r, p) => {
        fc.pre(sameHost(r) && p.signal !== 'gone');
        const { processStart: _dropped, ...noStart } = r;
        expect(judgeHolder(noStart, HOST, p)).not.toBe('alive');
        const { stat: _none, ...noProc } = p;
        expect(judgeHolder(r, HOST, noProc)).toBe('unknown');
      }),
    );
  });

  it('alive only for the very process: same host, pid answering, not a zombie, same start', () => {
    fc.assert(
      fc.property(record, probe, (r, p) => {
        const verdict = judgeHolder(r, HOST, p);
        const expectedAlive =
          sameHost(r) &&
          (p.signal === 'exists' || p.signal === 'other-user') &&
          p.stat !== undefined &&
          p.stat.state !== 'Z' &&
          p.stat.start === r.processStart;
        expect(verdict === 'alive').toBe(expectedAlive);
      }),
    );
  });
});
