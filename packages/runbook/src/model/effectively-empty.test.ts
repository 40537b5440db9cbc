import { describe, expect, it } from 'vitest';
import { isEffectivelyEmpty } from './effectively-empty.js';

describe('isEffectivelyEmpty (reference §2 table)', () => {
  it.each([
    ['   ', true],
    ['<!-- note -->', true],
    ['<!-- note --> do X', true],
    ['do X <!-- note -->', false],
    ['<!-- a\nb --> c', true],
    ['## Watch Items\n  ### x', true],
    ['#x', false],
    ['#', false],
    ['##', false],
    ['####### x', false],
    ['- [ ]\n*[]\n+ [  ]\n-\n*', true],
    ['- [x]', false],
    ['- [ ] task', false],
    ['1.', false],
    ['', true],
    ['<!-- open\nstill comment\n## x', true],
  ])('%j → %s', (text, empty) => {
    expect(isEffectivelyEmpty(text)).toBe(empty);
  });
});
