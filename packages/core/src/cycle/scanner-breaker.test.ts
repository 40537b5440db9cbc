import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_HEARTBEAT_CONFIG } from '../config/heartbeat-config-schema.js';
import { OUTSIDE_ACTIVE_HOURS_REASON, scanOk, type ScanResult } from '../domain/scan-result.js';
import type { Scanner } from '../ports/scanner.js';
import { createFakeClock, createMemoryStateStore, createRecordingSink } from '../testing/index.js';
import { evaluateCycle, markDelivered } from './evaluate-cycle.js';
import { createCycleRecord, replayCycleRecords } from '../replay/cycle-record.js';
import { heartbeatStateSchema, initialHeartbeatState } from './heartbeat-state.js';
import { runCycle } from './run-cycle.js';
import { scanProblems } from './scan-problems.js';
import {
  BREAKER_SKIP_CODE,
  MAX_BREAKERS,
  SCANNER_FAILING,
  breakerSkips,
  updateBreakers,
  type BreakerSettings,
  type ScannerBreaker,
} from './scanner-breaker.js';
import { cycleContext } from '../../test/support/cycle-context.js';
import { DEFAULT_CATEGORIES } from '../../test/support/cobuilder-categories.js';

const T0 = Date.parse('2026-02-19T09:10:00Z');
const INTERVAL = 600_000;

/** What a scanner does in one cycle when it runs. */
type Token = 'ok' | 'failed' | 'bd-locked' | 'timeout' | 'degraded' | 'outside' | 'notice' | 'cut-off';

function resultOf(scanner: string, token: Token): ScanResult {
  switch (token) {
    case 'ok':
      return scanOk(scanner, {});
    case 'failed':
      return { scanner, status: 'error', error: 'bd list exited 1: database locked', durationMs: 5 };
    case 'bd-locked':
      // One bd failure as each bd-backed scanner says it: its own command, one cause.
      return { scanner, status: 'error', error: `bd ${scanner} --json: database locked`, cause: 'bd: database locked', durationMs: 5 };
    case 'timeout':
      return { scanner, status: 'timeout', timeoutMs: 30_000, durationMs: 30_000 };
    case 'degraded':
      return scanOk(scanner, {
        warnings: [
          { code: 'GCHAT_NO_CREDENTIALS', message: 'No OAuth2 credentials configured for GChat polling', fix: 'put a token in place' },
        ],
      });
    case 'outside':
      return { scanner, status: 'skipped', reason: OUTSIDE_ACTIVE_HOURS_REASON, durationMs: 0 };
    case 'notice':
      return { scanner, status: 'skipped', reason: 'no beads database found', durationMs: 0 };
    case 'cut-off':
      return { scanner, status: 'error', error: 'bd was killed by SIGTERM', durationMs: 5 };
  }
}

const FAILING: readonly Token[] = ['failed', 'bd-locked', 'timeout', 'degraded'];

interface Model {
  code: string | undefined;
  streak: number;
  skippable: boolean;
  skipsInARow: number;
  tripsThisStreak: number;
  deliveredThisStreak: boolean;
}

function fresh(): Model {
  return { code: undefined, streak: 0, skippable: false, skipsInARow: 0, tripsThisStreak: 0, deliveredThisStreak: false };
}

const SCANNERS = ['beads', 'stale-tasks', 'gchat'] as const;
const settingsArb: fc.Arbitrary<BreakerSettings> = fc.record({
  after: fc.integer({ min: 1, max: 5 }),
  backoffCap: fc.integer({ min: 1, max: 10 }),
});
/** `bd-locked`, `timeout` and `degraded` are three causes, each with its own code; `failed` shares bd-locked's code (a drifting message). */
const cycleArb = (failing: readonly Token[]) =>
  fc.record({
    tokens: fc.tuple(...SCANNERS.map(() => fc.constantFrom<Token>('ok', ...failing, ...failing, 'outside', 'notice', 'cut-off'))),
    delivered: fc.boolean(),
  });
// Long failing runs are what the breaker is for, and one cause failing several scanners at once is
// what grouping is for: bias towards both.
const runArb = (failing: readonly Token[]) =>
  fc.array(
    fc.oneof(
      cycleArb(failing),
      cycleArb(failing).map((c) => ({ ...c, tokens: c.tokens.map((): Token => 'bd-locked') })),
      cycleArb(failing).map((c) => ({ ...c, tokens: c.tokens.map((t, i): Token => (i < 2 ? 'bd-locked' : t)) })),
    ),
    { minLength: 1, maxLength: 80 },
  );

/** Which cause a failing token is (its code, cause and fix are the same for every scanner). */
function causeOf(token: Token): string {
  return token === 'failed' ? 'bd-locked' : token;
}

function scannersOf(finding: { readonly details: Readonly<Record<string, unknown>> }): string[] {
  return finding.details.scanners as string[];
}

describe('circuit breaker properties', () => {
  for (const [title, failing, drift] of [
    ['three causes', ['bd-locked', 'timeout', 'degraded'], false],
    ['three causes, one with a drifting message', ['bd-locked', 'failed', 'timeout', 'degraded'], true],
  ] as const) {
    it(`${title}: never skips a scanner that has not failed N times in a row; back-off never exceeds the cap; a clean run resets; one trip and one recovery per streak; one SCANNER_FAILING advisory per cause, naming every scanner tripped by it, until delivered`, () => {
      fc.assert(
        fc.property(settingsArb, runArb(failing), (settings, run) => {
          let breakers: Record<string, ScannerBreaker> | undefined;
          const reported: Record<string, number> = {};
          const models = new Map<string, Model>(SCANNERS.map((s) => [s, fresh()]));
          /** Per cause: the scanners tripped by it after the previous cycle, and whether its advisory was delivered. */
          let trippedBy = new Map<string, Set<string>>();
          const delivered = new Set<string>();
          run.forEach((step, index) => {
            const cycle = index + 1;
            const now = new Date(T0 + cycle * INTERVAL);
            const skips = breakerSkips(breakers, cycle, settings);
            const results = SCANNERS.map((scanner, i) => {
              const token = step.tokens[i]!;
              // Outside active hours wins over the breaker, as in runScanners.
              if (token === 'outside') return resultOf(scanner, token);
              return skips.get(scanner) ?? resultOf(scanner, token);
            });
            const update = updateBreakers(breakers, reported, results, { cycle, now, timeZone: 'UTC', settings });

            SCANNERS.forEach((scanner, i) => {
              const model = models.get(scanner)!;
              const token = step.tokens[i]!;
              const skipped = token !== 'outside' && skips.has(scanner);
              // An event names every scanner it happened to: each scanner's own story is the same as alone.
              const events = update.events.filter((e) => e.scanners.includes(scanner));
              expect(events.every((e) => e.scanner === e.scanners[0])).toBe(true);
              if (skipped) {
                // Only a scanner that failed the same way N cycles in a row, and looked at nothing, is skipped.
                expect(model.streak).toBeGreaterThanOrEqual(settings.after);
                expect(model.skippable).toBe(true);
                model.skipsInARow++;
                expect(model.skipsInARow).toBeLessThanOrEqual(settings.backoffCap - 1);
                expect(events).toEqual([]);
              } else if (token === 'outside' || token === 'cut-off') {
                expect(events).toEqual([]);
              } else {
                model.skipsInARow = 0;
                const wasTripped = model.streak >= settings.after;
                if (FAILING.includes(token)) {
                  const code = scanProblems([resultOf(scanner, token)])[0]!.code;
                  const expected: string[] = [];
                  if (code === model.code) model.streak++;
                  else {
                    // Failing another way is a new streak: a tripped one says it ended.
                    if (wasTripped) expected.push('changed');
                    Object.assign(model, fresh(), { code, streak: 1, cause: causeOf(token) });
                  }
                  model.skippable = token !== 'degraded';
                  if (model.streak === settings.after) {
                    expected.push('tripped');
                    model.tripsThisStreak++;
                  }
                  expect(events.map((e) => e.kind)).toEqual(expected);
                  expect(update.breakers[scanner]?.failures).toBe(model.streak);
                } else {
                  // A clean run (or a notice: nothing set up) ends the streak; a tripped one says so once.
                  expect(events.map((e) => e.kind)).toEqual(wasTripped ? [token === 'ok' ? 'recovered' : 'changed'] : []);
                  expect(update.breakers[scanner]).toBeUndefined();
                  Object.assign(model, fresh());
                }
              }
              expect(model.tripsThisStreak).toBeLessThanOrEqual(1);
            });

            // The advisories: one per cause, never two naming one scanner, only tripped scanners named.
            expect(update.findings.every((f) => f.category === SCANNER_FAILING && f.priority === 'Advisory')).toBe(true);
            const named = update.findings.flatMap(scannersOf);
            expect(new Set(named).size).toBe(named.length);
            const nowTrippedBy = new Map<string, Set<string>>();
            for (const scanner of SCANNERS) {
              const model = models.get(scanner)!;
              if (model.streak < settings.after) continue;
              const cause = (model as Model & { cause: string }).cause;
              nowTrippedBy.set(cause, new Set([...(nowTrippedBy.get(cause) ?? []), scanner]));
            }
            for (const name of named) expect(models.get(name)!.streak).toBeGreaterThanOrEqual(settings.after);
            // A group no scanner stayed tripped through is over: a later trip by that cause is a new advisory.
            for (const [cause, scanners] of nowTrippedBy)
              if (![...scanners].some((s) => trippedBy.get(cause)?.has(s) === true)) delivered.delete(cause);
            for (const cause of [...delivered]) if (!nowTrippedBy.has(cause)) delivered.delete(cause);
            if (!drift) {
              // Exactly one advisory per cause currently tripped and not yet delivered, naming all its scanners.
              const expected = [...nowTrippedBy]
                .filter(([cause]) => !delivered.has(cause))
                .map(([, scanners]) => [...scanners].sort())
                .sort();
              expect(update.findings.map((f) => scannersOf(f).sort()).sort()).toEqual(expected);
              if (step.delivered) for (const [cause] of nowTrippedBy) delivered.add(cause);
            } else {
              // A message that drifts keeps a scanner in the group it tripped in: still at most one advisory per group.
              const groups = new Set(Object.values(update.breakers).map((b) => b.group));
              expect(update.findings.length).toBeLessThanOrEqual(groups.size);
            }
            trippedBy = nowTrippedBy;
            if (step.delivered) for (const f of update.findings) reported[f.fingerprint] = now.getTime();
            breakers = update.breakers;
            // Bounded and valid: the state that carries it always loads again.
            expect(Object.keys(breakers).every((name) => (SCANNERS as readonly string[]).includes(name))).toBe(true);
            expect(heartbeatStateSchema.safeParse({ ...initialHeartbeatState(), breakers }).success).toBe(true);
          });
        }),
        { numRuns: 300 },
      );
    });
  }

  it('whatever the stored entry says, a scanner is never skipped more than cap - 1 cycles in a row', () => {
    const entryArb = fc.record({
      code: fc.constant('SCANNER_FAILED'),
      message: fc.string({ maxLength: 20 }),
      fix: fc.string({ maxLength: 20 }),
      sinceMs: fc.nat(),
      failures: fc.integer({ min: 1, max: 1000 }),
      skippable: fc.boolean(),
      backoff: fc.integer({ min: 0, max: 100 }),
      nextRunCycle: fc.nat({ max: 10_000 }),
      advised: fc.boolean(),
    });
    fc.assert(
      fc.property(entryArb, settingsArb, fc.nat({ max: 10_000 }), (entry, settings, start) => {
        let skipped = 0;
        for (let cycle = start; cycle < start + settings.backoffCap + 1; cycle++) {
          if (!breakerSkips({ beads: entry }, cycle, settings).has('beads')) break;
          skipped++;
        }
        expect(skipped).toBeLessThanOrEqual(settings.backoffCap - 1);
        if (skipped > 0) expect(entry.failures).toBeGreaterThanOrEqual(settings.after);
      }),
    );
  });
});

describe('updateBreakers', () => {
  const settings = { after: 3, backoffCap: 8 };
  function drive(tokens: readonly Token[]): { ran: number[]; skipped: number[]; lines: string[]; advisories: string[] } {
    let breakers: Record<string, ScannerBreaker> | undefined;
    const reported: Record<string, number> = {};
    const out = { ran: [] as number[], skipped: [] as number[], lines: [] as string[], advisories: [] as string[] };
    let next = 0;
    for (let cycle = 1; next < tokens.length; cycle++) {
      const now = new Date(T0 + (cycle - 1) * INTERVAL);
      const skip = breakerSkips(breakers, cycle, settings).get('beads');
      if (skip === undefined) out.ran.push(cycle);
      else out.skipped.push(cycle);
      const update = updateBreakers(breakers, reported, [skip ?? resultOf('beads', tokens[next++]!)], {
        cycle,
        now,
        timeZone: 'UTC',
        settings,
      });
      for (const f of update.findings) {
        out.advisories.push(f.line);
        reported[f.fingerprint] = now.getTime();
      }
      out.lines.push(...update.events.map((e) => e.line));
      breakers = update.breakers;
    }
    return out;
  }

  it('trips after 3 failing cycles, runs every 2nd, 4th, 8th cycle (the cap), and says the recovery once', () => {
    const { ran, skipped, lines, advisories } = drive(['failed', 'failed', 'failed', 'failed', 'failed', 'failed', 'failed', 'ok', 'ok']);
    expect(ran).toEqual([1, 2, 3, 5, 9, 17, 25, 33, 34]);
    expect(skipped).toHaveLength(34 - 9);
    expect(advisories).toEqual([
      'SCANNER_FAILING: beads — bd list exited 1: database locked since 09:10, 3 cycles; tried again every 2nd cycle, backing off to every 8th cycle',
    ]);
    expect(lines).toEqual([
      'beads: circuit breaker open after 3 failing cycles in a row (SCANNER_FAILED since 09:10); raised SCANNER_FAILING once; it runs every 2nd cycle now, backing off to every 8th cycle',
      'beads recovered: it ran cleanly after 7 failing cycles in a row (SCANNER_FAILED since 09:10); circuit breaker closed, it runs every cycle again',
    ]);
  });

  it('a degraded scanner (it still looks at part of what it watches) raises the advisory but is never skipped', () => {
    const { ran, skipped, advisories, lines } = drive(['degraded', 'degraded', 'degraded', 'degraded', 'degraded']);
    expect(ran).toEqual([1, 2, 3, 4, 5]);
    expect(skipped).toEqual([]);
    expect(advisories).toHaveLength(1);
    expect(advisories[0]).toMatch(/^SCANNER_FAILING: beads — No OAuth2 credentials configured for GChat polling since 09:10, 3 cycles$/);
    expect(lines[0]).toMatch(/it still runs every cycle/);
  });

  it('is off with Breaker after: 0, and a notice (nothing set up) or a cut-off never counts', () => {
    const off = updateBreakers(undefined, {}, [resultOf('beads', 'failed')], {
      cycle: 1,
      now: new Date(T0),
      timeZone: 'UTC',
      settings: { after: 0, backoffCap: 8 },
    });
    expect(off).toEqual({ breakers: {}, findings: [], events: [] });
    const { skipped, advisories } = drive(['notice', 'notice', 'notice', 'cut-off', 'cut-off', 'cut-off', 'notice']);
    expect(skipped).toEqual([]);
    expect(advisories).toEqual([]);
  });

  it('its skip is a warning problem that names the streak, the next try and the fix', () => {
    const entry: ScannerBreaker = {
      code: 'SCANNER_FAILED',
      message: 'bd list exited 1',
      fix: 'run bd list by hand',
      sinceMs: T0,
      failures: 4,
      skippable: true,
      backoff: 4,
      nextRunCycle: 12,
      advised: true,
    };
    const skip = breakerSkips({ beads: entry }, 10, settings).get('beads')!;
    expect(scanProblems([skip])).toEqual([
      {
        scanner: 'beads',
        kind: 'skipped',
        severity: 'warning',
        code: BREAKER_SKIP_CODE,
        message:
          'not run this cycle: its circuit breaker is open after 4 failing cycles in a row (SCANNER_FAILED: bd list exited 1); next try at cycle 12',
        fix: 'run bd list by hand',
      },
    ]);
  });

  it('keeps at most one breaker per scanner of this cycle and drops scanners that are gone', () => {
    const many = Array.from({ length: MAX_BREAKERS + 5 }, (_, i) => resultOf(`s${i}`, 'failed'));
    const update = updateBreakers(undefined, {}, many, { cycle: 1, now: new Date(T0), timeZone: 'UTC', settings });
    expect(Object.keys(update.breakers)).toHaveLength(MAX_BREAKERS);
    expect(
      updateBreakers(update.breakers, {}, [resultOf('other', 'ok')], { cycle: 2, now: new Date(T0), timeZone: 'UTC', settings }).breakers,
    ).toEqual({});
  });
});

describe('one advisory per cause', () => {
  const settings = { after: 3, backoffCap: 8 };
  /** Runs cycles of per-scanner tokens; every advisory offered is delivered. */
  function drive(rows: readonly Record<string, Token>[], start?: Record<string, ScannerBreaker>) {
    let breakers: Record<string, ScannerBreaker> | undefined = start;
    const reported: Record<string, number> = {};
    const out = { advisories: [] as string[][], lines: [] as string[][], ran: [] as string[][], breakers: () => breakers };
    rows.forEach((row, i) => {
      const cycle = i + 1;
      const now = new Date(T0 + i * INTERVAL);
      const skips = breakerSkips(breakers, cycle, settings);
      const results = Object.entries(row).map(([scanner, token]) => skips.get(scanner) ?? resultOf(scanner, token));
      out.ran.push(Object.keys(row).filter((scanner) => !skips.has(scanner)));
      const update = updateBreakers(breakers, reported, results, { cycle, now, timeZone: 'UTC', settings });
      out.advisories.push(update.findings.map((f) => f.line));
      for (const f of update.findings) reported[f.fingerprint] = now.getTime();
      out.lines.push(update.events.map((e) => e.line));
      breakers = update.breakers;
    });
    return out;
  }

  it('one bd failure in two scanners: one advisory naming both with the shared cause, one trip line, held back and tried as one, one recovery line', () => {
    const failing = { beads: 'bd-locked', 'stale-tasks': 'bd-locked', git: 'ok' } as const;
    const ok = { beads: 'ok', 'stale-tasks': 'ok', git: 'ok' } as const;
    const { advisories, lines, ran } = drive([failing, failing, failing, failing, failing, ok, ok, ok, ok]);
    expect(advisories.flat()).toEqual([
      'SCANNER_FAILING: beads, stale-tasks — bd: database locked since 09:10, 3 cycles; tried again every 2nd cycle, backing off to every 8th cycle',
    ]);
    expect(advisories[2]).toHaveLength(1);
    expect(lines.flat()).toEqual([
      'beads, stale-tasks: circuit breaker open after 3 failing cycles in a row (SCANNER_FAILED since 09:10); raised SCANNER_FAILING once; they run every 2nd cycle now, backing off to every 8th cycle',
      'beads, stale-tasks recovered: they ran cleanly after 4 failing cycles in a row (SCANNER_FAILED since 09:10); circuit breaker closed, they run every cycle again',
    ]);
    expect(ran).toEqual([
      ['beads', 'stale-tasks', 'git'],
      ['beads', 'stale-tasks', 'git'],
      ['beads', 'stale-tasks', 'git'],
      ['git'],
      ['beads', 'stale-tasks', 'git'],
      ['git'],
      ['git'],
      ['git'],
      ['beads', 'stale-tasks', 'git'],
    ]);
  });

  it('when only some recover, the line names those; a scanner tripping later by the same cause joins the delivered advisory (no second one) and its back-off', () => {
    const { advisories, lines, breakers, ran } = drive([
      { beads: 'bd-locked', 'stale-tasks': 'ok' },
      { beads: 'bd-locked', 'stale-tasks': 'bd-locked' },
      { beads: 'bd-locked', 'stale-tasks': 'bd-locked' },
      { beads: 'bd-locked', 'stale-tasks': 'bd-locked' }, // beads held back (cycle 4); stale-tasks trips
      { beads: 'bd-locked', 'stale-tasks': 'bd-locked' }, // both tried at cycle 5
      { beads: 'bd-locked', 'stale-tasks': 'bd-locked' },
      { beads: 'bd-locked', 'stale-tasks': 'bd-locked' },
      { beads: 'bd-locked', 'stale-tasks': 'bd-locked' },
      { beads: 'bd-locked', 'stale-tasks': 'ok' }, // cycle 9: both tried; stale-tasks works
    ]);
    expect(advisories.flat()).toEqual([
      'SCANNER_FAILING: beads — bd beads --json: database locked since 09:10, 3 cycles; tried again every 2nd cycle, backing off to every 8th cycle',
    ]);
    expect(lines.flat()).toEqual([
      'beads: circuit breaker open after 3 failing cycles in a row (SCANNER_FAILED since 09:10); raised SCANNER_FAILING once; it runs every 2nd cycle now, backing off to every 8th cycle',
      'stale-tasks: circuit breaker open after 3 failing cycles in a row (SCANNER_FAILED since 09:20); same cause as beads: shares its SCANNER_FAILING advisory; it runs every 2nd cycle now, backing off to every 8th cycle',
      'stale-tasks recovered: it ran cleanly after 4 failing cycles in a row (SCANNER_FAILED since 09:20); circuit breaker closed, it runs every cycle again',
    ]);
    // stale-tasks took beads' schedule when it joined: from then on they are held back and tried together.
    expect(ran.slice(3)).toEqual([['stale-tasks'], ['beads', 'stale-tasks'], [], [], [], ['beads', 'stale-tasks']]);
    const left = breakers();
    expect(Object.keys(left ?? {})).toEqual(['beads']);
    expect(left?.beads).toMatchObject({ group: 'beads:SCANNER_FAILED:' + T0, advised: true });
  });

  it('different causes stay apart: a bd failure and a timeout are two advisories', () => {
    const row = { beads: 'bd-locked', 'stale-tasks': 'bd-locked', git: 'timeout' } as const;
    const { advisories } = drive([row, row, row]);
    expect(advisories[2]).toEqual([
      'SCANNER_FAILING: beads, stale-tasks — bd: database locked since 09:10, 3 cycles; tried again every 2nd cycle, backing off to every 8th cycle',
      'SCANNER_FAILING: git — timed out after 30000 ms since 09:10, 3 cycles; tried again every 2nd cycle, backing off to every 8th cycle',
    ]);
  });

  it('two groups never share a subject, even when a scanner fails again at the instant that named the group it left', () => {
    const staleTasks: ScannerBreaker = {
      code: 'SCANNER_FAILED',
      message: 'bd stale-tasks --json: database locked',
      cause: 'bd: database locked',
      fix: 'run the tool by hand in the project directory to see why it fails',
      sinceMs: T0,
      failures: 3,
      skippable: true,
      backoff: 2,
      nextRunCycle: 2,
      advised: true,
      group: `beads:SCANNER_FAILED:${T0}`,
    };
    const update = updateBreakers({ 'stale-tasks': staleTasks }, {}, [resultOf('beads', 'failed'), resultOf('stale-tasks', 'bd-locked')], {
      cycle: 2,
      now: new Date(T0),
      timeZone: 'UTC',
      settings: { after: 1, backoffCap: 8 },
    });
    expect(update.findings.map((f) => [f.subject, scannersOf(f)])).toEqual([[`beads:SCANNER_FAILED:${T0}#2`, ['beads']]]);
    expect(update.breakers['stale-tasks']).toMatchObject({ group: `beads:SCANNER_FAILED:${T0}`, advised: true });
  });

  it('a state written before grouping (no cause, no group) loads and keeps its delivered advisory: nothing is raised again', () => {
    const legacy: ScannerBreaker = {
      code: 'SCANNER_FAILED',
      message: 'bd beads --json: database locked',
      fix: 'run the tool by hand in the project directory to see why it fails',
      sinceMs: T0,
      failures: 3,
      skippable: true,
      backoff: 2,
      nextRunCycle: 1,
      advised: true,
    };
    expect(heartbeatStateSchema.safeParse({ ...initialHeartbeatState(), breakers: { beads: legacy } }).success).toBe(true);
    const { advisories, lines, breakers } = drive([{ beads: 'bd-locked', 'stale-tasks': 'bd-locked' }], { beads: legacy });
    expect(advisories.flat()).toEqual([]);
    expect(lines.flat()).toEqual([]);
    expect(breakers()?.beads).toMatchObject({ group: `beads:SCANNER_FAILED:${T0}`, advised: true, failures: 4 });
  });
});

describe('the breaker inside a cycle', () => {
  it('evaluateCycle reports the trip as one SCANNER_FAILING advisory and keeps the breaker in the next state', () => {
    let state = initialHeartbeatState();
    const categories: string[][] = [];
    for (let i = 0; i < 3; i++) {
      const { decision, nextState } = evaluateCycle(state, [resultOf('beads', 'failed')], cycleContext(T0 + i * INTERVAL));
      categories.push([...decision.categories]);
      state = nextState;
      if (i === 2) expect(decision.breakerEvents?.map((e) => e.kind)).toEqual(['tripped']);
    }
    expect(categories).toEqual([[], [], [SCANNER_FAILING]]);
    expect(state.breakers?.beads).toMatchObject({ failures: 3, backoff: 2, nextRunCycle: 5 });
  });

  it('a recorded run of trips, held-back cycles and a recovery replays to the same decisions', () => {
    let state = initialHeartbeatState();
    const lines: string[] = [];
    // Fails through cycle 5 (trip at 3, held back at 4, 6–8), works from then on: cycle 9 recovers.
    const tokens: Token[] = Array.from({ length: 10 }, (_, i) => (i < 5 ? 'failed' : 'ok'));
    for (let i = 0; i < tokens.length; i++) {
      const context = cycleContext(T0 + i * INTERVAL);
      const results = [
        breakerSkips(state.breakers, state.cycle + 1, DEFAULT_HEARTBEAT_CONFIG.breaker).get('beads') ?? resultOf('beads', tokens[i]!),
      ];
      const { decision, nextState } = evaluateCycle(state, results, context);
      lines.push(JSON.stringify(createCycleRecord(state, results, context, decision)));
      state = markDelivered(nextState, decision, context.now);
    }
    expect(lines.join('\n')).toContain(BREAKER_SKIP_CODE);
    expect(lines.join('\n')).toContain('"kind":"recovered"');
    // Recorded under cycleContext's table (the CoBuilder one), replayed under it.
    expect(replayCycleRecords(lines.join('\n'), { categories: DEFAULT_CATEGORIES })).toEqual({
      total: tokens.length,
      matched: tokens.length,
      mismatches: [],
      errors: [],
    });
  });

  it('runCycle does not call a scanner its breaker holds open, says so in the problems, and calls it again when due', async () => {
    const clock = createFakeClock(new Date(T0));
    const stateStore = createMemoryStateStore();
    const sink = createRecordingSink();
    let calls = 0;
    const beads: Scanner = {
      name: 'beads',
      runsOutsideActiveHours: true,
      scan: () => {
        calls++;
        return Promise.resolve(resultOf('beads', 'failed'));
      },
    };
    const codes: string[] = [];
    for (let i = 0; i < 5; i++) {
      const outcome = await runCycle(
        { clock, sleep: clock, stateStore, sink, scanners: [beads] },
        { config: DEFAULT_HEARTBEAT_CONFIG, timeZone: 'UTC' },
      );
      codes.push(outcome.problems.map((p) => p.code).join());
      clock.advance(INTERVAL);
    }
    expect(calls).toBe(4); // cycles 1, 2, 3 and 5: cycle 4 was held back by the breaker
    expect(codes).toEqual(['SCANNER_FAILED', 'SCANNER_FAILED', 'SCANNER_FAILED', BREAKER_SKIP_CODE, 'SCANNER_FAILED']);
    expect(sink.delivered.map((m) => m.content.split('\n')[0])).toEqual([`WORK_FOUND: ${SCANNER_FAILING}`]);
  });
});
