import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_CHECK_FINDINGS, parseCheckOutput } from './parse-check-output.js';

describe('parseCheckOutput', () => {
  it('blank output is quiet; text is one finding of its first line', () => {
    expect(parseCheckOutput(' \n\n', 'c')).toEqual({ kind: 'quiet' });
    expect(parseCheckOutput('\n  low disk  \nmore\n', 'c')).toEqual({
      kind: 'findings',
      form: 'text',
      findings: [{ subject: 'c', line: 'low disk' }],
      dropped: 0,
    });
  });

  it('caps findings and says how many were dropped', () => {
    const lines = Array.from({ length: MAX_CHECK_FINDINGS + 3 }, (_, i) => JSON.stringify({ subject: `s${i}`, line: `l${i}` })).join('\n');
    const read = parseCheckOutput(lines, 'c');
    expect(read).toMatchObject({ kind: 'findings', dropped: 3 });
  });

  it('refuses unknown keys (a typo is said, not ignored)', () => {
    expect(parseCheckOutput('{"subject":"a","line":"b","lines":"c"}', 'c')).toMatchObject({ kind: 'malformed' });
  });

  it('never throws, whatever the output (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 2000 }), (text) => {
        const read = parseCheckOutput(text, 'c');
        expect(['quiet', 'findings', 'malformed']).toContain(read.kind);
      }),
    );
  });

  it('reads back every finding it is given as JSON lines (property)', () => {
    const finding = fc.record(
      {
        subject: fc.string({ minLength: 1, maxLength: 50 }),
        line: fc.string({ minLength: 1, maxLength: 200 }),
        priority: fc.constantFrom('Immediate' as const, 'Advisory' as const, 'Normal' as const),
        content: fc.jsonValue(),
      },
      { requiredKeys: ['subject', 'line'] },
    );
    fc.assert(
      fc.property(fc.array(finding, { minLength: 1, maxLength: 10 }), (findings) => {
        const clean = findings.map((f) => JSON.parse(JSON.stringify(f)) as typeof f);
        const read = parseCheckOutput(clean.map((f) => JSON.stringify(f)).join('\n'), 'c');
        // A `__proto__` key inside `content` is left out (zod's record never copies it: no prototype
        // pollution from a check's output); every other key and value comes back as printed.
        const expected = clean.map((f) => (f.content === undefined ? f : { ...f, content: withoutProtoKeys(f.content) }));
        expect(read).toEqual({ kind: 'findings', form: 'json-lines', findings: expected, dropped: 0 });
      }),
    );
  });
});

/** `value` as the parser returns it: objects without their own `__proto__` keys, at any depth. */
function withoutProtoKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutProtoKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([key]) => key !== '__proto__')
      .map(([key, inner]) => [key, withoutProtoKeys(inner)]),
  );
}
