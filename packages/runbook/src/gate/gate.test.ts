import fc from 'fast-check';
import { err, errAsync, ok } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { gateEffect, parseGateOutput, runGate, toVerdict, type Gate, type GateError, type GateMode, type GateState } from './gate.js';

const STATE: GateState = {
  version: 1,
  now: '2026-10-20T10:00:00.000Z',
  timeZone: 'UTC',
  dryRun: false,
  newFailures: [],
  dueItems: [],
  previousChecklist: null,
  unansweredMentions: 0,
  untriagedRebootFailures: [],
  counts: { tasks: {}, agents: { online: 1, offline: 0, idle: 1 } },
};

describe('gate verdict table (spec 003)', () => {
  it.each<[GateMode, 'quiet' | 'wake' | 'error', boolean, string, boolean]>([
    ['shadow', 'quiet', true, 'heartbeat-gate:quiet', false],
    ['shadow', 'wake', true, 'heartbeat-gate:wake', false],
    ['shadow', 'error', true, 'heartbeat-gate:error', false],
    ['enforce', 'quiet', false, 'heartbeat-gate:quiet', false],
    ['enforce', 'wake', true, 'heartbeat-gate:wake', true],
    ['enforce', 'error', true, 'heartbeat-gate:error', false],
  ])('%s + %s → create %s, tag %s, findings %s', (mode, kind, create, tag, findings) => {
    const verdict =
      kind === 'error' ? { kind, error: { kind: 'timeout' as const, timeoutMs: 1, message: 't' } } : { kind, reason: 'r', summary: 'S' };
    const effect = gateEffect(mode, verdict);
    expect(effect.createTask).toBe(create);
    expect(effect.tag).toBe(tag);
    expect(effect.gateFindings !== undefined).toBe(findings);
  });
});

describe('parseGateOutput', () => {
  it('accepts the contract, also after log lines', () => {
    expect(parseGateOutput('{"quiet":true,"reason":"r","summary":"s"}\n')._unsafeUnwrap()).toEqual({
      quiet: true,
      reason: 'r',
      summary: 's',
    });
    expect(parseGateOutput('checking...\n{"quiet":false,"reason":"r","summary":"s"}')._unsafeUnwrap()).toMatchObject({ quiet: false });
  });
  it.each(['', 'not json', '{"quiet":"yes","reason":"r","summary":"s"}', '{"quiet":true}', '[true]', 'null'])('%j is malformed', (out) => {
    expect(parseGateOutput(out)._unsafeUnwrapErr()).toMatchObject({ kind: 'malformed' });
  });
});

describe('fail-open rule (property)', () => {
  const gateError: fc.Arbitrary<GateError> = fc.oneof(
    fc.record({ kind: fc.constant('timeout' as const), timeoutMs: fc.nat(), message: fc.string() }),
    fc.record({ kind: fc.constant('crashed' as const), message: fc.string() }),
    fc.record({ kind: fc.constant('exit-code' as const), exitCode: fc.integer({ min: 1, max: 255 }), message: fc.string() }),
    fc.record({ kind: fc.constant('malformed' as const), message: fc.string() }),
    fc.record({ kind: fc.constant('unavailable' as const), message: fc.string() }),
  );
  it('every gate error creates the task with the error tag, in both modes', () => {
    fc.assert(
      fc.property(gateError, fc.constantFrom<GateMode>('shadow', 'enforce'), (error, mode) => {
        const effect = gateEffect(mode, toVerdict(err(error)));
        return effect.createTask && effect.tag === 'heartbeat-gate:error' && effect.gateFindings === undefined;
      }),
    );
  });
  it('any stdout that is not the exact contract fails open', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), fc.constantFrom<GateMode>('shadow', 'enforce'), (stdout, mode) => {
        const parsed = parseGateOutput(stdout);
        const effect = gateEffect(mode, toVerdict(parsed));
        return parsed.isOk() || (effect.createTask && effect.tag === 'heartbeat-gate:error');
      }),
    );
  });
  it('only enforce + quiet ever skips the task', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.string(),
        fc.string(),
        fc.constantFrom<GateMode>('shadow', 'enforce'),
        (quiet, reason, summary, mode) => {
          const effect = gateEffect(mode, toVerdict(ok({ quiet, reason, summary })));
          return effect.createTask === !(quiet && mode === 'enforce');
        },
      ),
    );
  });
  it('runGate turns a rejected or throwing gate into the error verdict', async () => {
    const throwing: Gate = {
      name: 'boom',
      decide: () => {
        throw new Error('boom');
      },
    };
    expect(await runGate(throwing, STATE)).toMatchObject({ kind: 'error', error: { kind: 'crashed', message: 'boom' } });
    const failing: Gate = { name: 'x', decide: () => errAsync({ kind: 'timeout', timeoutMs: 5, message: 'slow' }) };
    expect(await runGate(failing, STATE)).toMatchObject({ kind: 'error', error: { kind: 'timeout' } });
  });
});
