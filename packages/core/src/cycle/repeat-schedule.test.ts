import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_HEARTBEAT_CONFIG, heartbeatConfigSchema, type HeartbeatConfig } from '../config/heartbeat-config-schema.js';
import { parseHeartbeatConfig } from '../config/heartbeat-markdown-parser.js';
import { renderHeartbeatMarkdown } from '../config/heartbeat-markdown-renderer.js';
import { findingContentHash } from '../domain/finding.js';
import { scanOk } from '../domain/scan-result.js';
import { evaluateCycle, markDelivered } from './evaluate-cycle.js';
import { decodeHeartbeatState, encodeHeartbeatState, initialHeartbeatState, type HeartbeatState } from './heartbeat-state.js';
import { cycleContext } from '../../test/support/cycle-context.js';
import {
  decideRepeat,
  MAX_REPORT_MEMORY,
  pruneReportMemory,
  rememberDelivery,
  repeatIntervalMs,
  repeatScheduleOf,
  type ReportMemory,
} from './repeat-schedule.js';
import { createFinding } from '../../test/support/cobuilder-categories.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const T0 = Date.parse('2026-02-19T10:00:00Z');

/** ORCH_FAILURE (Immediate), GIT_STALE (Advisory) or WORK_READY (Normal) about `subject`, saying `say`. */
function finding(category: 'ORCH_FAILURE' | 'GIT_STALE' | 'WORK_READY', subject: string, say: string) {
  return createFinding({ category, subject, line: `${category}: ${subject} ${say}`, action: 'act', short: subject, details: { say } });
}

/** A non-decreasing schedule of 1–4 intervals, 1 min – 12 h. */
const scheduleArb = fc
  .array(fc.integer({ min: 1, max: 720 }), { minLength: 1, maxLength: 4 })
  .map((minutes) => [...minutes].sort((a, b) => a - b).map((m) => m * MIN));

const configWith = (repeat: HeartbeatConfig['repeat']): HeartbeatConfig => heartbeatConfigSchema.parse({ repeat });

describe('decideRepeat', () => {
  it('new when never delivered; changed content is reported at once; unchanged waits for the interval of its repeat count', () => {
    const schedule = [30 * MIN, 2 * HOUR, 8 * HOUR];
    expect(decideRepeat(undefined, 'aa', T0, schedule)).toEqual({ report: true, reason: 'new' });
    const memory: ReportMemory = { atMs: T0, hash: 'aa', repeats: 1 };
    expect(decideRepeat(memory, 'bb', T0 + MIN, schedule)).toEqual({ report: true, reason: 'changed' });
    expect(decideRepeat(memory, 'aa', T0 + 2 * HOUR - 1, schedule)).toEqual({ report: false, dueAtMs: T0 + 2 * HOUR });
    expect(decideRepeat(memory, 'aa', T0 + 2 * HOUR, schedule)).toEqual({ report: true, reason: 'due' });
    // Memory from state version 1 has no hash: unchanged, whatever the content.
    expect(decideRepeat({ atMs: T0, repeats: 0 }, 'zz', T0 + MIN, schedule)).toEqual({ report: false, dueAtMs: T0 + 30 * MIN });
  });

  it('the last interval repeats once the schedule is used up', () => {
    expect([0, 1, 2, 3, 9].map((n) => repeatIntervalMs([1, 2, 8], n))).toEqual([1, 2, 8, 8, 8]);
  });

  it('rememberDelivery counts repeats of the same content and starts over on a change', () => {
    const first = rememberDelivery(undefined, 'aa', T0);
    expect(first).toEqual({ atMs: T0, hash: 'aa', repeats: 0 });
    const again = rememberDelivery(first, 'aa', T0 + HOUR);
    expect(again.repeats).toBe(1);
    expect(rememberDelivery(again, 'bb', T0 + 2 * HOUR).repeats).toBe(0);
    expect(rememberDelivery({ atMs: T0, repeats: 0 }, 'cc', T0 + HOUR).repeats).toBe(1);
  });

  it('property: a content change is always reported, whatever the schedule, the repeat count and the clock', () => {
    fc.assert(
      fc.property(
        scheduleArb,
        fc.nat({ max: 20 }),
        fc.integer({ min: -10 * HOUR, max: 10 * HOUR }),
        fc.stringMatching(/^[0-9a-f]{4}$/),
        fc.stringMatching(/^[0-9a-f]{4}$/),
        (schedule, repeats, offset, before, after) => {
          fc.pre(before !== after);
          expect(decideRepeat({ atMs: T0, hash: before, repeats }, after, T0 + offset, schedule)).toEqual({
            report: true,
            reason: 'changed',
          });
        },
      ),
    );
  });

  it('property: the schedule is monotone: the wait never shrinks as repeats grow, and every accepted schedule grows', () => {
    fc.assert(
      fc.property(scheduleArb, fc.nat({ max: 30 }), (schedule, repeats) => {
        expect(repeatIntervalMs(schedule, repeats + 1)).toBeGreaterThanOrEqual(repeatIntervalMs(schedule, repeats));
      }),
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.integer({ min: 1, max: 1000 }).map((m) => m * MIN),
          { minLength: 1, maxLength: 10 },
        ),
        (intervals) => {
          const parsed = heartbeatConfigSchema.safeParse({ repeat: { all: intervals } });
          const grows = intervals.every((ms, i) => i === 0 || ms >= (intervals[i - 1] ?? 0));
          expect(parsed.success).toBe(grows);
        },
      ),
    );
  });
});

describe('evaluateCycle with change-aware repeats', () => {
  it('a finding whose content changed is reported inside the dedup window; an unchanged one is not', () => {
    const before = finding('ORCH_FAILURE', 'orch-auth', 'missing');
    const after = finding('ORCH_FAILURE', 'orch-auth', 'crashed with bead b-1');
    expect(after.fingerprint).toBe(before.fingerprint);
    let state = initialHeartbeatState();
    const run = (f: typeof before, atMs: number) => {
      const { decision, nextState } = evaluateCycle(state, [scanOk('orchestrators', { findings: [f] })], cycleContext(atMs));
      state = markDelivered(nextState, decision, new Date(atMs));
      return decision;
    };
    expect(run(before, T0).status).toBe('report');
    expect(run(before, T0 + 10 * MIN).status).toBe('ok');
    expect(run(after, T0 + 20 * MIN).status).toBe('report');
    const quiet = run(after, T0 + 30 * MIN);
    expect(quiet.status).toBe('ok');
    expect(quiet.suppressed[0]).toMatchObject({ reason: 'dedup', lastReportedAtMs: T0 + 20 * MIN, repeatAtMs: T0 + 50 * MIN });
  });

  it('Repeat: 30m, 2h, 8h lets an unchanged finding decay; per-priority lines win over Repeat', () => {
    const config = configWith({ all: [30 * MIN, 2 * HOUR, 8 * HOUR], immediate: [30 * MIN] });
    let state = initialHeartbeatState();
    const reportedAt: Record<string, number[]> = { ORCH_FAILURE: [], GIT_STALE: [] };
    const findings = [finding('ORCH_FAILURE', 'orch-a', 'missing'), finding('GIT_STALE', '/wt', 'stale')];
    for (let t = T0; t <= T0 + 24 * HOUR; t += 10 * MIN) {
      const { decision, nextState } = evaluateCycle(state, [scanOk('x', { findings })], cycleContext(t, { config }));
      state = markDelivered(nextState, decision, new Date(t));
      for (const f of decision.reportable) reportedAt[f.category]?.push((t - T0) / MIN);
    }
    expect(reportedAt.GIT_STALE).toEqual([0, 30, 150, 630, 1110]);
    expect(reportedAt.ORCH_FAILURE).toHaveLength(24 * 2 + 1);
  });

  it('the schedule survives a night in which the scanner did not run (memory kept for a day)', () => {
    const config = configWith({ advisory: [1 * HOUR, 12 * HOUR] });
    const stale = finding('GIT_STALE', '/wt', 'stale');
    let state = initialHeartbeatState();
    const cycle = (t: number, present: boolean) => {
      const { decision, nextState } = evaluateCycle(
        state,
        [scanOk('git', { findings: present ? [stale] : [] })],
        cycleContext(t, { config }),
      );
      state = markDelivered(nextState, decision, new Date(t));
      return decision.status;
    };
    expect(cycle(T0, true)).toBe('report');
    expect(cycle(T0 + HOUR, true)).toBe('report'); // second delivery: the next wait is 12 h
    expect(cycle(T0 + 2 * HOUR, false)).toBe('ok');
    expect(cycle(T0 + 8 * HOUR, true)).toBe('ok');
    expect(cycle(T0 + 13 * HOUR, true)).toBe('report');
  });

  it('an upgrade from state version 1 re-reports nothing: its deliveries count as unchanged', () => {
    const crash = finding('ORCH_FAILURE', 'orch-auth', 'crashed');
    const v1 = { version: 1, cycle: 3, reportsSent: 1, reported: { [crash.fingerprint]: T0 }, seen: {}, panes: {}, pipelines: {} };
    const { state } = decodeHeartbeatState(v1);
    const { decision, nextState } = evaluateCycle(state, [scanOk('orchestrators', { findings: [crash] })], cycleContext(T0 + 10 * MIN));
    expect(decision.status).toBe('ok');
    const later = evaluateCycle(nextState, [scanOk('orchestrators', { findings: [crash] })], cycleContext(T0 + 30 * MIN));
    expect(later.decision.status).toBe('report');
    expect(markDelivered(later.nextState, later.decision, new Date(T0 + 30 * MIN)).reportedContent[crash.fingerprint]).toEqual({
      hash: findingContentHash(crash),
      repeats: 1,
    });
  });

  it('content leaves out what changes with time: an explicit content keeps a growing age from looking like a change', () => {
    const at = (minutes: number) =>
      createFinding({
        category: 'ORCH_IDLE',
        subject: 'orch-a',
        line: `IDLE: orch-a (${minutes} min)`,
        action: 'a',
        short: 's',
        details: { quietMinutes: minutes, sinceMs: T0 },
        content: { sinceMs: T0 },
      });
    expect(findingContentHash(at(31))).toBe(findingContentHash(at(41)));
    expect(
      findingContentHash(
        createFinding({
          category: 'X',
          subject: 's',
          line: 'l',
          action: 'a',
          short: 's',
          details: { a: 1, b: [1, { c: 2, d: 3 }] },
          priority: 'Normal',
        }),
      ),
    ).toBe(
      findingContentHash(
        createFinding({
          category: 'X',
          subject: 's',
          line: 'l',
          action: 'a',
          short: 's',
          details: { b: [1, { d: 3, c: 2 }], a: 1 },
          priority: 'Normal',
        }),
      ),
    );
  });

  it('the memory is bounded: gone findings are forgotten after the retention, at most MAX_REPORT_MEMORY stay', () => {
    const reported = Object.fromEntries(Array.from({ length: MAX_REPORT_MEMORY + 10 }, (_, i) => [`F:${i}`, T0 + i]));
    const reportedContent = { 'F:0': { hash: 'aa', repeats: 1 }, [`F:${MAX_REPORT_MEMORY + 9}`]: { hash: 'bb', repeats: 2 } };
    const pruned = pruneReportMemory({ reported, reportedContent }, new Set(), T0 + MAX_REPORT_MEMORY, 24 * HOUR);
    expect(Object.keys(pruned.reported)).toHaveLength(MAX_REPORT_MEMORY);
    expect(pruned.reported['F:0']).toBeUndefined();
    expect(pruned.reportedContent).toEqual({ [`F:${MAX_REPORT_MEMORY + 9}`]: { hash: 'bb', repeats: 2 } });
    const later = pruneReportMemory(pruned, new Set([`F:${MAX_REPORT_MEMORY + 9}`]), T0 + 48 * HOUR, 24 * HOUR);
    expect(Object.keys(later.reported)).toEqual([`F:${MAX_REPORT_MEMORY + 9}`]);
  });

  it('repeatScheduleOf: own class line, else Repeat:, else the dedup window', () => {
    const config = configWith({ all: [HOUR], normal: [2 * HOUR, 4 * HOUR] });
    expect(repeatScheduleOf(config, 'Normal')).toEqual([2 * HOUR, 4 * HOUR]);
    expect(repeatScheduleOf(config, 'Advisory')).toEqual([HOUR]);
    expect(repeatScheduleOf(DEFAULT_HEARTBEAT_CONFIG, 'Immediate')).toEqual([30 * MIN]);
  });
});

describe('properties over cycles (random gaps, contents, failed deliveries, busy operator)', () => {
  const cycleArb = fc.record({
    gapMin: fc.integer({ min: 0, max: 240 }),
    say: fc.constantFrom('x', 'x', 'x', 'y'),
    present: fc.boolean(),
    busy: fc.boolean(),
    delivered: fc.boolean(),
  });

  it('no change ⇒ never reported more often than the schedule, and always reported once due', () => {
    fc.assert(
      fc.property(scheduleArb, fc.array(cycleArb, { maxLength: 40 }), (schedule, cycles) => {
        const config = configWith({ advisory: schedule });
        let state: HeartbeatState = initialHeartbeatState();
        let t = T0;
        const deliveries: number[] = [];
        for (const c of cycles) {
          t += c.gapMin * MIN;
          const stale = finding('GIT_STALE', '/wt', 'same every time');
          const { decision, nextState } = evaluateCycle(state, [scanOk('git', { findings: c.present ? [stale] : [] })], {
            ...cycleContext(t, { config }),
            operatorLastActiveAt: c.busy ? new Date(t) : undefined,
          });
          const last = deliveries.at(-1);
          const due = last === undefined || t >= last + repeatIntervalMs(schedule, deliveries.length - 1);
          const reported = decision.reportable.length > 0;
          // Never sooner than the schedule; and when due, present and the operator idle, never held back.
          if (reported) expect(due).toBe(true);
          if (due && c.present && !c.busy) expect(reported).toBe(true);
          state = c.delivered ? markDelivered(nextState, decision, new Date(t)) : nextState;
          if (c.delivered && reported) deliveries.push(t);
          // A finding gone for a day is forgotten (the memory is bounded): it starts over as new.
          const latest = deliveries.at(-1);
          if (!c.present && latest !== undefined && t - latest >= 24 * HOUR) deliveries.length = 0;
          // The memory always survives a save and a load.
          state = decodeHeartbeatState(encodeHeartbeatState(state)).state;
        }
      }),
      { numRuns: 300 },
    );
  });

  it('content change ⇒ reported in the cycle that sees it (inside active hours, operator idle)', () => {
    fc.assert(
      fc.property(scheduleArb, fc.array(cycleArb, { maxLength: 40 }), (schedule, cycles) => {
        const config = configWith({ all: schedule });
        let state: HeartbeatState = initialHeartbeatState();
        let t = T0;
        let deliveredSay: string | undefined;
        for (const c of cycles) {
          t += c.gapMin * MIN;
          const crash = finding('ORCH_FAILURE', 'orch-a', c.say);
          const { decision, nextState } = evaluateCycle(
            state,
            [scanOk('orchestrators', { findings: c.present ? [crash] : [] })],
            cycleContext(t, { config }),
          );
          if (c.present && deliveredSay !== undefined && deliveredSay !== c.say)
            expect(decision.reportable.map((f) => f.fingerprint)).toEqual([crash.fingerprint]);
          state = c.delivered ? markDelivered(nextState, decision, new Date(t)) : nextState;
          if (c.delivered && decision.reportable.length > 0) deliveredSay = c.say;
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('HEARTBEAT.md Repeat lines', () => {
  it('reads Repeat and per-priority lines, renders them back', () => {
    const parsed = parseHeartbeatConfig(
      '## Heartbeat\n- Repeat: 30m, 2h, 8h\n- Repeat Advisory: 1 hour, 1 day\n- Repeat Normal: 90\n',
    )._unsafeUnwrap();
    expect(parsed.config.repeat).toEqual({ all: [30 * MIN, 2 * HOUR, 8 * HOUR], advisory: [HOUR, 24 * HOUR], normal: [90 * MIN] });
    expect(parsed.warnings).toEqual([]);
    expect(parseHeartbeatConfig(renderHeartbeatMarkdown(parsed.config))._unsafeUnwrap().config).toEqual(parsed.config);
  });

  it('errors name the file, line, key and fix', () => {
    const cases: [string, RegExp][] = [
      ['- Repeat: 2h, 30m', /gets shorter \(30 minutes after 2 hours\)/],
      ['- Repeat Advisory: 30m, soon', /"soon", which has no duration/],
      ['- Repeat Normal: 30m,,2h', /empty interval/],
      ['- Repeat: 60d', /longer than 30 days/],
      ['- Repeat: 1m,2m,3m,4m,5m,6m,7m,8m,9m,10m,11m', /11 intervals; at most 10/],
    ];
    for (const [line, message] of cases) {
      const error = parseHeartbeatConfig(`## Heartbeat\n${line}\n`, { file: 'HB.md' })._unsafeUnwrapErr();
      expect(error.file).toBe('HB.md');
      expect(error.line).toBe(2);
      expect(error.key).toMatch(/^Heartbeat → Repeat/);
      expect(error.message).toMatch(message);
      expect(error.fix).toBe(
        'write intervals from shortest to longest, separated by commas, such as 30m, 2h, 8h (bare numbers are minutes).',
      );
    }
  });
});
