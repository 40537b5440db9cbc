import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PauseDecision } from '../operator/pause-decision.js';
import type { Pause } from '../operator/pause-model.js';
import type { SlotEnd } from './slot-end.js';
import { nextSlotStep, type GateFact, type LockFact, type RunFact, type SlotFacts, type SlotShape, type SlotStep } from './slot-planner.js';

const PAUSE: Pause = { v: 1, note: 'maintenance', since: '2026-07-22T10:00:00.000Z' };
const ORDER: readonly SlotStep['kind'][] = [
  'read-config',
  'check-gate',
  'take-lock',
  'check-recorded',
  'close-missed',
  'read-pause',
  'resolve-setup',
  'run',
];
const RAN: RunFact = { kind: 'ran', end: { kind: 'ran-work', count: 3, status: 'ok', delivery: 'none' } };
const REFUSED: RunFact = { kind: 'refused', end: { kind: 'state-refused', detail: 'written by a newer version' } };

const shapes = fc.record<SlotShape>({
  config: fc.boolean(),
  gate: fc.boolean(),
  lock: fc.boolean(),
  recorded: fc.boolean(),
  grid: fc.boolean(),
  pause: fc.boolean(),
  setup: fc.boolean(),
});
const configs = fc.constantFrom<NonNullable<SlotFacts['config']>>(
  { ok: true },
  { ok: false, detail: 'bad HEARTBEAT.md' },
  // A runner that records an unusable config as its own ending (WoterClip: an unreadable file).
  { ok: false, detail: 'config.yaml: EACCES', end: { kind: 'lock-unavailable', detail: 'config.yaml: EACCES' } },
);
const locks = fc.constantFrom<LockFact>(
  { kind: 'taken' },
  { kind: 'held', detail: 'another cycle holds the lock' },
  { kind: 'unavailable', detail: 'the lock could not be read' },
);
const pauses = fc.constantFrom<PauseDecision>(
  { kind: 'run' },
  { kind: 'skip', pause: PAUSE, line: 'paused: maintenance' },
  { kind: 'partial', pause: PAUSE, line: 'paused in part', scanners: ['disk'], criticalOnly: false },
);
const runs = fc.constantFrom<RunFact>(
  RAN,
  REFUSED,
  // The work's own ending (WoterClip's quiet hours, read under the lock), and a slot its successor recorded.
  { kind: 'own', end: { kind: 'quiet-hours', detail: 'quiet hours' } },
  { kind: 'recorded' },
);
const gates = fc.constantFrom<GateFact>(
  { kind: 'open' },
  { kind: 'closed', end: { kind: 'quiet-hours', detail: 'quiet hours' } },
  { kind: 'closed', end: { kind: 'breaker-open', detail: 'the dispatch breaker is open' } },
);
const setups = fc.constantFrom<NonNullable<SlotFacts['setup']>>(
  { ok: true },
  { ok: false, detail: 'unknown scanner set' },
  { ok: false, detail: 'no such set', end: { kind: 'config-error', detail: 'no such set' } },
);

/** A slot's ending as the model names it: a receipt's kind, or `recorded` (the slot had its record: none). */
type EndKind = SlotEnd['kind'] | 'recorded';
const endKind = (step: SlotStep): EndKind | undefined =>
  step.kind === 'end' ? step.end.kind : step.kind === 'recorded' ? 'recorded' : undefined;
/** The ending an unusable config or setup gives: the runner's own, else `config-error`. */
const unusableKind = (fact: NonNullable<SlotFacts['config']>): EndKind | undefined =>
  fact.ok ? undefined : (fact.end?.kind ?? 'config-error');
/** The ending the run step gives. */
const runKind = (run: RunFact): EndKind => (run.kind === 'recorded' ? 'recorded' : run.end.kind);

/** What each step would find, were it asked. */
interface Answers {
  readonly config: NonNullable<SlotFacts['config']>;
  readonly gate: GateFact;
  readonly lock: LockFact;
  readonly recorded: boolean;
  readonly setup: NonNullable<SlotFacts['setup']>;
  readonly pause: PauseDecision;
  readonly run: RunFact;
}
const answers = fc.record<Answers>({
  config: configs,
  gate: gates,
  lock: locks,
  recorded: fc.boolean(),
  setup: setups,
  pause: pauses,
  run: runs,
});

/** A runner: does each step the planner asks (from `answers`) until the slot ends; the steps it did, and the ending. */
function walk(shape: SlotShape, found: Answers): { steps: SlotStep['kind'][]; end: SlotStep; facts: SlotFacts } {
  const steps: SlotStep['kind'][] = [];
  let facts: SlotFacts = {};
  for (let i = 0; i < 10; i += 1) {
    const step = nextSlotStep(shape, facts);
    if (step.kind === 'end' || step.kind === 'recorded') return { steps, end: step, facts };
    steps.push(step.kind);
    if (step.kind === 'read-config') facts = { ...facts, config: found.config };
    if (step.kind === 'check-gate') facts = { ...facts, gate: found.gate };
    if (step.kind === 'take-lock') facts = { ...facts, lock: found.lock };
    if (step.kind === 'check-recorded') facts = { ...facts, recorded: found.recorded };
    if (step.kind === 'resolve-setup') facts = { ...facts, setup: found.setup };
    if (step.kind === 'close-missed') facts = { ...facts, missed: true };
    if (step.kind === 'read-pause') facts = { ...facts, pause: found.pause };
    if (step.kind === 'run') facts = { ...facts, run: found.run };
  }
  throw new Error(`no ending after 10 steps: ${steps.join(', ')}`);
}

/** The model: the first step (in the one order) whose answer ends the slot decides its ending. */
function expectedEnd(shape: SlotShape, found: Answers): EndKind {
  return endedBeforeRun(shape, found) ?? runKind(found.run);
}

/** The model's ending decided before the run step, if one is. */
function endedBeforeRun(shape: SlotShape, found: Answers): EndKind | undefined {
  if (shape.config && !found.config.ok) return unusableKind(found.config);
  if (shape.gate === true && found.gate.kind === 'closed') return found.gate.end.kind;
  if (shape.recorded === true && found.recorded) return 'recorded';
  if (shape.lock && found.lock.kind === 'held') return 'overlapping';
  if (shape.lock && found.lock.kind === 'unavailable') return 'lock-unavailable';
  if (shape.pause && found.pause.kind === 'skip') return 'paused';
  if (shape.setup === true && !found.setup.ok) return unusableKind(found.setup);
  return undefined;
}

describe("nextSlotStep: the order of a slot's decisions", () => {
  it('property: every slot ends exactly once, each step asked at most once and in the one order, ending as the model says', () => {
    fc.assert(
      fc.property(shapes, answers, (shape, found) => {
        const { steps, end, facts } = walk(shape, found);
        expect(new Set(steps).size).toBe(steps.length);
        expect(steps).toEqual(ORDER.filter((kind) => steps.includes(kind)));
        const kind = endKind(end);
        expect(kind).toBe(expectedEnd(shape, found));
        // Asked again with what it found, the planner gives the same ending: one ending per slot.
        expect(nextSlotStep(shape, facts)).toEqual(end);
        // The work runs only when nothing before it ended the slot; a step the shape lacks is never asked.
        expect(steps.includes('run')).toBe(endedBeforeRun(shape, found) === undefined);
        if (!shape.lock) expect(steps).not.toContain('take-lock');
        if (!shape.grid) expect(steps).not.toContain('close-missed');
        if (shape.gate !== true) expect(steps).not.toContain('check-gate');
        if (shape.recorded !== true) expect(steps).not.toContain('check-recorded');
        if (shape.setup !== true) expect(steps).not.toContain('resolve-setup');
      }),
    );
  });

  it('property: when several endings apply, the earliest step wins (config, gate, recorded, lock, pause, setup, run)', () => {
    const none = { config: false, lock: false, grid: false, pause: false };
    const found = fc.record(
      {
        config: configs,
        gate: gates,
        lock: locks,
        recorded: fc.boolean(),
        pause: pauses,
        setup: setups,
        run: runs,
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(found, (facts: SlotFacts) => {
        const { config, gate, recorded, lock, pause, setup, run } = facts;
        const step = nextSlotStep(none, facts);
        // The endings in the one order: the first that applies is the slot's.
        const candidates: readonly (readonly [boolean, EndKind | undefined])[] = [
          [config?.ok === false, config === undefined ? undefined : unusableKind(config)],
          [gate?.kind === 'closed', gate?.kind === 'closed' ? gate.end.kind : undefined],
          [recorded === true, 'recorded'],
          [lock?.kind === 'held', 'overlapping'],
          [lock?.kind === 'unavailable', 'lock-unavailable'],
          [pause?.kind === 'skip', 'paused'],
          [setup?.ok === false, setup === undefined ? undefined : unusableKind(setup)],
          [run !== undefined, run === undefined ? undefined : runKind(run)],
        ];
        const wins = candidates.find(([applies]) => applies)?.[1];
        if (wins === undefined) expect(step).toEqual({ kind: 'run', pause: pause ?? { kind: 'run' } });
        else expect(endKind(step)).toBe(wins);
      }),
      // Seven optional facts: enough runs that every pair of endings meets.
      { numRuns: 1000 },
    );
  });

  it('an overlapping ending names the holder, an unknown liveness when the store gave none; a partial pause is handed to the run', () => {
    const shape = { config: false, lock: true, grid: false, pause: true };
    expect(nextSlotStep(shape, { lock: { kind: 'held', detail: 'held' } })).toEqual({
      kind: 'end',
      end: { kind: 'overlapping', detail: 'held', liveness: 'unknown' },
    });
    const partial: PauseDecision = { kind: 'partial', pause: PAUSE, line: 'in part', scanners: ['disk'], criticalOnly: true };
    expect(nextSlotStep(shape, { lock: { kind: 'taken' }, pause: partial })).toEqual({ kind: 'run', pause: partial });
  });
});
