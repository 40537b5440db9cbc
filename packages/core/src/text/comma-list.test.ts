import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitCommaList } from './comma-list.js';

// Items as a list holds them: non-empty, no comma, no surrounding space.
const item = fc
  .string({ minLength: 1, maxLength: 12 })
  .map((s) => s.replaceAll(',', '').trim())
  .filter((s) => s !== '');
const word = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}\*?$/);
const separator = fc.constantFrom(',', ', ', ' ,', ' , ', ',,', ',\t', ' ,\n ');

function joinWith(items: readonly string[], separators: readonly string[]): string {
  return items.map((entry, index) => (index === 0 ? entry : `${separators[index % separators.length] ?? ','}${entry}`)).join('');
}

describe('splitCommaList', () => {
  it('reads the spellings people write', () => {
    expect(splitCommaList('A, B,C')).toEqual(['A', 'B', 'C']);
    expect(splitCommaList(' orch-a ,, orch b ,orch-a')).toEqual(['orch-a', 'orch b']);
    expect(splitCommaList('')).toEqual([]);
    expect(splitCommaList(' , ')).toEqual([]);
    expect(splitCommaList('BEADS_DIR HTTPS_PROXY,  XDG_*', { spaces: true })).toEqual(['BEADS_DIR', 'HTTPS_PROXY', 'XDG_*']);
  });

  it('property: whatever the separators, it gives back the items, each once, in first-seen order', () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 8 }), fc.array(separator, { minLength: 1, maxLength: 4 }), (items, separators) => {
        expect(splitCommaList(joinWith(items, separators))).toEqual([...new Set(items)]);
      }),
    );
  });

  it('property: with spaces, words separated by any mix of commas and whitespace come back', () => {
    const spaced = fc.constantFrom(' ', '  ', '\t', ', ', ' ,', ',');
    fc.assert(
      fc.property(fc.array(word, { maxLength: 8 }), fc.array(spaced, { minLength: 1, maxLength: 4 }), (words, separators) => {
        expect(splitCommaList(joinWith(words, separators), { spaces: true })).toEqual([...new Set(words)]);
      }),
    );
  });

  it('property: never yields an empty or padded item, and reading its own output back changes nothing', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.boolean(), (text, spaces) => {
        const items = splitCommaList(text, { spaces });
        for (const entry of items) {
          expect(entry).not.toBe('');
          expect(entry).toBe(entry.trim());
          expect(entry).not.toContain(',');
        }
        expect(splitCommaList(items.join(', '), { spaces })).toEqual(items);
      }),
    );
  });
});
