import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findingContentHash, type Finding } from '../domain/finding.js';
import { scanOk, type ScanResult } from '../domain/scan-result.js';
import { ackActive, ackMatches, type Ack } from './ack-book.js';
import { decideAcks, type AckMemory } from './ack-decision.js';
import { createFinding } from '../../test/support/cobuilder-categories.js';

const NOW = new Date('2026-02-19T15:00:00Z');
const CATEGORIES = ['GIT_STALE', 'STALE_TASK', 'ORCH_FAILURE'] as const;
const SUBJECTS = ['a', 'b', 'c'] as const;

const findingArb = fc
  .record({ category: fc.constantFrom(...CATEGORIES), subject: fc.constantFrom(...SUBJECTS), v: fc.nat({ max: 2 }) })
  .map(({ category, subject, v }) =>
    createFinding({ category, subject, line: `${category} ${subject}`, action: 'do', short: subject, details: { v } }),
  );
const findingsArb = fc.uniqueArray(findingArb, { selector: (f) => f.fingerprint, maxLength: 6 });
const hashOf = (v: number): string =>
  findingContentHash(createFinding({ category: 'X', subject: 'x', line: '', action: '', short: '', details: { v } }));

const ackArb: fc.Arbitrary<Ack> = fc
  .record({
    n: fc.nat({ max: 1000 }),
    byCategory: fc.boolean(),
    category: fc.constantFrom(...CATEGORIES),
    subject: fc.constantFrom(...SUBJECTS),
    pinned: fc.option(fc.nat({ max: 2 }), { nil: undefined }),
    untilOffsetMin: fc.option(fc.integer({ min: -600, max: 600 }), { nil: undefined }),
    snooze: fc.boolean(),
  })
  .map(({ n, byCategory, category, subject, pinned, untilOffsetMin, snooze }) => {
    const fingerprint = `${category}:${subject}`;
    return {
      id: `ack-${n.toString(16)}`,
      selector: byCategory ? category : fingerprint,
      match: byCategory ? { kind: 'category', category } : { kind: 'fingerprint', fingerprint },
      ...(pinned === undefined ? {} : { hashes: { [fingerprint]: hashOf(pinned) } }),
      note: 'n',
      by: 'op',
      at: '2026-02-19T14:00:00.000Z',
      ...(untilOffsetMin === undefined ? {} : { until: new Date(NOW.getTime() + untilOffsetMin * 60_000).toISOString() }),
      snooze,
    } satisfies Ack;
  });
const acksArb = fc.uniqueArray(ackArb, { selector: (a) => a.id, maxLength: 4 });

const results = (findings: readonly Finding[]): ScanResult[] => [scanOk('git', { findings: [...findings] })];

describe('decideAcks (properties)', () => {
  it('partitions the findings: each is either passed on or held, never both, never lost', () => {
    fc.assert(
      fc.property(findingsArb, acksArb, (findings, acks) => {
        const d = decideAcks({ findings, acks, memory: undefined, results: results(findings), now: NOW });
        const out = [...d.pass.map((f) => f.fingerprint), ...d.held.map((h) => h.finding.fingerprint)].sort();
        expect(out).toEqual(findings.map((f) => f.fingerprint).sort());
      }),
    );
  });

  it('an expired ack never hides anything; every held finding is held by an active ack that matches it', () => {
    fc.assert(
      fc.property(findingsArb, acksArb, (findings, acks) => {
        const d = decideAcks({ findings, acks, memory: undefined, results: results(findings), now: NOW });
        for (const { finding, ack } of d.held) {
          expect(ackActive(ack, NOW)).toBe(true);
          expect(ackMatches(ack, finding)).toBe(true);
        }
        const expired = acks.map((a) => ({ ...a, until: new Date(NOW.getTime() - 1).toISOString() }));
        expect(decideAcks({ findings, acks: expired, memory: undefined, results: results(findings), now: NOW }).held).toEqual([]);
      }),
    );
  });

  it('an ack never hides a changed finding: a held finding has the content its ack acknowledged', () => {
    fc.assert(
      fc.property(findingsArb, findingsArb, acksArb, (earlier, later, acks) => {
        // Cycle 1 pins the content first held; cycle 2 may bring other content for the same fingerprints.
        const one = decideAcks({ findings: earlier, acks, memory: undefined, results: results(earlier), now: NOW });
        const two = decideAcks({ findings: later, acks, memory: one.memory, results: results(later), now: NOW });
        for (const { finding, ack } of two.held) {
          const hash = findingContentHash(finding);
          const pinned = ack.hashes?.[finding.fingerprint];
          if (pinned !== undefined) expect(pinned).toBe(hash);
          const first = one.held.find((h) => h.finding.fingerprint === finding.fingerprint && h.ack.id === ack.id);
          if (first !== undefined) expect(findingContentHash(first.finding)).toBe(hash);
        }
        // A changed one was reported as ended, never silently passed over.
        for (const { finding, ack } of one.held) {
          const now = later.find((f) => f.fingerprint === finding.fingerprint);
          if (now !== undefined && findingContentHash(now) !== findingContentHash(finding) && ackActive(ack, NOW))
            expect(two.held.some((h) => h.finding.fingerprint === finding.fingerprint && h.ack.id === ack.id)).toBe(false);
        }
      }),
    );
  });

  it('no acks: everything passes and nothing is remembered, whatever the memory said', () => {
    fc.assert(
      fc.property(findingsArb, acksArb, (findings, acks) => {
        const memory = decideAcks({ findings, acks, memory: undefined, results: results(findings), now: NOW }).memory;
        const d = decideAcks({ findings, acks: [], memory, results: results(findings), now: NOW });
        expect(d.pass).toEqual(findings);
        expect(d.held).toEqual([]);
        expect(d.memory).toEqual({});
      }),
    );
  });

  it('once an ack ended for a finding it never holds it again while it lasts', () => {
    fc.assert(
      fc.property(fc.array(findingsArb, { minLength: 2, maxLength: 6 }), acksArb, (cycles, acks) => {
        let memory: AckMemory | undefined;
        const ended = new Set<string>();
        for (const findings of cycles) {
          const d = decideAcks({ findings, acks, memory, results: results(findings), now: NOW });
          for (const h of d.held) expect(ended.has(`${h.ack.id} ${h.finding.fingerprint}`)).toBe(false);
          for (const e of d.ended) ended.add(`${e.ack.id} ${e.finding.fingerprint}`);
          memory = d.memory;
        }
      }),
    );
  });
});

describe('snooze', () => {
  const stale = createFinding({ category: 'GIT_STALE', subject: 'a', line: 'l', action: 'a', short: 's', details: { v: 1 } });
  const ack = (snooze: boolean): Ack => ({
    id: 'ack-1',
    selector: 'GIT_STALE:a',
    match: { kind: 'fingerprint', fingerprint: 'GIT_STALE:a' },
    note: 'n',
    by: 'op',
    at: '2026-02-19T14:00:00.000Z',
    snooze,
  });
  const run = (snooze: boolean, middle: ScanResult[]) => {
    const acks = [ack(snooze)];
    const one = decideAcks({ findings: [stale], acks, memory: undefined, results: results([stale]), now: NOW });
    const two = decideAcks({ findings: [], acks, memory: one.memory, results: middle, now: NOW });
    return { one, two, three: decideAcks({ findings: [stale], acks, memory: two.memory, results: results([stale]), now: NOW }) };
  };

  it('ends when the finding cleared (a completed scan of its scanner without it) and came back', () => {
    const { one, three } = run(true, [scanOk('git', { findings: [] })]);
    expect(one.held).toHaveLength(1);
    expect(three.held).toEqual([]);
    expect(three.ended).toEqual([{ finding: stale, ack: ack(true), reason: 'came-back' }]);
  });

  it('a failed or skipped scan is not a clearing: the snooze still holds', () => {
    const failed: ScanResult = { scanner: 'git', status: 'error', error: 'boom', durationMs: 1 };
    expect(run(true, [failed]).three.held).toHaveLength(1);
    expect(run(true, [scanOk('tmux', { findings: [] })]).three.held).toHaveLength(1);
  });

  it('a plain ack (not a snooze) outlives the clearing', () => {
    expect(run(false, [scanOk('git', { findings: [] })]).three.held).toHaveLength(1);
  });
});
