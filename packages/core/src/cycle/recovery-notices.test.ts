import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Finding } from '../domain/finding.js';
import { scanOk, type ScanResult } from '../domain/scan-result.js';
import { defineCategories } from '../domain/category-table.js';
import { evaluateCycle, markDelivered } from './evaluate-cycle.js';
import { initialHeartbeatState, type HeartbeatState } from './heartbeat-state.js';
import { splitByRoute } from './route-split.js';
import { cycleContext } from '../../test/support/cycle-context.js';
import { createFinding, DEFAULT_CATEGORIES } from '../../test/support/cobuilder-categories.js';

const MIN = 60_000;
const T0 = Date.parse('2026-02-19T14:00:00Z');

const crash = (subject: string): Finding =>
  createFinding({
    category: 'ORCH_FAILURE',
    subject,
    line: `CRASHED: ${subject} (bead b-1 still in_progress)`,
    action: `Re-launch ${subject}`,
    short: `${subject} crashed`,
  });
const tmuxDown = createFinding({
  category: 'TMUX_DOWN',
  subject: 'tmux',
  line: 'TMUX DOWN: no tmux server',
  action: 'Start tmux',
  short: 'tmux down',
});
const p0 = createFinding({ category: 'P0_WORK_READY', subject: 'b-9', line: 'P0 READY: b-9', action: 'Assign b-9', short: 'b-9' });
const stale = createFinding({ category: 'GIT_STALE', subject: '/wt', line: 'STALE: /wt', action: 'Commit /wt', short: 'wt' });

const at = (minutes: number, overrides: Parameters<typeof cycleContext>[1] = {}) =>
  cycleContext(new Date(T0 + minutes * MIN).toISOString(), overrides);

/** One cycle as the runner does it: evaluate, then remember a delivery when `delivered`. */
function step(
  state: HeartbeatState,
  results: ScanResult[],
  minutes: number,
  delivered = true,
  overrides: Parameters<typeof cycleContext>[1] = {},
) {
  const context = at(minutes, overrides);
  const { decision, nextState } = evaluateCycle(state, results, context);
  return { decision, state: delivered ? markDelivered(nextState, decision, context.now) : nextState };
}

describe('recovery notices', () => {
  it('a delivered crash that clears gives one RESOLVED line in a short report, never HEARTBEAT_OK, and only once', () => {
    let s = initialHeartbeatState();
    ({ state: s } = step(s, [scanOk('orchestrators', { findings: [crash('orch-a')] })], 0));
    const cleared = step(s, [scanOk('orchestrators', {})], 10);
    expect(cleared.decision.status).toBe('report');
    expect(cleared.decision.message?.kind).toBe('resolved');
    const lines = cleared.decision.message!.content.split('\n');
    expect(lines.filter((l) => l.startsWith('RESOLVED: '))).toEqual(['RESOLVED: CRASHED: orch-a (bead b-1 still in_progress)']);
    expect(cleared.decision.resolved?.map((n) => n.fingerprint)).toEqual(['ORCH_FAILURE:orch-a']);
    const after = step(cleared.state, [scanOk('orchestrators', {})], 20);
    expect(after.decision.status).toBe('ok');
    expect(after.decision.message).toBeNull();
  });

  it('waits for the category’s confirm cycles before saying it cleared', () => {
    const table = defineCategories({ FLAPPY: { priority: 'Immediate', outsideActiveHours: true, confirmCycles: 2 } });
    const flappy = table.createFinding({ category: 'FLAPPY', subject: 'x', line: 'FLAPPY x', action: 'Fix x', short: 'x' });
    let s = initialHeartbeatState();
    const o = { categories: table };
    ({ state: s } = step(s, [scanOk('w', { findings: [flappy] })], 0, true, o));
    ({ state: s } = step(s, [scanOk('w', { findings: [flappy] })], 1, true, o));
    const gone1 = step(s, [scanOk('w', {})], 2, true, o);
    expect(gone1.decision.resolved).toBeUndefined();
    const gone2 = step(gone1.state, [scanOk('w', {})], 3, true, o);
    expect(gone2.decision.resolved?.map((n) => n.fingerprint)).toEqual(['FLAPPY:x']);
  });

  it('never for a finding that was never delivered: a failed delivery, or held while the operator is busy', () => {
    let s = initialHeartbeatState();
    ({ state: s } = step(s, [scanOk('orchestrators', { findings: [crash('orch-a')] })], 0, false));
    expect(step(s, [scanOk('orchestrators', {})], 10).decision.status).toBe('ok');
    // An Advisory held while the operator is busy, then gone: nothing was told, nothing resolves.
    const switched = defineCategories(
      { GIT_STALE: { priority: 'Advisory', outsideActiveHours: false, recoveryNotice: true } },
      { extend: DEFAULT_CATEGORIES },
    );
    const busy = { operatorLastActiveAt: new Date(T0), categories: switched };
    let t = initialHeartbeatState();
    ({ state: t } = step(t, [scanOk('git', { findings: [stale] })], 1, true, busy));
    expect(step(t, [scanOk('git', {})], 2, true, busy).decision.resolved).toBeUndefined();
  });

  it('is off for Advisory by default and switchable per category in the table', () => {
    let s = initialHeartbeatState();
    ({ state: s } = step(s, [scanOk('git', { findings: [stale] })], 0));
    expect(step(s, [scanOk('git', {})], 10).decision.status).toBe('ok');
    const off = defineCategories(
      { ORCH_FAILURE: { priority: 'Immediate', outsideActiveHours: true, recoveryNotice: false } },
      { extend: DEFAULT_CATEGORIES },
    );
    let t = initialHeartbeatState();
    ({ state: t } = step(t, [scanOk('orchestrators', { findings: [crash('orch-a')] })], 0, true, { categories: off }));
    expect(step(t, [scanOk('orchestrators', {})], 10, true, { categories: off }).decision.status).toBe('ok');
  });

  it('does not clear what was not looked at: its scanner failed, warned, or a source it depends on failed (bd)', () => {
    let s = initialHeartbeatState();
    ({ state: s } = step(s, [scanOk('beads', { findings: [p0] }), scanOk('orchestrators', { findings: [crash('orch-a')] })], 0));
    const bdDown: ScanResult[] = [
      { scanner: 'beads', status: 'error', error: 'bd: database is locked', durationMs: 1 },
      scanOk('orchestrators', { warnings: [{ code: 'BEADS_UNAVAILABLE', message: 'bd: database is locked' }] }),
    ];
    const down = step(s, bdDown, 10);
    expect(down.decision.resolved).toBeUndefined();
    expect(down.decision.status).toBe('ok');
    // bd works again and both are really gone: each resolves once.
    const back = step(down.state, [scanOk('beads', {}), scanOk('orchestrators', {})], 20);
    expect(back.decision.resolved?.map((n) => n.fingerprint).sort()).toEqual(['ORCH_FAILURE:orch-a', 'P0_WORK_READY:b-9']);
  });

  it('a notice whose delivery failed is offered again; one whose finding came back is dropped', () => {
    let s = initialHeartbeatState();
    ({ state: s } = step(s, [scanOk('orchestrators', { findings: [crash('orch-a')] })], 0));
    const failed = step(s, [scanOk('orchestrators', {})], 10, false);
    expect(failed.decision.resolved).toHaveLength(1);
    const retried = step(failed.state, [scanOk('orchestrators', {})], 20, false);
    expect(retried.decision.resolved).toHaveLength(1);
    const back = step(retried.state, [scanOk('orchestrators', { findings: [crash('orch-a')] })], 30, false);
    expect(back.decision.resolved).toBeUndefined();
  });
});

describe('inhibition', () => {
  it('TMUX_DOWN hides every ORCH_FAILURE: one finding, not one per session, and their recoveries wait', () => {
    let s = initialHeartbeatState();
    ({ state: s } = step(s, [scanOk('orchestrators', { findings: [crash('orch-a')] })], 0));
    const sessions = ['orch-a', 'orch-b', 'orch-c'].map(crash);
    const down = step(s, [scanOk('orchestrators', { findings: [tmuxDown, ...sessions] })], 10);
    expect(down.decision.reportable.map((f) => f.fingerprint)).toEqual(['TMUX_DOWN:tmux']);
    expect(down.decision.inhibited?.map((i) => [i.finding.fingerprint, i.by])).toEqual([
      ['ORCH_FAILURE:orch-a', 'TMUX_DOWN'],
      ['ORCH_FAILURE:orch-b', 'TMUX_DOWN'],
      ['ORCH_FAILURE:orch-c', 'TMUX_DOWN'],
    ]);
    expect(down.decision.message!.content.split('\n')[0]).toBe('WORK_FOUND: TMUX_DOWN');
  });

  it('an embedder declares its own: a failing scanner or warning code hides the findings that depend on it', () => {
    const table = defineCategories({
      QUEUE_STUCK: { priority: 'Immediate', outsideActiveHours: true, inhibitedBy: ['broker', 'BROKER_SLOW'] },
    });
    const stuck = table.createFinding({ category: 'QUEUE_STUCK', subject: 'q', line: 'STUCK q', action: 'Drain q', short: 'q' });
    const o = { categories: table };
    const failing = step(
      initialHeartbeatState(),
      [scanOk('queues', { findings: [stuck] }), { scanner: 'broker', status: 'timeout', timeoutMs: 5, durationMs: 5 }],
      0,
      true,
      o,
    );
    expect(failing.decision.status).toBe('ok');
    expect(failing.decision.inhibited?.[0]?.by).toBe('broker');
    const slow = step(
      initialHeartbeatState(),
      [scanOk('queues', { findings: [stuck], warnings: [{ code: 'BROKER_SLOW', message: 'slow' }] })],
      0,
      true,
      o,
    );
    expect(slow.decision.inhibited?.[0]?.by).toBe('BROKER_SLOW');
    expect(step(initialHeartbeatState(), [scanOk('queues', { findings: [stuck] })], 0, true, o).decision.reportable).toHaveLength(1);
  });
});

describe('recovery notices (properties)', () => {
  const table = defineCategories({
    CRASH: { priority: 'Immediate', outsideActiveHours: true, confirmCycles: 2 },
    NOTE: { priority: 'Advisory', outsideActiveHours: true },
  });
  const findingOf = (category: 'CRASH' | 'NOTE', subject: string): Finding =>
    table.createFinding({ category, subject, line: `${category} ${subject}`, action: `fix ${subject}`, short: subject });
  const cycleArb = fc.record({
    present: fc.subarray(['CRASH:a', 'CRASH:b', 'NOTE:a'] as const),
    scannerFails: fc.boolean(),
    delivered: fc.boolean(),
    busy: fc.boolean(),
    gapMinutes: fc.integer({ min: 1, max: 90 }),
  });

  it('no RESOLVED without a prior delivery; at most one RESOLVED per clear; never for what is still there', () => {
    fc.assert(
      fc.property(fc.array(cycleArb, { minLength: 1, maxLength: 25 }), (cycles) => {
        let state = initialHeartbeatState();
        let minutes = 0;
        // Fingerprints delivered since their last delivered RESOLVED: the only ones that may resolve.
        const open = new Set<string>();
        for (const c of cycles) {
          minutes += c.gapMinutes;
          const findings = c.present.map((fp) => findingOf(fp.split(':')[0] as 'CRASH' | 'NOTE', fp.split(':')[1]!));
          const results: ScanResult[] = c.scannerFails
            ? [{ scanner: 'w', status: 'error', error: 'down', durationMs: 1 }]
            : [scanOk('w', { findings })];
          const context = at(minutes, { categories: table, ...(c.busy ? { operatorLastActiveAt: new Date(T0 + minutes * MIN) } : {}) });
          const { decision, nextState } = evaluateCycle(state, results, context);
          const resolved = decision.resolved ?? [];
          const resolvedLines = decision.message?.content.split('\n').filter((l) => l.startsWith('RESOLVED: ')) ?? [];
          expect(resolvedLines).toHaveLength(resolved.length);
          expect(new Set(resolved.map((n) => n.fingerprint)).size).toBe(resolved.length);
          for (const notice of resolved) {
            expect(open.has(notice.fingerprint)).toBe(true);
            expect(notice.category).toBe('CRASH');
            expect(c.scannerFails ? [] : c.present).not.toContain(notice.fingerprint);
          }
          if (decision.message !== null && c.delivered) {
            for (const notice of resolved) open.delete(notice.fingerprint);
            for (const f of decision.reportable) open.add(f.fingerprint);
            state = markDelivered(nextState, decision, context.now);
          } else state = nextState;
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('routes', () => {
  it('splits a report by priority: each route its own message with its own id and its own RESOLVED lines', () => {
    let s = initialHeartbeatState();
    ({ state: s } = step(s, [scanOk('orchestrators', { findings: [crash('orch-a')] })], 0));
    const { decision } = step(s, [scanOk('orchestrators', {}), scanOk('git', { findings: [stale] })], 10, false);
    const parts = splitByRoute(decision, new Set(['Immediate'] as const), {
      timeZone: 'UTC',
      budgetTokens: 4000,
      reportsSent: s.reportsSent,
    });
    expect(parts.map((p) => [p.route, p.reportable.map((f) => f.fingerprint), p.resolved.map((n) => n.fingerprint)])).toEqual([
      ['Immediate', [], ['ORCH_FAILURE:orch-a']],
      ['default', ['GIT_STALE:/wt'], []],
    ]);
    expect(parts[0]!.message.content.startsWith('RESOLVED: CRASHED: orch-a')).toBe(true);
    expect(parts[1]!.message.content.startsWith('WORK_FOUND: GIT_STALE')).toBe(true);
    expect(parts[0]!.message.id).not.toBe(parts[1]!.message.id);
  });
});
