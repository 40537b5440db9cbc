import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluateCycle, UNREGISTERED_CATEGORY_CODE } from '../cycle/evaluate-cycle.js';
import { initialHeartbeatState, type HeartbeatState } from '../cycle/heartbeat-state.js';
import { PRIORITY_RANK, type PriorityClass } from './categories.js';
import { categoryTableFingerprint } from './category-fingerprint.js';
import { defineCategories, type CategorySpec, type CategoryTable } from './category-table.js';
import { type Finding, type FindingInput } from './finding.js';
import { scanOk, type ScanResult } from './scan-result.js';
import { cycleContext } from '../../test/support/cycle-context.js';
import { createFinding, DEFAULT_CATEGORIES } from '../../test/support/cobuilder-categories.js';

const NOW = '2026-02-19T10:00:00Z';

const queue = defineCategories({
  QUEUE_RISING: { priority: 'Advisory', outsideActiveHours: false, confirmCycles: 3, brief: 'queue depth rising' },
  QUEUE_STUCK: { priority: 'Immediate', outsideActiveHours: true },
});

function rising(subject = 'jobs'): Finding {
  return queue.createFinding({
    category: 'QUEUE_RISING',
    subject,
    line: `QUEUE RISING: ${subject}`,
    action: 'Add a worker',
    short: subject,
  });
}

/** Evaluates the same scan results `cycles` times, threading the state; returns every decision. */
function runResults(table: CategoryTable | undefined, results: readonly ScanResult[], cycles: number, inside = true) {
  let state: HeartbeatState = initialHeartbeatState();
  const decisions = [];
  for (let i = 0; i < cycles; i++) {
    const evaluation = evaluateCycle(
      state,
      results,
      cycleContext(NOW, { insideActiveHours: inside, ...(table === undefined ? {} : { categories: table }) }),
    );
    decisions.push(evaluation.decision);
    state = evaluation.nextState;
  }
  return decisions;
}

/** Evaluates the same findings (one scanner's) `cycles` times, threading the state; returns every decision. */
function run(table: CategoryTable | undefined, findings: readonly Finding[], cycles: number, inside = true) {
  return runResults(table, [scanOk('queue', { findings })], cycles, inside);
}

/** A finding built without a table, claiming Immediate: by default in a category the queue table lacks. */
function untabled(overrides: Partial<FindingInput> = {}): Finding {
  return createFinding({
    category: 'DISK_FULL',
    priority: 'Immediate',
    subject: '/var',
    line: 'DISK FULL',
    action: 'Free',
    short: 'full',
    ...overrides,
  });
}

describe('defineCategories', () => {
  it('returns a typed table in the order given, defaults filled in, priority taken from the table', () => {
    expect(queue.names).toEqual(['QUEUE_RISING', 'QUEUE_STUCK']);
    expect(queue.info('QUEUE_STUCK')).toEqual({
      priority: 'Immediate',
      outsideActiveHours: true,
      confirmCycles: 1,
      brief: 'QUEUE_STUCK',
      oneShot: false,
      listHeading: false,
      recoveryNotice: true,
    });
    expect(rising().priority).toBe('Advisory');
    expect(rising().fingerprint).toBe('QUEUE_RISING:jobs');
  });

  it('extends the CoBuilder table: its names first, then the new ones', () => {
    const both = defineCategories({ QUEUE_RISING: { priority: 'Advisory', outsideActiveHours: false } }, { extend: DEFAULT_CATEGORIES });
    expect(both.names).toEqual([...DEFAULT_CATEGORIES.names, 'QUEUE_RISING']);
    expect(both.info('ORCH_FAILURE')?.outsideActiveHours).toBe(true);
    // Both kinds of name type-check with the extended table.
    expect(both.createFinding({ category: 'ORCH_FAILURE', subject: 'o', line: 'l', action: 'a', short: 's' }).priority).toBe('Immediate');
  });

  it('a category the table lacks is a compile error, and from JS a typed error or a Normal finding, never a throw', () => {
    const input = { subject: 'jobs', line: 'QUEUE FALLING', action: 'nothing', short: 'falling' };
    // @ts-expect-error QUEUE_FALLING is not in the table: the helper refuses it at compile time.
    const finding = queue.createFinding({ ...input, category: 'QUEUE_FALLING' });
    expect(finding.priority).toBe('Normal');
    const checked = queue.check('QUEUE_FALLING');
    expect(checked.isErr() && checked.error.kind).toBe('unregistered-category');
    expect(queue.check('QUEUE_RISING').isOk()).toBe(true);
  });

  it('clamps a JS caller’s impossible confirm cycles and priority instead of throwing', () => {
    const table = defineCategories({
      A_ZERO: { priority: 'Advisory', outsideActiveHours: false, confirmCycles: 0 },
      A_HUGE: { priority: 'Advisory', outsideActiveHours: false, confirmCycles: 1e9 },
      A_NAN: { priority: 'Bogus' as PriorityClass, outsideActiveHours: false, confirmCycles: Number.NaN },
    });
    expect(table.names.map((n) => [table.info(n)?.confirmCycles, table.info(n)?.priority])).toEqual([
      [1, 'Advisory'],
      [100, 'Advisory'],
      [1, 'Normal'],
    ]);
  });

  it('a critical flag is kept in the info but not in the fingerprint (it only filters scan results under a pause)', () => {
    const plain = defineCategories({ PAGER_REPLY: { priority: 'Normal', outsideActiveHours: true } });
    const critical = defineCategories({ PAGER_REPLY: { priority: 'Normal', outsideActiveHours: true, critical: true } });
    expect(critical.info('PAGER_REPLY')?.critical).toBe(true);
    expect(plain.info('PAGER_REPLY')).not.toHaveProperty('critical');
    expect(categoryTableFingerprint(critical)).toBe(categoryTableFingerprint(plain));
  });
});

describe('evaluateCycle reads the category table it is given', () => {
  it('confirm cycles: the finding is reportable on its 3rd consecutive cycle, not before', () => {
    const decisions = run(queue, [rising()], 4);
    expect(decisions.map((d) => d.status)).toEqual(['ok', 'ok', 'report', 'report']);
    expect(decisions[1]?.unconfirmed.map((u) => [u.seenCycles, u.neededCycles])).toEqual([[2, 3]]);
    expect(decisions[2]?.message?.content).toContain('Queue depth rising.');
  });

  it('outside-hours rule: the table decides, not the default', () => {
    const stuck = queue.createFinding({ category: 'QUEUE_STUCK', subject: 'jobs', line: 'STUCK', action: 'Restart', short: 'stuck' });
    const [decision] = run(queue, [stuck, rising()], 1, false);
    expect(decision?.reportable.map((f) => f.category)).toEqual(['QUEUE_STUCK']);
    expect(decision?.unconfirmed.map((u) => u.finding.category)).toEqual(['QUEUE_RISING']);
  });

  it('the table’s priority wins over the priority a finding claims', () => {
    const claimsImmediate = untabled({ category: 'QUEUE_RISING', subject: 'x', line: 'l', action: 'a', short: 's' });
    const decisions = run(queue, [claimsImmediate], 3);
    expect(decisions[2]?.reportable[0]?.priority).toBe('Advisory');
  });

  it('an unregistered category is an advisory warning in the decision, and the finding is still evaluated', () => {
    const stray = untabled();
    const [decision] = run(
      queue,
      [stray, stray, createFinding({ category: 'DISK_FULL', subject: '/tmp', line: 'l', action: 'a', short: 's' })],
      1,
    );
    expect(decision?.status).toBe('report');
    expect(decision?.warnings.filter((w) => w.code === UNREGISTERED_CATEGORY_CODE).map((w) => w.message)).toEqual([
      expect.stringContaining('"DISK_FULL" is not in the category table'),
    ]);
  });

  it('the engine’s own SCANNER_FAILING advisory is known to every table: no unregistered warning, its brief in the Context Brief', () => {
    const failing: ScanResult = { scanner: 'queue', status: 'error', error: 'queue API: 503', durationMs: 1 };
    // The default breaker trips on the 3rd failing cycle in a row and raises one advisory.
    const decision = runResults(queue, [failing], 3).at(-1);
    expect(decision?.reportable.map((f) => f.category)).toEqual(['SCANNER_FAILING']);
    expect(decision?.warnings.filter((w) => w.code === UNREGISTERED_CATEGORY_CODE)).toEqual([]);
    expect(decision?.message?.content).toContain('## Context Brief\nScanner failing repeatedly.\n');
    expect(queue.info('SCANNER_FAILING')?.priority).toBe('Advisory');
    expect(DEFAULT_CATEGORIES.info('SCANNER_FAILING')?.brief).toBe('scanner failing repeatedly');
  });

  it('the default CoBuilder table allows custom categories silently, as before', () => {
    const stray = untabled();
    const [decision] = run(undefined, [stray], 1);
    expect(decision?.status).toBe('report');
    expect(decision?.warnings).toEqual([]);
  });
});

const PRIORITIES: readonly PriorityClass[] = ['Immediate', 'Advisory', 'Normal'];
const specArb: fc.Arbitrary<CategorySpec> = fc.record({
  priority: fc.constantFrom(...PRIORITIES),
  outsideActiveHours: fc.boolean(),
  confirmCycles: fc.integer({ min: 1, max: 3 }),
});
const nameArb = fc.stringMatching(/^[A-Z]{1,4}(_[A-Z]{1,4})?$/);

describe('property: ordering and filtering follow the registry', () => {
  it('for any registry and findings: header order by the registry’s priority then table order, outside hours by its rule, confirm cycles by its count', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(nameArb, specArb), { minLength: 1, maxLength: 6, selector: ([n]) => n }),
        // Findings: a category by index (past the table's end = one it lacks), a subject, a claimed priority.
        fc.array(fc.tuple(fc.nat(7), fc.constantFrom('a', 'b', 'c'), fc.constantFrom(...PRIORITIES)), { minLength: 1, maxLength: 12 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 4 }),
        (entries, picks, inside, cycles) => {
          const table = defineCategories(Object.fromEntries(entries), { unregistered: 'allow' });
          const nameAt = (i: number): string => entries[i]?.[0] ?? `ZZ_STRAY_${i}`;
          const findings = picks.map(([i, subject, priority]) =>
            // A category the table lacks keeps one priority of its own (the header sorts a group by it).
            createFinding({
              category: nameAt(i),
              priority: i < entries.length ? priority : PRIORITIES[i % 3]!,
              subject,
              line: subject,
              action: subject,
              short: subject,
            }),
          );
          const decision = run(table, findings, cycles, inside).at(-1)!;
          // A category the table lacks follows its scanner's own switch: every finding here is fresh from
          // this cycle's scan, which ran outside hours only because it asked to, so it is reported then too.
          const rules = (category: string) => table.info(category) ?? { confirmCycles: 1, outsideActiveHours: true };
          const priorityOf = (f: Finding): PriorityClass => table.info(f.category)?.priority ?? f.priority;
          const unique = [...new Map(findings.map((f) => [f.fingerprint, f])).values()];

          const confirmed = unique.filter((f) => rules(f.category).confirmCycles <= cycles);
          const expectReported = confirmed.filter((f) => inside || rules(f.category).outsideActiveHours);
          expect(new Set(decision.reportable.map((f) => f.fingerprint))).toEqual(new Set(expectReported.map((f) => f.fingerprint)));
          expect(new Set(decision.suppressed.map((s) => s.finding.fingerprint))).toEqual(
            new Set(confirmed.filter((f) => !expectReported.includes(f)).map((f) => f.fingerprint)),
          );
          expect(decision.suppressed.every((s) => s.reason === 'outside-active-hours')).toBe(true);
          expect(decision.unconfirmed.length).toBe(unique.length - confirmed.length);
          expect(decision.reportable.every((f) => f.priority === priorityOf(f))).toBe(true);

          // Header order: priority class, then the table's order, then categories it lacks by name.
          const index = (c: string): number => (table.names.includes(c) ? table.names.indexOf(c) : table.names.length);
          const categoryPriority = new Map(decision.reportable.map((f) => [f.category, priorityOf(f)]));
          const expected = [...categoryPriority.keys()].sort(
            (a, b) =>
              PRIORITY_RANK[categoryPriority.get(a)!] - PRIORITY_RANK[categoryPriority.get(b)!] ||
              index(a) - index(b) ||
              (a < b ? -1 : a > b ? 1 : 0),
          );
          expect(decision.categories).toEqual(expected);
          if (expected.length > 0) expect(decision.message?.content.split('\n')[0]).toBe(`WORK_FOUND: ${expected.join(' + ')}`);
        },
      ),
    );
  });
});
