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

const T0 = Date.parse('2026-02-19T09:10:00Z');
const INTERVAL = 600_000;

/** What a scanner does in one cycle when it runs. */
type Token = 'ok' | 'failed' | 'timeout' | 'degraded' | 'outside' | 'notice' | 'cut-off';

function resultOf(scanner: string, token: Token): ScanResult {
  switch (token) {
    case 'ok':
      return scanOk(scanner, {});
    case 'failed':
      return { scanner, status: 'error', error: 'bd list exited 1: database locked', durationMs: 5 };
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

const FAILING: readonly Token[] = ['failed', 'timeout', 'degraded'];

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

const SCANNERS = ['beads', 'gchat'] as const;
const settingsArb: fc.Arbitrary<BreakerSettings> = fc.record({
  after: fc.integer({ min: 1, max: 5 }),
  backoffCap: fc.integer({ min: 1, max: 10 }),
});
const cycleArb = fc.record({
  tokens: fc.tuple(
    ...SCANNERS.map(() =>
      fc.constantFrom<Token>('ok', 'failed', 'failed', 'failed', 'timeout', 'degraded', 'outside', 'notice', 'cut-off'),
    ),
  ),
  delivered: fc.boolean(),
});
// Long failing runs are what the breaker is for: bias towards them.
const runArb = fc.array(
  fc.oneof(
    cycleArb,
    cycleArb.map((c) => ({ ...c, tokens: c.tokens.map((): Token => 'failed') })),
  ),
  { minLength: 1, maxLength: 80 },
);

describe('circuit breaker properties', () => {
  it('never skips a scanner that has not failed N times in a row; back-off never exceeds the cap; a clean run resets; one trip, one advisory, one recovery per streak', () => {
    fc.assert(
      fc.property(settingsArb, runArb, (settings, run) => {
        let breakers: Record<string, ScannerBreaker> | undefined;
        const reported: Record<string, number> = {};
        const models = new Map<string, Model>(SCANNERS.map((s) => [s, fresh()]));
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
            const events = update.events.filter((e) => e.scanner === scanner);
            const advisories = update.findings.filter((f) => f.details.scanner === scanner);
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
                  Object.assign(model, fresh(), { code, streak: 1 });
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
            const tripped = model.streak >= settings.after;
            // The advisory is offered while tripped until one is delivered, never after.
            expect(advisories.length).toBe(tripped && !model.deliveredThisStreak ? 1 : 0);
            if (advisories.length > 0 && step.delivered) model.deliveredThisStreak = true;
            expect(advisories.every((f) => f.category === SCANNER_FAILING && f.priority === 'Advisory')).toBe(true);
          });
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

describe('the breaker inside a cycle', () => {
  it('evaluateCycle reports the trip as one SCANNER_FAILING advisory and keeps the breaker in the next state', () => {
    let state = initialHeartbeatState();
    const context = { config: DEFAULT_HEARTBEAT_CONFIG, timeZone: 'UTC', insideActiveHours: true, operatorLastActiveAt: undefined };
    const categories: string[][] = [];
    for (let i = 0; i < 3; i++) {
      const { decision, nextState } = evaluateCycle(state, [resultOf('beads', 'failed')], { ...context, now: new Date(T0 + i * INTERVAL) });
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
      const context = {
        now: new Date(T0 + i * INTERVAL),
        config: DEFAULT_HEARTBEAT_CONFIG,
        timeZone: 'UTC',
        insideActiveHours: true,
        operatorLastActiveAt: undefined,
      };
      const results = [
        breakerSkips(state.breakers, state.cycle + 1, DEFAULT_HEARTBEAT_CONFIG.breaker).get('beads') ?? resultOf('beads', tokens[i]!),
      ];
      const { decision, nextState } = evaluateCycle(state, results, context);
      lines.push(JSON.stringify(createCycleRecord(state, results, context, decision)));
      state = markDelivered(nextState, decision, context.now);
    }
    expect(lines.join('\n')).toContain(BREAKER_SKIP_CODE);
    expect(lines.join('\n')).toContain('"kind":"recovered"');
    expect(replayCycleRecords(lines.join('\n'))).toEqual({ total: tokens.length, matched: tokens.length, mismatches: [], errors: [] });
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
