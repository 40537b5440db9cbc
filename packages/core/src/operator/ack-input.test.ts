import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_HEARTBEAT_CONFIG } from '../config/heartbeat-config-schema.js';
import { evaluateCycle, markDelivered } from '../cycle/evaluate-cycle.js';
import { decodeHeartbeatState } from '../cycle/heartbeat-state.js';
import { findingContentHash } from '../domain/finding.js';
import { scanOk } from '../domain/scan-result.js';
import { stableFindingId } from '../messages/message-id.js';
import { emptyAckBook } from './ack-book.js';
import { ackEnd, addAck, knownFindingsOf, removeAcks, resolveAckSelector, validateAckNote } from './ack-input.js';
import { createFinding, DEFAULT_CATEGORIES } from '../../test/support/cobuilder-categories.js';

const NOW = new Date('2026-02-19T15:00:00Z');
const stale = (branch: string) =>
  createFinding({
    category: 'GIT_STALE',
    subject: '/w/feature-x',
    line: 'STALE',
    action: 'commit',
    short: 'x',
    details: { branch },
    content: { branch },
  });

describe('validateAckNote', () => {
  it('requires a note of 1 to 500 characters (blanks alone are no note)', () => {
    expect(validateAckNote(undefined)._unsafeUnwrapErr().flag).toBe('--note');
    expect(validateAckNote('  \n ')._unsafeUnwrapErr().message).toMatch(/must not be empty\. Fix: /);
    expect(validateAckNote('x'.repeat(500))._unsafeUnwrap()).toHaveLength(500);
    expect(validateAckNote('x'.repeat(501))._unsafeUnwrapErr().message).toMatch(/501 characters, more than 500\. Fix: /);
  });

  it('any text: accepted exactly when its trimmed length is 1..500 characters', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 600, unit: 'grapheme' }), (text) => {
        const length = [...text.trim()].length;
        expect(validateAckNote(text).isOk()).toBe(length >= 1 && length <= 500);
      }),
    );
  });
});

describe('ackEnd', () => {
  it('--for counts from now, --until must be ahead, both is an error, neither has no end', () => {
    expect(ackEnd({ forMs: 4 * 3_600_000, now: NOW })._unsafeUnwrap()).toBe('2026-02-19T19:00:00.000Z');
    expect(ackEnd({ until: new Date('2026-02-19T16:00:00Z'), now: NOW })._unsafeUnwrap()).toBe('2026-02-19T16:00:00.000Z');
    expect(ackEnd({ until: NOW, now: NOW })._unsafeUnwrapErr().flag).toBe('--until');
    expect(ackEnd({ forMs: 1, until: new Date('2026-02-20T00:00:00Z'), now: NOW })._unsafeUnwrapErr().flag).toBe('--for');
    expect(ackEnd({ now: NOW })._unsafeUnwrap()).toBeUndefined();
  });
});

describe('resolveAckSelector', () => {
  const finding = stale('feature-x');
  const delivered = markDelivered(
    evaluateCycle(decodeHeartbeatState(undefined).state, [scanOk('git', { findings: [finding] })], {
      now: NOW,
      config: DEFAULT_HEARTBEAT_CONFIG,
      timeZone: 'UTC',
      insideActiveHours: true,
      operatorLastActiveAt: undefined,
    }).nextState,
    evaluateCycle(decodeHeartbeatState(undefined).state, [scanOk('git', { findings: [finding] })], {
      now: NOW,
      config: DEFAULT_HEARTBEAT_CONFIG,
      timeZone: 'UTC',
      insideActiveHours: true,
      operatorLastActiveAt: undefined,
    }).decision,
    NOW,
  );
  const known = knownFindingsOf(delivered);

  it('a finding id as reports print it pins the fingerprint and the content the operator saw', () => {
    const resolved = resolveAckSelector(stableFindingId(finding), known, DEFAULT_CATEGORIES)._unsafeUnwrap();
    expect(resolved).toEqual({
      match: { kind: 'fingerprint', fingerprint: finding.fingerprint },
      hashes: { [finding.fingerprint]: findingContentHash(finding) },
    });
  });

  it('a fingerprint, a CATEGORY:SUBJECT of a known category, a bare category', () => {
    expect(resolveAckSelector(finding.fingerprint, known, DEFAULT_CATEGORIES)._unsafeUnwrap().hashes).toEqual({
      [finding.fingerprint]: findingContentHash(finding),
    });
    expect(resolveAckSelector('GIT_STALE:/w/other', known, DEFAULT_CATEGORIES)._unsafeUnwrap()).toEqual({
      match: { kind: 'fingerprint', fingerprint: 'GIT_STALE:/w/other' },
      hashes: {},
    });
    expect(resolveAckSelector('GIT_STALE', known, DEFAULT_CATEGORIES)._unsafeUnwrap().match).toEqual({
      kind: 'category',
      category: 'GIT_STALE',
    });
  });

  it('anything unknown is an error naming SELECTOR and the fix', () => {
    for (const selector of ['NOPE', 'NOPE:x', 'hbf-00', '', 'GIT_STALE:', ':x']) {
      const error = resolveAckSelector(selector, known, DEFAULT_CATEGORIES)._unsafeUnwrapErr();
      expect(error.flag).toBe('SELECTOR');
      expect(error.message).toMatch(/Fix: /);
    }
  });
});

describe('addAck and removeAcks', () => {
  const resolved = { match: { kind: 'fingerprint' as const, fingerprint: 'GIT_STALE:/w/x' }, hashes: {} };
  it('a re-ack of the same target replaces the older ack; unack by id, selector or fingerprint', () => {
    const one = addAck(emptyAckBook(), {
      selector: 'GIT_STALE:/w/x',
      resolved,
      note: 'a',
      by: 'op',
      at: NOW,
      snooze: false,
    })._unsafeUnwrap();
    const two = addAck(one.book, {
      selector: 'GIT_STALE:/w/x',
      resolved,
      note: 'b',
      by: 'op',
      at: new Date(NOW.getTime() + 1),
      until: '2026-02-20T00:00:00.000Z',
      snooze: true,
    })._unsafeUnwrap();
    expect(two.book.acks).toEqual([two.ack]);
    expect(two.ack).toMatchObject({ note: 'b', snooze: true, until: '2026-02-20T00:00:00.000Z' });
    expect(removeAcks(two.book, two.ack.id)._unsafeUnwrap().book.acks).toEqual([]);
    expect(removeAcks(two.book, 'GIT_STALE:/w/x')._unsafeUnwrap().removed).toEqual([two.ack]);
    expect(removeAcks(two.book, 'NOPE')._unsafeUnwrapErr().message).toMatch(/no ack matches "NOPE"\. Fix: /);
  });
});

describe('evaluateCycle with acks', () => {
  it('holds an acked finding past its repeat schedule, then reports it at once when its content changes', () => {
    const context = {
      config: DEFAULT_HEARTBEAT_CONFIG,
      timeZone: 'UTC',
      insideActiveHours: true,
      operatorLastActiveAt: undefined,
    } as const;
    const first = evaluateCycle(decodeHeartbeatState(undefined).state, [scanOk('git', { findings: [stale('a')] })], {
      ...context,
      now: NOW,
    });
    const state = markDelivered(first.nextState, first.decision, NOW);
    const resolved = resolveAckSelector(stale('a').fingerprint, knownFindingsOf(state), DEFAULT_CATEGORIES)._unsafeUnwrap();
    const { ack } = addAck(emptyAckBook(), { selector: 'x', resolved, note: 'n', by: 'op', at: NOW, snooze: false })._unsafeUnwrap();
    const later = new Date(NOW.getTime() + 3 * 3_600_000);
    const heldCycle = evaluateCycle(state, [scanOk('git', { findings: [stale('a')] })], { ...context, now: later, acks: [ack] });
    expect(heldCycle.decision.message).toBeNull();
    expect(heldCycle.decision.suppressed).toEqual([{ finding: stale('a'), reason: 'ack', ack }]);
    // Another branch: changed content ends the ack and is reported at once.
    const changed = evaluateCycle(heldCycle.nextState, [scanOk('git', { findings: [stale('b')] })], {
      ...context,
      now: new Date(later.getTime() + 60_000),
      acks: [ack],
    });
    expect(changed.decision.reportable).toEqual([stale('b')]);
    expect(changed.nextState.acked?.[stale('b').fingerprint]?.ended).toBe('changed');
  });
});
