import { describe, expect, it } from 'vitest';
import type { Ack } from './ack-book.js';
import { ackHolding, acksOverPlan } from './ack-status.js';

const ack = (id: string, at: string, until?: string): Ack => ({
  id: `ack-${id}`,
  selector: 'GIT_STALE:feature-x',
  match: { kind: 'fingerprint', fingerprint: 'GIT_STALE:feature-x' },
  note: 'rebasing',
  by: 'alice',
  at,
  ...(until === undefined ? {} : { until }),
  snooze: false,
});
const slots = ['2026-02-19T15:00:00.000Z', '2026-02-19T15:10:00.000Z', '2026-02-19T15:20:00.000Z'];
const from = Date.parse('2026-02-19T14:55:00Z');

describe('acksOverPlan', () => {
  it('lists the acks in force at the start of the plan with the first slot at or after their end', () => {
    const acks = [
      ack('a1', '2026-02-19T14:00:00Z', '2026-02-19T15:10:00.000Z'), // ends exactly at a slot: that slot
      ack('a2', '2026-02-19T14:00:00Z', '2026-02-19T15:05:00.000Z'), // ends between slots: the next one
      ack('a3', '2026-02-19T14:00:00Z', '2026-02-19T18:00:00.000Z'), // outlasts the plan
      ack('a4', '2026-02-19T14:00:00Z'), // no end
      ack('a5', '2026-02-19T14:00:00Z', '2026-02-19T14:55:00.000Z'), // already ended
    ];
    expect(acksOverPlan(acks, slots, from).map((a) => [a.id, a.endsInSlot])).toEqual([
      ['ack-a1', '2026-02-19T15:10:00.000Z'],
      ['ack-a2', '2026-02-19T15:10:00.000Z'],
      ['ack-a3', undefined],
      ['ack-a4', undefined],
    ]);
    expect(acksOverPlan(acks, slots, from)[0]).toMatchObject({ by: 'alice', note: 'rebasing', until: '2026-02-19T15:10:00.000Z' });
  });
});

describe('ackHolding', () => {
  const now = Date.parse('2026-02-20T16:00:00Z');
  it('counts the findings held by acks in force, not those ended, cleared or of an expired ack', () => {
    const acks = [ack('a1', '2026-02-20T14:00:00Z', '2026-02-20T18:00:00Z'), ack('a2', '2026-02-20T10:00:00Z', '2026-02-20T12:00:00Z')];
    const memory = {
      'GIT_STALE:x': { ack: 'ack-a1', hash: 'ab' },
      'GIT_STALE:y': { ack: 'ack-a1', hash: 'ab', ended: 'changed' as const },
      'GIT_STALE:z': { ack: 'ack-a1', hash: 'ab', cleared: true as const },
      'GIT_STALE:w': { ack: 'ack-a2', hash: 'ab' },
      'GIT_STALE:v': { ack: 'ack-gone', hash: 'ab' },
    };
    expect(ackHolding(acks, memory, now, 24 * 3_600_000)).toEqual({ inForce: 1, held: ['GIT_STALE:x'], warnings: [] });
    expect(ackHolding([], undefined, now, 1)).toEqual({ inForce: 0, held: [], warnings: [] });
  });

  it('warns about an ack with no end older than the allowed age, and not about a younger one or one with an end', () => {
    const acks = [
      ack('old', '2026-02-19T10:00:00Z'),
      ack('young', '2026-02-20T15:00:00Z'),
      ack('dated', '2026-02-18T10:00:00Z', '2026-03-01T00:00:00Z'),
    ];
    const holding = ackHolding(acks, undefined, now, 24 * 3_600_000);
    expect(holding.inForce).toBe(3);
    expect(holding.warnings).toEqual([
      "ack ack-old (GIT_STALE:feature-x) has no end and was written 30 h ago (2026-02-19T10:00:00Z), longer than 24 h: is it forgotten? Fix: 'heartbeat-kit unack ack-old', or ack again with --for or --until",
    ]);
  });
});
