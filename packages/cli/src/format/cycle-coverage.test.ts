import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coverageLine, cycleCoverage } from './cycle-coverage.js';

const result = fc.record({
  scanner: fc.stringMatching(/^[a-z][a-z-]{0,12}$/),
  status: fc.constantFrom('ok' as const, 'skipped' as const, 'error' as const, 'timeout' as const),
  severity: fc.constantFrom('warning' as const, 'notice' as const, 'unused' as const),
});

describe('what a quiet cycle covered (issue 26 item 4)', () => {
  it('property: every scanner is in exactly one list, in order; the line appears iff a set-up scanner did not look', () => {
    fc.assert(
      fc.property(fc.uniqueArray(result, { selector: (r) => r.scanner, maxLength: 8 }), (results) => {
        const problems = results.filter((r) => r.status !== 'ok');
        const coverage = cycleCoverage(results, problems);
        expect([...coverage.lookedAt, ...coverage.notLookedAt, ...coverage.notSetUp].sort()).toEqual(results.map((r) => r.scanner).sort());
        expect(coverage.lookedAt).toEqual(results.filter((r) => r.status === 'ok').map((r) => r.scanner));
        expect(coverage.notSetUp).toEqual(problems.filter((p) => p.severity === 'unused').map((p) => p.scanner));
        const line = coverageLine(coverage);
        expect(line === '').toBe(coverage.notLookedAt.length === 0);
        if (line !== '') {
          expect(line).toMatch(/^heartbeat-kit: looked at: .+; not looked at: .+\n$/);
          expect(line.split('\n')).toHaveLength(2);
        }
      }),
    );
  });

  it('says "nothing" when no scanner looked, and names what is not set up apart', () => {
    const results = [
      { scanner: 'beads', status: 'skipped' as const },
      { scanner: 'git', status: 'skipped' as const },
      { scanner: 'gchat', status: 'skipped' as const },
    ];
    const problems = [
      { scanner: 'beads', severity: 'notice' as const },
      { scanner: 'gchat', severity: 'unused' as const },
    ];
    expect(coverageLine(cycleCoverage(results, problems))).toBe(
      'heartbeat-kit: looked at: nothing; not looked at: beads, git; not set up: gchat\n',
    );
  });
});
