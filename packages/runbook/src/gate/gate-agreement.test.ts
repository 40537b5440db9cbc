import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeGateAgreement, parseGateLog, type GateLogRecord } from './gate-agreement.js';

describe('computeGateAgreement', () => {
  it('computes agreement, precision and recall of quiet from joined records', () => {
    const records: GateLogRecord[] = [
      { taskId: 'a', verdict: 'quiet' },
      { taskId: 'a', output: 'Quiet. Same as x: 0 failures (triaged), schedule-health 1/1, controls ok.' },
      { taskId: 'b', verdict: 'quiet', outcome: 'work' },
      { taskId: 'c', verdict: 'wake', outcome: 'quiet' },
      { taskId: 'd', verdict: 'wake', output: 'Recreated task 123' },
      { taskId: 'e', verdict: 'error', outcome: 'quiet' },
      { taskId: 'f', verdict: 'quiet' },
    ];
    const a = computeGateAgreement(records, { minSamples: 1 });
    expect(a).toMatchObject({
      compared: 4,
      errors: 1,
      unpaired: 1,
      truePositives: 1,
      falsePositives: 1,
      falseNegatives: 1,
      trueNegatives: 1,
      agreement: 0.5,
      quietPrecision: 0.5,
      quietRecall: 0.5,
      enforceAdvisable: false,
    });
  });
  it('advises enforce only with enough samples and precision', () => {
    const quiet = (i: number): GateLogRecord => ({ taskId: `t${i}`, verdict: 'quiet', outcome: 'quiet' });
    expect(computeGateAgreement(Array.from({ length: 19 }, (_, i) => quiet(i))).enforceAdvisable).toBe(false);
    expect(computeGateAgreement(Array.from({ length: 20 }, (_, i) => quiet(i))).enforceAdvisable).toBe(true);
  });
  it('property: ratios stay in [0, 1] and advice implies precision ≥ threshold', () => {
    const rec = fc.record({
      taskId: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g'),
      verdict: fc.constantFrom('quiet' as const, 'wake' as const, 'error' as const),
      outcome: fc.constantFrom('quiet' as const, 'work' as const),
    });
    fc.assert(
      fc.property(fc.array(rec), fc.double({ min: 0, max: 1, noNaN: true }), (records, threshold) => {
        const a = computeGateAgreement(records, { threshold, minSamples: 1 });
        const inRange = [a.agreement, a.quietPrecision, a.quietRecall].every((x) => x === null || (x >= 0 && x <= 1));
        return inRange && (!a.enforceAdvisable || (a.quietPrecision ?? 0) >= threshold);
      }),
    );
  });
});

describe('parseGateLog', () => {
  it('reports bad lines with their number', () => {
    const { records, problems } = parseGateLog('{"taskId":"a","verdict":"quiet"}\nnope\n{"taskId":"b"}\n', 'gate.jsonl');
    expect(records).toHaveLength(1);
    expect(problems).toEqual([expect.stringMatching(/^gate\.jsonl:2: not JSON/), expect.stringMatching(/^gate\.jsonl:3: /)]);
  });
});
