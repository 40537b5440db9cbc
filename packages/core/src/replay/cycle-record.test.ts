import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PriorityClass } from '../domain/categories.js';
import { categoryTableFingerprint } from '../domain/category-fingerprint.js';
import { defineCategories, type CategorySpec, type CategoryTable } from '../domain/category-table.js';
import { scanOk } from '../domain/scan-result.js';
import { evaluateCycle, markDelivered } from '../cycle/evaluate-cycle.js';
import { initialHeartbeatState } from '../cycle/heartbeat-state.js';
import { createCycleRecord, replayCycleRecords } from './cycle-record.js';
import { cycleContext } from '../../test/support/cycle-context.js';
import { createFinding, DEFAULT_CATEGORIES } from '../../test/support/cobuilder-categories.js';

/** Core's cycle knows no categories; these recordings were made, and are replayed, under the CoBuilder table. */
const COBUILDER = { categories: DEFAULT_CATEGORIES };

function recordDay(): string[] {
  const lines: string[] = [];
  let state = initialHeartbeatState();
  const crash = createFinding({
    category: 'ORCH_FAILURE',
    subject: 'orch-a',
    line: 'CRASHED: orch-a',
    action: 'Re-launch orch-a',
    short: 'orch-a crashed',
  });
  for (let i = 0; i < 12; i++) {
    const context = cycleContext(Date.parse('2026-02-19T08:00:00Z') + i * 600_000);
    const results = [
      scanOk('orchestrators', { findings: i % 4 === 0 ? [] : [crash] }),
      scanOk('idle-orchestrators', { slice: { version: 1, data: { panes: { 'orch-b': { hash: 'same', sinceMs: 0 } } } } }),
    ];
    const { decision, nextState } = evaluateCycle(state, results, context);
    lines.push(JSON.stringify(createCycleRecord(state, results, context, decision)));
    state = markDelivered(nextState, decision, context.now);
  }
  return lines;
}

describe('replay', () => {
  it('reproduces every recorded decision', () => {
    const report = replayCycleRecords(recordDay().join('\n') + '\n', COBUILDER);
    expect(report).toEqual({ total: 12, matched: 12, mismatches: [], errors: [] });
  });

  it('reports where a tampered recording differs', () => {
    const lines = recordDay();
    const tampered = JSON.parse(lines[1]!) as { decision: { status: string } };
    tampered.decision.status = tampered.decision.status === 'ok' ? 'report' : 'ok';
    lines[1] = JSON.stringify(tampered);
    const report = replayCycleRecords(lines.join('\n'), COBUILDER);
    expect(report.matched).toBe(11);
    expect(report.mismatches).toEqual([{ line: 2, cycle: 2, paths: ['status'] }]);
  });

  it('replays a recording made before messages carried per-finding ids as a match, and still compares them when recorded', () => {
    const lines = recordDay();
    const reported = lines.findIndex((line) => (JSON.parse(line) as { decision: { message: unknown } }).decision.message !== null);
    const old = JSON.parse(lines[reported]!) as { decision: { message: { findings?: { id: string }[] } } };
    expect(old.decision.message.findings?.[0]?.id).toMatch(/^hbf-/);
    const tampered = structuredClone(old);
    delete old.decision.message.findings;
    tampered.decision.message.findings![0]!.id = 'hbf-0';
    const report = (record: unknown) =>
      replayCycleRecords(lines.map((line, i) => (i === reported ? JSON.stringify(record) : line)).join('\n'), COBUILDER);
    expect(report(old)).toMatchObject({ total: 12, matched: 12, mismatches: [] });
    expect(report(tampered).mismatches).toEqual([{ line: reported + 1, cycle: reported + 1, paths: ['message.findings.0.id'] }]);
  });

  it('tolerates a torn last line', () => {
    const lines = recordDay();
    const report = replayCycleRecords(lines.join('\n') + '\n' + lines[0]!.slice(0, 40), COBUILDER);
    expect(report.total).toBe(12);
    expect(report.errors).toHaveLength(1);
    expect(report.errors[0]!.line).toBe(13);
  });
});

/** A recording made by an embedder with its own table: `pattern[i]` says whether cycle i sees the finding. */
function recordWithTable(table: CategoryTable, category: string, pattern: readonly boolean[], insideActiveHours: boolean): string[] {
  const lines: string[] = [];
  let state = initialHeartbeatState();
  const finding = createFinding({
    category,
    priority: table.info(category)?.priority ?? 'Normal',
    subject: 'jobs',
    line: `${category}: jobs`,
    action: 'Add a worker to jobs',
    short: 'jobs rising',
  });
  pattern.forEach((seen, i) => {
    const context = cycleContext(Date.parse('2026-02-21T03:00:00Z') + i * 600_000, { insideActiveHours, categories: table });
    const results = [scanOk('queue-depth', { findings: seen ? [finding] : [] })];
    const { decision, nextState } = evaluateCycle(state, results, context);
    lines.push(JSON.stringify(createCycleRecord(state, results, context, decision)));
    state = markDelivered(nextState, decision, context.now);
  });
  return lines;
}

const QUEUE_TABLE = defineCategories(
  { QUEUE_RISING: { priority: 'Immediate', outsideActiveHours: true, confirmCycles: 2, brief: 'queue depth rising' } },
  { extend: DEFAULT_CATEGORIES },
);

describe('replay with an embedder’s category table', () => {
  it('reproduces a recording under the table that made it', () => {
    const lines = recordWithTable(QUEUE_TABLE, 'QUEUE_RISING', [true, true, true, false, true, true], false);
    // The table mattered: the finding was reported outside active hours after two cycles.
    expect(lines.map((l) => (JSON.parse(l) as { decision: { status: string } }).decision.status)).toContain('report');
    expect(replayCycleRecords(lines.join('\n'), { categories: QUEUE_TABLE })).toEqual({ total: 6, matched: 6, mismatches: [], errors: [] });
  });

  it('says plainly that another table decided, instead of reporting every decision as differing', () => {
    const lines = recordWithTable(QUEUE_TABLE, 'QUEUE_RISING', [true, true, true], false);
    const report = replayCycleRecords(lines.join('\n'), COBUILDER);
    expect(report).toEqual({
      total: 3,
      matched: 0,
      mismatches: [],
      errors: [],
      otherTable: {
        count: 3,
        firstLine: 1,
        recorded: [categoryTableFingerprint(QUEUE_TABLE)],
        replayed: categoryTableFingerprint(DEFAULT_CATEGORIES),
      },
    });
  });

  it('records the table that decided; recordings from before that are compared under the replay’s table', () => {
    const lines = recordDay();
    expect(
      lines.every(
        (l) => (JSON.parse(l) as { context: { categories: string } }).context.categories === categoryTableFingerprint(DEFAULT_CATEGORIES),
      ),
    ).toBe(true);
    const older = lines.map((l) => {
      const record = JSON.parse(l) as { context: Record<string, unknown> };
      delete record.context.categories;
      return JSON.stringify(record);
    });
    expect(replayCycleRecords(older.join('\n'), COBUILDER)).toEqual({ total: 12, matched: 12, mismatches: [], errors: [] });
    // An older recording replayed under another table is compared, and its differences are reported.
    const differs = replayCycleRecords(older.join('\n'), {
      categories: defineCategories({ ORCH_FAILURE: { priority: 'Normal', outsideActiveHours: false, confirmCycles: 3 } }),
    });
    expect(differs.mismatches.length).toBeGreaterThan(0);
    expect(differs.otherTable).toBeUndefined();
  });

  it('rejects a record whose table fingerprint is not one', () => {
    const record = JSON.parse(recordDay()[0]!) as { context: Record<string, unknown> };
    record.context.categories = 'ct-$(rm -rf ~)';
    const report = replayCycleRecords(JSON.stringify(record), COBUILDER);
    expect(report.errors).toEqual([{ line: 1, message: expect.stringContaining('context.categories') as unknown }]);
  });

  const priority = fc.constantFrom<PriorityClass>('Immediate', 'Advisory', 'Normal');
  const spec: fc.Arbitrary<CategorySpec> = fc.record({
    priority,
    outsideActiveHours: fc.boolean(),
    confirmCycles: fc.integer({ min: 1, max: 4 }),
  });

  it('property: a recording under any table replays identically under that table, and is refused as another table’s under the default', () => {
    fc.assert(
      fc.property(spec, fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }), fc.boolean(), (rules, pattern, inside) => {
        const table = defineCategories({ CUSTOM_CATEGORY: rules });
        const jsonl = recordWithTable(table, 'CUSTOM_CATEGORY', pattern, inside).join('\n');
        expect(replayCycleRecords(jsonl, { categories: table })).toEqual({
          total: pattern.length,
          matched: pattern.length,
          mismatches: [],
          errors: [],
        });
        expect(replayCycleRecords(jsonl, COBUILDER)).toMatchObject({ matched: 0, mismatches: [], otherTable: { count: pattern.length } });
      }),
      { numRuns: 60 },
    );
  });

  it('property: the fingerprint is the same for tables defined alike and changes with any one rule', () => {
    fc.assert(
      fc.property(spec, spec, (a, b) => {
        const one = defineCategories({ FIRST: a, SECOND: b });
        const again = defineCategories({ FIRST: { ...a }, SECOND: { ...b } });
        expect(categoryTableFingerprint(one)).toMatch(/^ct-[0-9a-f]{12}$/);
        expect(categoryTableFingerprint(again)).toBe(categoryTableFingerprint(one));
        const changed = [
          defineCategories({ FIRST: { ...a, outsideActiveHours: !a.outsideActiveHours }, SECOND: b }),
          defineCategories({ FIRST: a, SECOND: { ...b, confirmCycles: (b.confirmCycles ?? 1) + 1 } }),
          defineCategories({ FIRST: { ...a, priority: a.priority === 'Normal' ? 'Immediate' : 'Normal' }, SECOND: b }),
          defineCategories({ SECOND: b, FIRST: a }),
          defineCategories({ FIRST: a, SECOND: b }, { unregistered: 'allow' }),
        ];
        for (const table of changed) expect(categoryTableFingerprint(table)).not.toBe(categoryTableFingerprint(one));
      }),
      { numRuns: 100 },
    );
  });
});
