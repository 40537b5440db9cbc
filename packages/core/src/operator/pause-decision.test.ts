import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanOk, type ScanResult } from '../domain/scan-result.js';
import {
  decidePause,
  isCriticalFinding,
  keepCriticalFindings,
  pausedScannerSkips,
  pauseLiveness,
  type SlotPause,
} from './pause-decision.js';
import type { Pause } from './pause-model.js';
import { defineCategories } from '../domain/category-table.js';
import { createFinding, COBUILDER_CATEGORIES, CATEGORY_INFO, DEFAULT_CATEGORIES } from '../../test/support/cobuilder-categories.js';

const T0 = Date.parse('2026-02-19T10:00:00Z');
const HOUR = 3_600_000;
const SCANNERS = ['beads', 'orchestrators', 'git', 'gchat'] as const;

const pauseArb: fc.Arbitrary<Pause> = fc
  .record({
    sinceOffset: fc.integer({ min: -48 * HOUR, max: 48 * HOUR }),
    length: fc.option(fc.integer({ min: 1, max: 48 * HOUR }), { nil: undefined }),
    scanners: fc.option(fc.subarray([...SCANNERS], { minLength: 1 }), { nil: undefined }),
    exceptCritical: fc.boolean(),
    note: fc.string({ minLength: 1, maxLength: 40 }),
  })
  .map(({ sinceOffset, length, scanners, exceptCritical, note }) => ({
    v: 1 as const,
    note,
    since: new Date(T0 + sinceOffset).toISOString(),
    ...(length === undefined ? {} : { until: new Date(T0 + sinceOffset + length).toISOString() }),
    ...(scanners === undefined ? {} : { scanners }),
    ...(exceptCritical ? { exceptCritical: true as const } : {}),
  }));

const nowArb = fc.integer({ min: T0 - 96 * HOUR, max: T0 + 96 * HOUR });

describe('decidePause', () => {
  it('no pause: every slot runs', () => {
    fc.assert(
      fc.property(nowArb, (now) => {
        expect(decidePause(undefined, now)).toEqual({ kind: 'run' });
      }),
    );
  });

  it('an expired pause never skips and never holds anything back', () => {
    fc.assert(
      fc.property(pauseArb, fc.integer({ min: 0, max: 96 * HOUR }), (pause, after) => {
        if (pause.until === undefined) return;
        expect(decidePause(pause, Date.parse(pause.until) + after)).toEqual({ kind: 'run' });
      }),
    );
  });

  it('a pause not yet begun runs the slot', () => {
    fc.assert(
      fc.property(pauseArb, fc.integer({ min: 1, max: 96 * HOUR }), (pause, before) => {
        expect(decidePause(pause, Date.parse(pause.since) - before)).toEqual({ kind: 'run' });
      }),
    );
  });

  it('inside the window: skip only for a whole pause without --except-critical; otherwise the slot runs in part', () => {
    fc.assert(
      fc.property(pauseArb, fc.integer({ min: 0, max: 48 * HOUR }), (pause, into) => {
        const now = Date.parse(pause.since) + into;
        fc.pre(pause.until === undefined || now < Date.parse(pause.until));
        const decision = decidePause(pause, now);
        if (pause.scanners === undefined && pause.exceptCritical !== true) expect(decision.kind).toBe('skip');
        else {
          expect(decision.kind).toBe('partial');
          if (decision.kind === 'partial') {
            expect(decision.scanners).toEqual(pause.scanners ?? []);
            expect(decision.criticalOnly).toBe(pause.exceptCritical === true);
          }
        }
        if (decision.kind !== 'run') expect(decision.line).toContain(pause.note);
      }),
    );
  });

  it('with --except-critical a pause never suppresses an Immediate finding, an orchestrator failure or a GChat reply', () => {
    const findingArb = fc.record({
      category: fc.constantFrom(...COBUILDER_CATEGORIES, 'CUSTOM_ALARM'),
      priority: fc.constantFrom('Immediate' as const, 'Advisory' as const, 'Normal' as const),
      subject: fc.string({ minLength: 1, maxLength: 10 }),
    });
    fc.assert(
      fc.property(pauseArb, nowArb, fc.array(findingArb, { maxLength: 8 }), (pause0, now, inputs) => {
        const pause = { ...pause0, exceptCritical: true as const };
        const decision = decidePause(pause, now);
        expect(decision.kind).not.toBe('skip');
        const findings = inputs.map((f) => createFinding({ ...f, line: f.subject, action: 'look', short: f.subject }));
        const results: ScanResult[] = [scanOk('beads', { findings })];
        const kept = keepCriticalFindings(results, decision.kind === 'partial' ? decision : undefined, DEFAULT_CATEGORIES);
        const keptFindings = kept[0]!.status === 'ok' ? kept[0]!.findings : [];
        for (const finding of findings) {
          const critical =
            finding.priority === 'Immediate' || finding.category === 'ORCH_FAILURE' || finding.category === 'GCHAT_REPLY_RECEIVED';
          expect(keptFindings.includes(finding)).toBe(critical || decision.kind === 'run');
        }
      }),
    );
  });
});

describe('isCriticalFinding', () => {
  it('keeps the Immediate built-in categories and GChat replies, drops the rest', () => {
    const kept = COBUILDER_CATEGORIES.filter((category) =>
      isCriticalFinding({ category, priority: CATEGORY_INFO[category].priority }, DEFAULT_CATEGORIES),
    );
    expect(kept).toEqual([
      'TMUX_DOWN',
      'ORCH_FAILURE',
      'P0_WORK_READY',
      'P1_WORK_READY',
      'GCHAT_REPLY_RECEIVED',
      'PIPELINE_NODE_FAILED',
      'PIPELINE_FINALIZED',
    ]);
  });
});

describe('isCriticalFinding: critical is what the category table says', () => {
  it('keeps an orchestrator failure or a GChat reply of any priority by the CoBuilder table', () => {
    for (const category of ['ORCH_FAILURE', 'GCHAT_REPLY_RECEIVED'])
      expect(isCriticalFinding({ category, priority: 'Normal' }, DEFAULT_CATEGORIES)).toBe(true);
    expect(isCriticalFinding({ category: 'GIT_STALE', priority: 'Normal' }, DEFAULT_CATEGORIES)).toBe(false);
  });

  it('knows no category by name: without a table only Immediate is critical', () => {
    expect(isCriticalFinding({ category: 'ORCH_FAILURE', priority: 'Normal' })).toBe(false);
    expect(isCriticalFinding({ category: 'ANYTHING', priority: 'Immediate' })).toBe(true);
  });

  it("keeps an embedder's own critical category", () => {
    const table = defineCategories({ PAGER_REPLY: { priority: 'Normal', outsideActiveHours: true, critical: true } });
    expect(isCriticalFinding({ category: 'PAGER_REPLY', priority: 'Normal' }, table)).toBe(true);
    expect(table.info('PAGER_REPLY')?.critical).toBe(true);
  });
});

describe('pausedScannerSkips', () => {
  it('skips exactly the paused scanners, naming the pause and the fix', () => {
    const pause = decidePause({ v: 1, note: 'git repack', since: new Date(T0).toISOString(), scanners: ['git'] }, T0 + HOUR) as SlotPause;
    const skips = pausedScannerSkips(pause);
    expect([...skips.keys()]).toEqual(['git']);
    expect(skips.get('git')).toMatchObject({ status: 'skipped', code: 'SCANNER_PAUSED', configured: true });
    expect(JSON.stringify(skips.get('git'))).toContain('git repack');
    expect(pausedScannerSkips(undefined).size).toBe(0);
  });
});

describe('pauseLiveness', () => {
  const open: Pause = { v: 1, note: 'migration', since: new Date(T0).toISOString() };
  it('answers paused for a pause in force, warns only for an open-ended one older than the limit', () => {
    expect(pauseLiveness(open, T0 + HOUR, 24 * HOUR)).toEqual({ message: expect.stringContaining('migration') as string });
    expect(pauseLiveness(open, T0 + 25 * HOUR, 24 * HOUR)?.warning).toMatch(/no end.*25 h ago.*resume/);
    const ending = { ...open, until: new Date(T0 + 48 * HOUR).toISOString() };
    expect(pauseLiveness(ending, T0 + 30 * HOUR, 24 * HOUR)?.warning).toBeUndefined();
    expect(pauseLiveness(ending, T0 + 48 * HOUR, 24 * HOUR)).toBeUndefined();
    expect(pauseLiveness(undefined, T0, 24 * HOUR)).toBeUndefined();
  });
});
