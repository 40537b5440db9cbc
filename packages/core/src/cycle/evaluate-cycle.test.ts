import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_HEARTBEAT_CONFIG, type HeartbeatConfig } from '../config/heartbeat-config-schema.js';
import { type Finding } from '../domain/finding.js';
import { scanOk, type ScanResult } from '../domain/scan-result.js';
import { BUILTIN_SCANNERS } from '../../test/support/cobuilder-categories.js';
import { defineCategories } from '../domain/category-table.js';
import { evaluateCycle, markDelivered } from './evaluate-cycle.js';
import { initialHeartbeatState, type HeartbeatState } from './heartbeat-state.js';
import { cycleContext } from '../../test/support/cycle-context.js';
import { createFinding, COBUILDER_CATEGORIES, DEFAULT_CATEGORIES } from '../../test/support/cobuilder-categories.js';

const MIN = 60_000;

const crash = createFinding({
  category: 'ORCH_FAILURE',
  subject: 'orch-auth',
  line: 'CRASHED: orch-auth (bead beads-a3m9 still in_progress)',
  action: 'Re-launch orch-auth for beads-a3m9',
  short: 'orch-auth crashed',
});
const p1 = createFinding({
  category: 'P1_WORK_READY',
  subject: 'beads-f7k2',
  line: "P1 READY: beads-f7k2 'Implement JWT validation'",
  action: 'Assign beads-f7k2 to existing or new orchestrator',
  short: 'JWT validation ready',
});
const stale = createFinding({
  category: 'GIT_STALE',
  subject: '/repo/wt',
  line: 'STALE: /repo/wt',
  action: 'Commit or stash /repo/wt',
  short: 'wt stale',
});

function stateAt(cycle: number): HeartbeatState {
  return { ...initialHeartbeatState(), cycle };
}

describe('spec 000 example cycles', () => {
  it('cycle #12: nothing actionable → HEARTBEAT_OK, zero tokens', () => {
    const results: ScanResult[] = [
      scanOk('beads', {}),
      scanOk('orchestrators', {}),
      scanOk('git', {}),
      scanOk('stale-tasks', {}),
      scanOk('idle-orchestrators', { slice: { version: 1, data: { panes: { 'orch-auth': { hash: 'h1', sinceMs: 1 } } } } }),
    ];
    const { decision, nextState } = evaluateCycle(stateAt(11), results, cycleContext('2026-02-19T14:20:00Z'));
    expect(decision.cycle).toBe(12);
    expect(decision.status).toBe('ok');
    expect(decision.message).toBeNull();
    expect(decision.estimatedTokens).toBe(0);
    // The scanner's slice is kept as it returned it (what is in it is the scanner's business).
    expect(nextState.scannerSlices?.['idle-orchestrators']).toEqual({
      version: 1,
      data: { panes: { 'orch-auth': { hash: 'h1', sinceMs: 1 } } },
    });
  });

  it('cycle #15: orchestrator crash + P1 ready → one WORK_FOUND message in the spec shape', () => {
    const results: ScanResult[] = [scanOk('beads', { findings: [p1] }), scanOk('orchestrators', { findings: [crash] })];
    // The operator is busy: both categories are Immediate, so they are sent anyway.
    const { decision } = evaluateCycle(
      stateAt(14),
      results,
      cycleContext('2026-02-19T14:50:00Z', { operatorLastActiveAt: new Date('2026-02-19T14:49:00Z') }),
    );
    expect(decision.status).toBe('report');
    expect(decision.operatorIdle).toBe(false);
    expect(decision.categories).toEqual(['ORCH_FAILURE', 'P1_WORK_READY']);
    const content = decision.message!.content;
    const [body, costLine] = [content.slice(0, content.lastIndexOf('\n')), content.slice(content.lastIndexOf('\n') + 1)];
    expect(body).toBe(
      "WORK_FOUND: ORCH_FAILURE + P1_WORK_READY\n\n## Context Brief\nOrchestrator crash detected AND new P1 work ready.\n\n## Findings\nCRASHED: orch-auth (bead beads-a3m9 still in_progress)\nP1 READY: beads-f7k2 'Implement JWT validation'\n\n## Recommended Action\n1. Re-launch orch-auth for beads-a3m9\n2. Assign beads-f7k2 to existing or new orchestrator\n\n## Source\nHeartbeat cycle #15 at 2026-02-19T14:50:00",
    );
    expect(costLine).toBe(`Token cost this cycle: ~${Math.ceil(content.length / 4)} tokens`);
    expect(decision.estimatedTokens).toBe(Math.ceil(content.length / 4));
    expect(decision.message!.summary).toBe('ORCH_FAILURE + P1_WORK_READY -- orch-auth crashed, JWT validation ready');
  });
});

describe('report rules', () => {
  it('holds Advisory findings while the operator is busy and does not mark them reported', () => {
    const busy = cycleContext('2026-02-19T15:00:00Z', { operatorLastActiveAt: new Date('2026-02-19T14:58:00Z') });
    const first = evaluateCycle(stateAt(0), [scanOk('git', { findings: [stale] })], busy);
    expect(first.decision.held.map((f) => f.fingerprint)).toEqual([stale.fingerprint]);
    expect(first.decision.message).toBeNull();
    const afterDelivery = markDelivered(first.nextState, first.decision, busy.now);
    expect(afterDelivery.reported[stale.fingerprint]).toBeUndefined();
    // Five minutes later the operator is idle: the held finding goes out.
    const idle = cycleContext('2026-02-19T15:05:00Z', { operatorLastActiveAt: new Date('2026-02-19T14:58:00Z') });
    const second = evaluateCycle(afterDelivery, [scanOk('git', { findings: [stale] })], idle);
    expect(second.decision.reportable.map((f) => f.fingerprint)).toEqual([stale.fingerprint]);
  });

  it('unknown operator activity counts as idle', () => {
    const { decision } = evaluateCycle(stateAt(0), [scanOk('git', { findings: [stale] })], cycleContext('2026-02-19T15:00:00Z'));
    expect(decision.operatorIdle).toBe(true);
    expect(decision.status).toBe('report');
  });

  it('outside active hours only the critical categories are reported', () => {
    const { decision } = evaluateCycle(
      stateAt(0),
      [scanOk('x', { findings: [stale, crash] })],
      cycleContext('2026-02-19T23:00:00Z', { insideActiveHours: false }),
    );
    expect(decision.categories).toEqual(['ORCH_FAILURE']);
    expect(decision.suppressed).toEqual([{ finding: stale, reason: 'outside-active-hours' }]);
  });

  it("outside active hours an embedder's category the table lacks follows its scanner's switch; a table entry and the built-ins decide for theirs", () => {
    const own = (category: string): Finding =>
      createFinding({ category, priority: 'Normal', subject: 'inbox', line: `${category}: inbox`, action: 'Triage', short: 'inbox' });
    const night = cycleContext('2026-02-19T04:00:00Z', { insideActiveHours: false });
    // Only scanners with runsOutsideActiveHours run at night, so a fresh result is from one of them.
    const unregistered = evaluateCycle(stateAt(0), [scanOk('inbox', { findings: [own('INBOX_WAITING')] })], night).decision;
    expect(unregistered.categories).toEqual(['INBOX_WAITING']);
    expect(unregistered.suppressed).toEqual([]);
    const table = defineCategories({ INBOX_WAITING: { priority: 'Normal', outsideActiveHours: false } }, { extend: DEFAULT_CATEGORIES });
    const declared = evaluateCycle(stateAt(0), [scanOk('inbox', { findings: [own('INBOX_WAITING'), stale] })], {
      ...night,
      categories: table,
    }).decision;
    expect(declared.status).toBe('ok');
    expect(declared.suppressed.map((s) => [s.finding.category, s.reason]).sort()).toEqual([
      ['GIT_STALE', 'outside-active-hours'],
      ['INBOX_WAITING', 'outside-active-hours'],
    ]);
  });

  it('property: outside active hours, a finding of a category the table lacks is reported iff it came from this scan', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Z][A-Z_]{0,15}$/), fc.boolean(), (category, fresh) => {
        fc.pre(!(COBUILDER_CATEGORIES as readonly string[]).includes(category) && category !== 'SCANNER_FAILING');
        const finding = createFinding({ category, priority: 'Advisory', subject: 's', line: `${category}: s`, action: 'a', short: 's' });
        const state: HeartbeatState = fresh ? stateAt(0) : { ...stateAt(0), undelivered: [finding] };
        const { decision } = evaluateCycle(
          state,
          fresh ? [scanOk('mine', { findings: [finding] })] : [],
          cycleContext('2026-02-19T04:00:00Z', { insideActiveHours: false }),
        );
        expect(decision.reportable.length === 1).toBe(fresh);
      }),
    );
  });

  it('dedups a delivered fingerprint for the window, then reports it again', () => {
    const t0 = Date.parse('2026-02-19T10:00:00Z');
    let state = stateAt(0);
    const outcomes: string[] = [];
    for (let i = 0; i <= 4; i++) {
      const now = new Date(t0 + i * 10 * MIN);
      const { decision, nextState } = evaluateCycle(
        state,
        [scanOk('orchestrators', { findings: [crash] })],
        cycleContext(now.toISOString()),
      );
      state = markDelivered(nextState, decision, now);
      outcomes.push(decision.status);
    }
    // Reported at 0, suppressed at 10 and 20 min, reported again at 30 (window is [t, t+30min)), suppressed at 40.
    expect(outcomes).toEqual(['report', 'ok', 'ok', 'report', 'ok']);
  });

  it('a failed delivery leaves findings unreported for the next cycle', () => {
    const now = new Date('2026-02-19T10:00:00Z');
    const first = evaluateCycle(stateAt(0), [scanOk('orchestrators', { findings: [crash] })], cycleContext(now.toISOString()));
    // No markDelivered: delivery failed.
    const second = evaluateCycle(first.nextState, [scanOk('orchestrators', { findings: [crash] })], cycleContext('2026-02-19T10:10:00Z'));
    expect(second.decision.status).toBe('report');
  });
});

describe('cross-cycle rules', () => {
  it('PIPELINE_STALLED needs two consecutive confirming cycles', () => {
    const stalled = createFinding({
      category: 'PIPELINE_STALLED',
      subject: 'p:Implementation',
      line: 'STALLED',
      action: 'Check',
      short: 'p stalled',
    });
    const a = evaluateCycle(stateAt(0), [scanOk('pipelines', { findings: [stalled] })], cycleContext('2026-02-19T10:00:00Z'));
    expect(a.decision.status).toBe('ok');
    expect(a.decision.unconfirmed).toEqual([{ finding: stalled, seenCycles: 1, neededCycles: 2 }]);
    const b = evaluateCycle(a.nextState, [scanOk('pipelines', { findings: [stalled] })], cycleContext('2026-02-19T10:10:00Z'));
    expect(b.decision.categories).toEqual(['PIPELINE_STALLED']);
    // A cycle without it resets the count.
    const c = evaluateCycle(b.nextState, [scanOk('pipelines', {})], cycleContext('2026-02-19T10:20:00Z'));
    const d = evaluateCycle(c.nextState, [scanOk('pipelines', { findings: [stalled] })], cycleContext('2026-02-19T10:30:00Z'));
    expect(d.decision.status).toBe('ok');
  });

  it("keeps a scanner's slice when it did not run, and drops the slice of a scanner no longer in the cycle", () => {
    const slice = { version: 1, data: { seen: ['a'] } };
    const state: HeartbeatState = { ...stateAt(3), scannerSlices: { watcher: slice, gone: slice } };
    const { nextState } = evaluateCycle(
      state,
      [{ scanner: 'watcher', status: 'timeout', timeoutMs: 1, durationMs: 1 }],
      cycleContext('2026-02-19T10:00:00Z'),
    );
    expect(nextState.scannerSlices).toEqual({ watcher: slice });
    const ran = evaluateCycle(
      nextState,
      [scanOk('watcher', { slice: { version: 1, data: { seen: ['b'] } } })],
      cycleContext('2026-02-19T10:10:00Z'),
    );
    expect(ran.nextState.scannerSlices).toEqual({ watcher: { version: 1, data: { seen: ['b'] } } });
  });
});

describe('one-shot findings survive a failed delivery', () => {
  const reply = createFinding({
    category: 'GCHAT_REPLY_RECEIVED',
    subject: 'q-1',
    line: 'Question ID: q-1',
    action: 'Process the reply to q-1',
    short: 'reply to q-1',
  });

  it('a GChat reply the poll script returned once is offered again until a delivery succeeds', () => {
    const first = evaluateCycle(stateAt(0), [scanOk('gchat', { findings: [reply] })], cycleContext('2026-02-19T10:00:00Z'));
    expect(first.decision.categories).toEqual(['GCHAT_REPLY_RECEIVED']);
    // Delivery failed: no markDelivered. The script will not return the reply again.
    const second = evaluateCycle(first.nextState, [scanOk('gchat', {})], cycleContext('2026-02-19T10:10:00Z'));
    expect(second.decision.reportable.map((f) => f.fingerprint)).toEqual([reply.fingerprint]);
    const delivered = markDelivered(second.nextState, second.decision, new Date('2026-02-19T10:10:00Z'));
    expect(delivered.undelivered).toEqual([]);
    const third = evaluateCycle(delivered, [scanOk('gchat', {})], cycleContext('2026-02-19T10:50:00Z'));
    expect(third.decision.status).toBe('ok');
  });

  it('ordinary findings are not kept: a resolved crash is not re-reported from memory', () => {
    const a = evaluateCycle(stateAt(0), [scanOk('orchestrators', { findings: [crash] })], cycleContext('2026-02-19T10:00:00Z'));
    expect(a.nextState.undelivered).toEqual([]);
    const b = evaluateCycle(a.nextState, [scanOk('orchestrators', {})], cycleContext('2026-02-19T10:10:00Z'));
    expect(b.decision.status).toBe('ok');
  });
});

describe('cost', () => {
  const many = (n: number): Finding[] =>
    Array.from({ length: n }, (_, i) =>
      createFinding({
        category: 'GIT_STALE',
        subject: `/wt/${i}`,
        line: `STALE: /wt/${i} ${'x'.repeat(150)}`,
        action: `Commit /wt/${i}`,
        short: `wt${i}`,
      }),
    );

  it('cuts long reports per category with "+N more" to stay under the budget', () => {
    const config: HeartbeatConfig = { ...DEFAULT_HEARTBEAT_CONFIG, actionableBudgetTokens: 1_000 };
    const { decision } = evaluateCycle(
      stateAt(0),
      [scanOk('git', { findings: many(100) })],
      cycleContext('2026-02-19T10:00:00Z', { config }),
    );
    expect(decision.estimatedTokens).toBeLessThanOrEqual(1_000);
    expect(decision.message!.content).toMatch(/\+\d+ more GIT_STALE/);
    expect(decision.reportable).toHaveLength(100);
  });

  it('sends COST_ALERT when a cycle exceeds the cost budget', () => {
    const config: HeartbeatConfig = { ...DEFAULT_HEARTBEAT_CONFIG, costAlertTokens: 100 };
    const { decision } = evaluateCycle(
      stateAt(6),
      [scanOk('git', { findings: many(3) })],
      cycleContext('2026-02-19T10:00:00Z', { config }),
    );
    expect(decision.costAlert?.content).toBe(
      `COST_ALERT: Heartbeat cycle #7 used ~${decision.estimatedTokens.toLocaleString('en-US')} tokens (budget: 100). Consider simplifying HEARTBEAT.md checks.`,
    );
    expect(decision.costAlert?.summary).toBe('Heartbeat cost exceeded budget');
  });

  it('sanitises hostile text in the message', () => {
    const evil = createFinding({
      category: 'P1_WORK_READY',
      subject: 'bd-1',
      line: "P1 READY: bd-1 '\u001b[31m@channel pwn\u202e'",
      action: 'Assign bd-1',
      short: 'x',
    });
    const { decision } = evaluateCycle(stateAt(0), [scanOk('beads', { findings: [evil] })], cycleContext('2026-02-19T10:00:00Z'));
    const content = decision.message!.content;
    expect(content).not.toContain('\u001b');
    expect(content).not.toContain('\u202e');
    expect(content).not.toMatch(/@channel/);
  });
});

describe('properties', () => {
  const fingerprints = fc.constantFrom('a', 'b', 'c', 'd');
  const category = fc.constantFrom('ORCH_FAILURE', 'P1_WORK_READY', 'GIT_STALE', 'WORK_READY', 'PIPELINE_STALLED');

  it('never reports the same fingerprint twice inside the dedup window', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            gapMin: fc.integer({ min: 0, max: 25 }),
            findings: fc.array(fc.tuple(category, fingerprints), { maxLength: 6 }),
            busy: fc.boolean(),
            delivered: fc.boolean(),
          }),
          { maxLength: 25 },
        ),
        (cycles) => {
          let state = initialHeartbeatState();
          let t = Date.parse('2026-02-19T10:00:00Z');
          const lastSent = new Map<string, number>();
          for (const c of cycles) {
            t += c.gapMin * MIN;
            const findings = c.findings.map(([cat, s]) => createFinding({ category: cat, subject: s, line: s, action: s, short: s }));
            const now = new Date(t);
            const { decision, nextState } = evaluateCycle(
              state,
              [scanOk('x', { findings })],
              cycleContext(now.toISOString(), { operatorLastActiveAt: c.busy ? now : undefined }),
            );
            for (const f of decision.reportable) {
              const prev = lastSent.get(f.fingerprint);
              if (prev !== undefined && t - prev < DEFAULT_HEARTBEAT_CONFIG.dedupWindowMs) return false;
            }
            state = c.delivered ? markDelivered(nextState, decision, now) : nextState;
            if (c.delivered) for (const f of decision.reportable) lastSent.set(f.fingerprint, t);
          }
          return true;
        },
      ),
    );
  });

  it('every confirmed finding is exactly one of reportable, suppressed or held', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(category, fingerprints), { maxLength: 10 }), fc.boolean(), fc.boolean(), (pairs, busy, inside) => {
        const findings = pairs.map(([cat, s]) => createFinding({ category: cat, subject: s, line: s, action: s, short: s }));
        const now = new Date('2026-02-19T10:00:00Z');
        const { decision } = evaluateCycle(
          initialHeartbeatState(),
          [scanOk('x', { findings })],
          cycleContext(now.toISOString(), { insideActiveHours: inside, operatorLastActiveAt: busy ? now : undefined }),
        );
        const unique = new Set(findings.map((f) => f.fingerprint)).size;
        const total = decision.reportable.length + decision.suppressed.length + decision.held.length + decision.unconfirmed.length;
        return total === unique && (decision.message === null) === (decision.reportable.length === 0);
      }),
    );
  });
});

describe('evaluateCycle is a general engine', () => {
  // Memory and rules of particular scanners live in those scanners (their slices); categories come
  // from a table. A name creeping back into the evaluator is a special case creeping back.
  const source = readFileSync(fileURLToPath(new URL('./evaluate-cycle.ts', import.meta.url)), 'utf8');

  it.each([...BUILTIN_SCANNERS])('names no scanner: %s', (name) => {
    expect(source).not.toMatch(new RegExp(`(?<![\\w-])${name.replace('-', '\\-')}(?![\\w-])`, 'i'));
  });

  it.each([...COBUILDER_CATEGORIES, 'IN_PROGRESS_CHANGED'])('names no CoBuilder category: %s', (category) => {
    expect(source).not.toContain(category);
  });
});
