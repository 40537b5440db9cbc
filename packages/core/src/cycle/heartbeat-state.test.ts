import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../domain/json.js';
import {
  decodeHeartbeatState,
  encodeHeartbeatState,
  heartbeatStateSchema,
  initialHeartbeatState,
  type HeartbeatState,
} from './heartbeat-state.js';
import { createFinding } from '../../test/support/cobuilder-categories.js';

const reply = createFinding({
  category: 'GCHAT_REPLY_RECEIVED',
  subject: 'q-42',
  line: 'Q-42: yes, ship it',
  action: 'Act on the reply',
  short: 'reply to q-42',
});

function valid(): HeartbeatState {
  return {
    version: 3,
    cycle: 41,
    reportsSent: 7,
    reported: { 'P1_WORK_READY:b-1': 1_784_500_000_000 },
    reportedContent: { 'P1_WORK_READY:b-1': { hash: '0123456789abcdef0123456789ab', repeats: 2 } },
    seen: { 'PIPELINE_STALLED:p': 2 },
    scannerSlices: {
      'idle-orchestrators': { version: 1, data: { panes: { 'orch-a': { hash: 'abc', sinceMs: 5 } } } },
      pipelines: { version: 1, data: { stages: { p: 'Validation' } } },
      orchestrators: { version: 1, data: { inProgressCount: 3 } },
    },
    undelivered: [reply],
  };
}

/** The same memory as {@link valid} in the version 2 shape (core kept panes, stages and the count itself). */
function validV2(): Record<string, JsonValue> {
  const { scannerSlices: _moved, ...rest } = encodeHeartbeatState(valid()) as Record<string, JsonValue>;
  return {
    ...rest,
    version: 2,
    panes: { 'orch-a': { hash: 'abc', sinceMs: 5 } },
    pipelines: { p: 'Validation' },
    inProgressCount: 3,
  };
}

function withField(key: string, value: unknown): JsonValue {
  return { ...(encodeHeartbeatState(valid()) as Record<string, JsonValue>), [key]: value as JsonValue };
}

describe('decodeHeartbeatState', () => {
  it('uses a fitting document as is and no document as the initial state, with no damage', () => {
    expect(decodeHeartbeatState(encodeHeartbeatState(valid()))).toEqual({ state: valid(), warnings: [] });
    expect(decodeHeartbeatState(undefined)).toEqual({ state: initialHeartbeatState(), warnings: [] });
  });

  it('a wrong-typed field costs that field only: the cycle counter and undelivered replies are kept', () => {
    const decoded = decodeHeartbeatState(withField('seen', 'oops'));
    expect(decoded.newerVersion).toBeUndefined();
    expect(decoded.damage).toEqual(['seen: expected an object, got "oops"']);
    expect(decoded.state).toEqual({ ...valid(), seen: {} });
    expect(decoded.warnings[0]).toContain('kept every other field');
  });

  it('salvages entry by entry: one bad undelivered finding or record entry does not cost its neighbours', () => {
    const document = withField('undelivered', [{ nonsense: true }, encodeHeartbeatState(reply as unknown as HeartbeatState)]);
    (document as Record<string, JsonValue>).reported = { good: 5, bad: 'x' };
    const decoded = decodeHeartbeatState(document);
    expect(decoded.state.undelivered).toEqual([reply]);
    expect(decoded.state.reported).toEqual({ good: 5 });
    expect(decoded.damage).toHaveLength(2);
  });

  it('circuit breakers are salvaged entry by entry and bounded: a bad or surplus entry costs only itself', () => {
    const entry = {
      code: 'SCANNER_FAILED',
      message: 'bd list exited 1',
      fix: 'run bd by hand',
      sinceMs: 5,
      failures: 4,
      skippable: true,
      backoff: 4,
      nextRunCycle: 12,
      advised: true,
    };
    const decoded = decodeHeartbeatState(withField('breakers', { beads: entry, git: { ...entry, failures: -1 } }));
    expect(decoded.state.breakers).toEqual({ beads: entry });
    expect(decoded.damage).toEqual(['breakers["git"]: Too small: expected number to be >0 at failures']);
    expect(decoded.state.cycle).toBe(41);
    const many = Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`s${i}`, entry]));
    const bounded = decodeHeartbeatState(withField('breakers', many));
    expect(Object.keys(bounded.state.breakers ?? {})).toHaveLength(64);
    expect(bounded.damage).toHaveLength(6);
  });

  it('flags a newer version (never downgraded) and names it', () => {
    const decoded = decodeHeartbeatState(withField('version', 4));
    expect(decoded.newerVersion).toBe(4);
    expect(decoded.damage).toBeUndefined();
    expect(decoded.warnings[0]).toContain('version 4');
  });

  it("migrates a version 2 document: pane hashes, stage history and in-progress count become their scanners' slices", () => {
    expect(decodeHeartbeatState(validV2())).toEqual({ state: valid(), warnings: [] });
    // Empty memory makes no slice; a damaged version 2 document is migrated first, then salvaged.
    const { inProgressCount: _count, ...withoutCount } = validV2();
    const empty = decodeHeartbeatState({ ...withoutCount, panes: {}, pipelines: {} });
    expect(empty.state.scannerSlices).toBeUndefined();
    const damaged = decodeHeartbeatState({ ...validV2(), seen: 'oops' });
    expect(damaged.damage).toEqual(['seen: expected an object, got "oops"']);
    expect(damaged.state).toEqual({ ...valid(), seen: {} });
  });

  it('migrates a real version 2 state file written by the previous heartbeat-kit', () => {
    // test/fixtures/heartbeat-state-v2.json: two cycles of the version 2 evaluator (pane, stage and in-progress memory).
    const stored = JSON.parse(readFileSync(new URL('../../test/fixtures/heartbeat-state-v2.json', import.meta.url), 'utf8')) as JsonValue;
    const old = stored as { panes: JsonValue; pipelines: JsonValue; inProgressCount: number; cycle: number; reported: JsonValue };
    const decoded = decodeHeartbeatState(stored);
    expect(decoded.damage).toBeUndefined();
    expect(decoded.warnings).toEqual([]);
    expect(decoded.state).toMatchObject({ version: 3, cycle: old.cycle, reported: old.reported });
    expect(decoded.state.scannerSlices).toEqual({
      'idle-orchestrators': { version: 1, data: { panes: old.panes } },
      pipelines: { version: 1, data: { stages: old.pipelines } },
      orchestrators: { version: 1, data: { inProgressCount: old.inProgressCount } },
    });
    expect(decoded.state).not.toHaveProperty('panes');
  });

  it("scanner slices are salvaged entry by entry and bounded; their data is the scanner's to check", () => {
    const slice = { version: 1, data: { anything: ['goes', 1] } };
    const decoded = decodeHeartbeatState(withField('scannerSlices', { a: slice, b: { version: 0, data: 1 }, c: { data: 1 } }));
    expect(decoded.state.scannerSlices).toEqual({ a: slice });
    expect(decoded.damage).toHaveLength(2);
    const many = Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`s${i}`, slice]));
    const bounded = decodeHeartbeatState(withField('scannerSlices', many));
    expect(Object.keys(bounded.state.scannerSlices ?? {})).toHaveLength(64);
    expect(bounded.damage).toHaveLength(6);
  });

  it('migrates a version 1 document: no warning, no damage, every delivery remembered with no content hash (counts as unchanged)', () => {
    const { reportedContent: _dropped, ...rest } = validV2();
    const decoded = decodeHeartbeatState({ ...rest, version: 1 });
    expect(decoded).toEqual({ state: { ...valid(), reportedContent: {} }, warnings: [] });
    // A damaged version 1 document is migrated first, then salvaged: only the bad field is lost.
    const damaged = decodeHeartbeatState({ ...rest, version: 1, seen: 'oops' });
    expect(damaged.damage).toEqual(['seen: expected an object, got "oops"']);
    expect(damaged.state).toEqual({ ...valid(), reportedContent: {}, seen: {} });
  });

  it('a bad content entry costs that entry only: its delivery time is kept (so the finding counts as unchanged)', () => {
    const decoded = decodeHeartbeatState(withField('reportedContent', { 'P1_WORK_READY:b-1': { hash: 'not hex!', repeats: -1 } }));
    expect(decoded.state.reported).toEqual(valid().reported);
    expect(decoded.state.reportedContent).toEqual({});
    expect(decoded.damage).toHaveLength(1);
  });

  it('a wrong version that is not newer (0, "1", null, 1.5) is damage, not a refusal', () => {
    for (const version of [0, '1', null, 1.5, -2]) {
      const decoded = decodeHeartbeatState(withField('version', version));
      expect(decoded.newerVersion).toBeUndefined();
      expect(decoded.state).toEqual(valid());
      expect(decoded.damage?.[0]).toMatch(/^version: /);
    }
  });

  it('a document that is not an object is damage with fresh state', () => {
    for (const document of [[1, 2], 'state', 3, null, true] as JsonValue[]) {
      const decoded = decodeHeartbeatState(document);
      expect(decoded.state).toEqual(initialHeartbeatState());
      expect(decoded.damage).toHaveLength(1);
    }
  });

  it('damage names untrusted keys quoted, so control characters never reach the terminal raw', () => {
    const decoded = decodeHeartbeatState(withField('seen', { '\u001b[31mred': 'x' }));
    expect(decoded.damage?.[0]).toContain('\\u001b[31mred');
    expect(decoded.warnings.join('')).not.toContain('\u001b');
  });
});

// A valid state of any size and content.
const stateArb: fc.Arbitrary<HeartbeatState> = fc.record(
  {
    version: fc.constant(3 as const),
    cycle: fc.nat(),
    reportsSent: fc.nat(),
    reported: fc.dictionary(fc.string(), fc.double({ noNaN: true, noDefaultInfinity: true })),
    reportedContent: fc.dictionary(fc.string(), fc.record({ hash: fc.stringMatching(/^[0-9a-f]{28}$/), repeats: fc.nat() })),
    seen: fc.dictionary(fc.string(), fc.integer({ min: 1, max: 1000 })),
    scannerSlices: fc.dictionary(
      fc.string(),
      fc.record({ version: fc.integer({ min: 1, max: 5 }), data: fc.jsonValue({ maxDepth: 2 }).map((v) => v as JsonValue) }),
      { maxKeys: 4 },
    ),
    undelivered: fc.array(
      fc
        .record({ subject: fc.string(), line: fc.string() })
        .map(({ subject, line }) => createFinding({ category: 'GCHAT_REPLY_RECEIVED', subject, line, action: 'a', short: 's' })),
      { minLength: 1, maxLength: 4 },
    ),
    breakers: fc.dictionary(
      fc.string(),
      fc.record({
        code: fc.string({ minLength: 1, maxLength: 20 }),
        message: fc.string(),
        fix: fc.string(),
        sinceMs: fc.nat(),
        failures: fc.integer({ min: 1, max: 1000 }),
        skippable: fc.boolean(),
        backoff: fc.integer({ min: 0, max: 100 }),
        nextRunCycle: fc.nat(),
        advised: fc.boolean(),
      }),
      { maxKeys: 4 },
    ),
  },
  { requiredKeys: ['version', 'cycle', 'reportsSent', 'reported', 'reportedContent', 'seen'] },
);

const FIELDS = [
  'version',
  'cycle',
  'reportsSent',
  'reported',
  'reportedContent',
  'seen',
  'scannerSlices',
  'undelivered',
  'breakers',
] as const;

// Whether `value` would be a valid value of `field` (the corruption must really corrupt).
function fits(field: (typeof FIELDS)[number], value: JsonValue): boolean {
  return heartbeatStateSchema.shape[field].safeParse(value).success;
}

describe('decodeHeartbeatState salvage (property)', () => {
  it('for any single corrupted field, every other valid field survives and the damage is named', () => {
    fc.assert(
      fc.property(stateArb, fc.constantFrom(...FIELDS), fc.jsonValue({ maxDepth: 2 }), (state, field, junk) => {
        const bad = junk as JsonValue;
        fc.pre(!fits(field, bad) && bad !== undefined);
        // A newer version is refused, not salvaged (its own test above).
        fc.pre(!(field === 'version' && typeof bad === 'number' && Number.isSafeInteger(bad) && bad > 3));
        // Versions 1 and 2 are migrated, not damage (their own tests above).
        fc.pre(!(field === 'version' && (bad === 1 || bad === 2)));
        const document = { ...(encodeHeartbeatState(state) as Record<string, JsonValue>), [field]: bad };
        const decoded = decodeHeartbeatState(document);
        const stored = decodeHeartbeatState(encodeHeartbeatState(state)).state; // as JSON keeps it (-0 → 0)
        expect(decoded.newerVersion).toBeUndefined();
        expect(decoded.damage?.length ?? 0).toBeGreaterThan(0);
        for (const other of FIELDS) {
          if (other === field) continue;
          expect(decoded.state[other]).toEqual(stored[other]);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('for any single corrupted undelivered finding, the other findings survive in order', () => {
    fc.assert(
      fc.property(stateArb, fc.nat(), fc.jsonValue({ maxDepth: 2 }), (state, at, junk) => {
        const undelivered = state.undelivered ?? [];
        const index = at % undelivered.length;
        const list = encodeHeartbeatState(undelivered as unknown as HeartbeatState) as JsonValue[];
        fc.pre(!heartbeatStateSchema.shape.undelivered.safeParse([junk]).success);
        list[index] = junk as JsonValue;
        const decoded = decodeHeartbeatState({ ...(encodeHeartbeatState(state) as Record<string, JsonValue>), undelivered: list });
        const expected = undelivered.filter((_, i) => i !== index);
        expect(decoded.state.undelivered ?? []).toEqual(expected);
        expect(decoded.state.cycle).toBe(state.cycle);
      }),
      { numRuns: 300 },
    );
  });
});
