import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { activeHoursStatus } from '../active-hours/active-hours.js';
import { DEFAULT_HEARTBEAT_CONFIG } from '../config/heartbeat-config-schema.js';
import { nextGridSlot, planSlots, type PlanInput } from './plan.js';

const T0 = Date.parse('2026-02-19T10:03:17Z'); // a Thursday
const MIN = 60_000;

function input(overrides: Partial<PlanInput>): PlanInput {
  return {
    fromMs: T0,
    hours: 24,
    schedule: { kind: 'interval', intervalMs: 10 * MIN, offsetMs: 0 },
    config: DEFAULT_HEARTBEAT_CONFIG,
    timeZone: 'UTC',
    ...overrides,
  };
}

describe('nextGridSlot', () => {
  it('is the first grid point strictly after the instant, whatever the offset', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4e12 }),
        fc.integer({ min: 1, max: 86_400_000 }),
        fc.integer({ min: -1e9, max: 1e9 }),
        (ms, interval, offset) => {
          const next = nextGridSlot(ms, interval, offset);
          expect(next).toBeGreaterThan(ms);
          expect(next - interval).toBeLessThanOrEqual(ms);
          expect((((next - offset) % interval) + interval) % interval).toBe(0);
        },
      ),
    );
  });
});

describe('planSlots', () => {
  it('interval slots: on the grid, strictly increasing, inside [from, from + hours), none missing', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3e12 }),
        fc.integer({ min: 1, max: 48 }),
        fc.integer({ min: 1, max: 180 }),
        fc.nat(),
        (from, hours, intervalMin, offsetSeed) => {
          const intervalMs = intervalMin * MIN;
          const offsetMs = offsetSeed % intervalMs;
          const slots = planSlots(input({ fromMs: from, hours, schedule: { kind: 'interval', intervalMs, offsetMs } }));
          const times = slots.map((s) => Date.parse(s.at));
          const end = from + hours * 3_600_000;
          for (const t of times) {
            expect(t).toBeGreaterThanOrEqual(from);
            expect(t).toBeLessThan(end);
            expect((t - offsetMs) % intervalMs).toBe(0);
          }
          for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBe(intervalMs);
          // No grid point in the window is left out.
          if (times.length === 0) expect(nextGridSlot(from - 1, intervalMs, offsetMs)).toBeGreaterThanOrEqual(end);
          if (times.length > 0) {
            expect(times[0]! - intervalMs).toBeLessThan(from);
            expect(times.at(-1)! + intervalMs).toBeGreaterThanOrEqual(end);
          }
        },
      ),
    );
  });

  it('each verdict agrees with the active-hours judge at that instant', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3e12 }),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 24 }),
        fc.boolean(),
        fc.constantFrom('UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata'),
        (from, start, end, weekend, timeZone) => {
          const config = {
            ...DEFAULT_HEARTBEAT_CONFIG,
            activeHours: { start: `${String(start).padStart(2, '0')}:00`, end: `${String(end).padStart(2, '0')}:00`, weekend },
          };
          const slots = planSlots(
            input({ fromMs: from, hours: 12, config, timeZone, schedule: { kind: 'interval', intervalMs: 30 * MIN, offsetMs: 0 } }),
          );
          for (const slot of slots) {
            const inside = activeHoursStatus(new Date(slot.at), { start, end, weekend, timeZone }).inside;
            expect(slot.verdict).toBe(inside ? 'runs' : 'critical-only');
            expect(slot.reason).toMatch(inside ? /^inside active hours/ : /^(weekend|outside active hours)/);
          }
        },
      ),
    );
  });

  it('the same input gives the same plan (deterministic under --now)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3e12 }), (from) => {
        expect(planSlots(input({ fromMs: from, hours: 6 }))).toEqual(planSlots(input({ fromMs: from, hours: 6 })));
      }),
    );
  });

  it('an instant that is itself a slot is the first slot', () => {
    const at = Date.parse('2026-02-19T10:10:00Z');
    expect(planSlots(input({ fromMs: at, hours: 1 }))[0]?.at).toBe('2026-02-19T10:10:00.000Z');
  });

  it('cron slots follow nextAfter and stop at the end, at maxSlots, or when the schedule does not advance', () => {
    const everyHour = {
      kind: 'cron' as const,
      expression: '0 * * * *',
      nextAfter: (ms: number) => Math.floor(ms / 3_600_000) * 3_600_000 + 3_600_000,
    };
    expect(planSlots(input({ schedule: everyHour, hours: 3 })).map((s) => s.at)).toEqual([
      '2026-02-19T11:00:00.000Z',
      '2026-02-19T12:00:00.000Z',
      '2026-02-19T13:00:00.000Z',
    ]);
    expect(planSlots(input({ schedule: everyHour, hours: 3, maxSlots: 2 }))).toHaveLength(2);
    const never = { kind: 'cron' as const, expression: '0 0 31 2 *', nextAfter: () => undefined };
    expect(planSlots(input({ schedule: never }))).toEqual([]);
    const stuck = { kind: 'cron' as const, expression: 'x', nextAfter: () => T0 + MIN };
    expect(planSlots(input({ schedule: stuck }))).toHaveLength(1);
  });

  it("weekend and outside-hours reasons; a companion's verdict per slot, under its name", () => {
    const saturday = Date.parse('2026-02-21T12:00:00Z');
    // A companion's own judge (WoterClip's quiet hours: quietHoursPlanJudge in @heartbeat-kit/woterclip).
    const companion = {
      at: (d: Date) =>
        d.getUTCHours() >= 12 ? { verdict: 'triage-only', reason: 'quiet 12:00–00:00 UTC' } : { verdict: 'runs', reason: 'not quiet' },
    };
    const slots = planSlots(input({ fromMs: saturday - 30 * MIN, hours: 1, beside: { woterclip: companion } }));
    expect(slots[0]).toEqual({
      at: '2026-02-21T11:30:00.000Z',
      verdict: 'critical-only',
      reason: 'weekend (Sat): only P0/P1 beads, orchestrator failures and GChat replies',
      beside: { woterclip: { verdict: 'runs', reason: 'not quiet' } },
    });
    expect(slots.at(-1)?.beside).toEqual({ woterclip: { verdict: 'triage-only', reason: 'quiet 12:00–00:00 UTC' } });
    const night = planSlots(input({ fromMs: Date.parse('2026-02-19T23:00:00Z'), hours: 1 }))[0];
    expect(night?.reason).toBe('outside active hours 08:00–22:00 UTC: only P0/P1 beads, orchestrator failures and GChat replies');
  });

  it('minute-precise bounds and a Days list: the 08:30 boundary, and a day not in the list named as such', () => {
    const config = {
      ...DEFAULT_HEARTBEAT_CONFIG,
      activeHours: {
        start: '08:30',
        end: '18:15',
        weekend: false,
        days: ['Mon' as const, 'Tue' as const, 'Wed' as const, 'Thu' as const, 'Fri' as const],
      },
    };
    // Thursday 2026-02-19 and Saturday 2026-02-21, UTC.
    const thursday = planSlots(
      input({
        fromMs: Date.parse('2026-02-19T08:20:00Z'),
        hours: 0.5,
        config,
        schedule: { kind: 'interval', intervalMs: 10 * MIN, offsetMs: 0 },
      }),
    );
    expect(thursday.map((s) => [s.at.slice(11, 16), s.verdict])).toEqual([
      ['08:20', 'critical-only'],
      ['08:30', 'runs'],
      ['08:40', 'runs'],
    ]);
    expect(thursday[1]?.reason).toBe('inside active hours 08:30–18:15 Mon-Fri UTC');
    expect(thursday[0]?.reason).toBe(
      'outside active hours 08:30–18:15 Mon-Fri UTC: only P0/P1 beads, orchestrator failures and GChat replies',
    );
    const saturday = planSlots(input({ fromMs: Date.parse('2026-02-21T12:00:00Z'), hours: 0.1, config }))[0];
    expect(saturday?.reason).toBe('Sat is not an active day (Mon-Fri): only P0/P1 beads, orchestrator failures and GChat replies');
  });
});

describe('planSlots with an operator pause', () => {
  it('slots inside the pause window are paused with the note; after it they run again', () => {
    const from = Date.parse('2026-02-19T10:00:00Z');
    const slots = planSlots({
      fromMs: from,
      hours: 2,
      schedule: { kind: 'interval', intervalMs: 30 * 60_000, offsetMs: 0 },
      config: DEFAULT_HEARTBEAT_CONFIG,
      timeZone: 'UTC',
      pause: { v: 1, note: 'deploy', since: '2026-02-19T10:00:00.000Z', until: '2026-02-19T11:00:00.000Z' },
    });
    expect(slots.map((s) => s.verdict)).toEqual(['paused', 'paused', 'runs', 'runs']);
    expect(slots[0]!.reason).toContain('paused until 2026-02-19T11:00:00.000Z');
    expect(slots[0]!.reason).toContain('deploy');
    const partial = planSlots({
      fromMs: from,
      hours: 1,
      schedule: { kind: 'interval', intervalMs: 30 * 60_000, offsetMs: 0 },
      config: DEFAULT_HEARTBEAT_CONFIG,
      timeZone: 'UTC',
      pause: { v: 1, note: 'repack', since: '2026-02-19T10:00:00.000Z', scanners: ['git'] },
    });
    expect(partial.map((s) => s.verdict)).toEqual(['runs', 'runs']);
    expect(partial[0]!.reason).toContain('scanners git');
  });
});
