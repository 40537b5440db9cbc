import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateRunbook } from './validate-runbook.js';

describe('validateRunbook: spec examples', () => {
  it('accepts the spec Watch Items line with check 08-22', () => {
    const v = validateRunbook(
      '## Watch Items\n- Linear webhook retries since 2026-08-18. Lift when zero retries for 48 h (check 08-22).\n',
    );
    expect(v).toMatchObject({ accepted: true, trackedItemCount: 1, errors: [], warnings: [] });
  });
  it('rejects a line that carries only a full date, with the line number and the reason', () => {
    const v = validateRunbook('## Standing Orders\n- x\n\n## Watch Items\n- Same item, re-verified 2026-10-20 ~10:45Z. Lift when quiet.\n');
    expect(v.accepted).toBe(false);
    expect(v.errors).toHaveLength(1);
    expect(v.errors[0]).toMatchObject({ code: 'full-date-only', line: 5 });
    expect(v.errors[0]!.message).toContain('gate cannot see');
    expect(v.errors[0]!.message).toContain('check 10-20');
  });
  it('rejects a tracked item with no date and one with no lift trigger', () => {
    const v = validateRunbook('## Active Blockers\n- Lift when done, no date\n- Something (check 01-02)\n');
    expect(v.errors.map((e) => [e.code, e.line])).toEqual([
      ['no-date', 2],
      ['no-lift-trigger', 3],
    ]);
  });
  it('DELETE MM-DD is both the date and the removal condition', () => {
    expect(validateRunbook('## Open Discussion\n- Old flag DELETE 10-18\n').accepted).toBe(true);
  });
  it('reference sections are not checked', () => {
    expect(validateRunbook('## Standing Orders\n- no date, no trigger\n').accepted).toBe(true);
  });
  it('accepts tracked sections that hold only headers, comments and empty items: no tracked item to check', () => {
    const v = validateRunbook('## Active Blockers\n- [ ]\n\n## Watch Items\n<!-- live items -->\n-\n*\n\n## Open Discussion\n+ [ ]\n');
    expect(v).toEqual({ accepted: true, trackedItemCount: 0, errors: [], warnings: [] });
  });
  it('empty items do not count toward the cap', () => {
    const v = validateRunbook(`${runbookWith(20)}${'- [ ]\n'.repeat(5)}`);
    expect(v).toMatchObject({ accepted: true, trackedItemCount: 20 });
  });
  it('flags invalid days and lower-case delete', () => {
    const v = validateRunbook('## Watch Items\n- A. Lift when x (check 02-30)\n- B. lift when y, delete 03-01\n');
    expect(v.errors.map((e) => e.code)).toEqual(['invalid-date']);
    expect(v.warnings.map((w) => w.code)).toEqual(['lowercase-delete']);
  });
});

const item = (i: number): string => `- Item ${i}. Lift when fixed (check 0${(i % 9) + 1}-1${i % 10})`;
const runbookWith = (n: number): string => `## Watch Items\n${Array.from({ length: n }, (_, i) => item(i)).join('\n')}\n`;

describe('validateRunbook: the cap', () => {
  it.each([
    [10, true, 0],
    [11, true, 1],
    [20, true, 1],
    [21, false, 0],
  ])('%i tracked items → accepted %s, %i warning(s)', (n, accepted, warnings) => {
    const v = validateRunbook(runbookWith(n));
    expect(v.trackedItemCount).toBe(n);
    expect(v.accepted).toBe(accepted);
    expect(v.warnings).toHaveLength(warnings);
  });
  it('property: accepted ⇔ count ≤ 20 for well-formed items, warning ⇔ 10 < count ≤ 20', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 }), (n) => {
        const v = validateRunbook(runbookWith(n));
        return v.accepted === n <= 20 && (v.warnings.length === 1) === (n > 10 && n <= 20);
      }),
      { numRuns: 40 },
    );
  });
});

describe('validateRunbook: properties', () => {
  const prose = fc.stringMatching(/^[A-Za-z ,]{0,30}$/);
  const md = fc
    .record({ m: fc.integer({ min: 1, max: 12 }), d: fc.integer({ min: 1, max: 28 }) })
    .map(({ m, d }) => `${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);
  it('a tracked line whose only date is YYYY-MM-DD is always rejected as full-date-only', () => {
    fc.assert(
      fc.property(prose, fc.integer({ min: 2000, max: 2099 }), md, (text, year, date) => {
        const v = validateRunbook(`## Watch Items\n- ${text} Lift when ok, stamp ${year}-${date}\n`);
        return !v.accepted && v.errors.some((e) => e.code === 'full-date-only' && e.line === 2);
      }),
    );
  });
  it('adding a bare check date to such a line makes it accepted', () => {
    fc.assert(
      fc.property(prose, fc.integer({ min: 2000, max: 2099 }), md, md, (text, year, date, check) => {
        return validateRunbook(`## Watch Items\n- ${text} Lift when ok, stamp ${year}-${date} (check ${check})\n`).accepted;
      }),
    );
  });
  it('never throws and every error carries a line inside the document', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.string({ maxLength: 40 }),
            fc.constantFrom('## Watch Items', '## Standing Orders', '- x 01-02', '- Lift when y 2026-01-02', '<!--', '-->'),
          ),
          { maxLength: 30 },
        ),
        (lines) => {
          const v = validateRunbook(lines.join('\n'));
          return v.errors.every((e) => e.line >= 0 && e.line <= lines.length);
        },
      ),
    );
  });
});
