import { describe, expect, it } from 'vitest';
import { htmlCommentLines, isContentLine, isRunbookItem } from './content-lines.js';

describe('isContentLine (reference §2, one line outside a comment)', () => {
  it.each([
    ['- [ ]', false],
    ['*[]', false],
    ['+ [  ]', false],
    ['-', false],
    ['*', false],
    ['+', false],
    ['  - [ ]  \r', false],
    ['## Watch Items', false],
    ['   ', false],
    // Content on the server, so content here: a ticked box, an ordered marker, any text.
    ['- [x]', true],
    ['- [ ] task', true],
    ['1.', true],
    ['-x', true],
    ['#x', true],
  ])('%j → %s', (line, content) => {
    expect(isContentLine(line)).toBe(content);
  });
});

describe('htmlCommentLines', () => {
  it('marks a one-line comment, a multi-line one through its closing line, and nothing else', () => {
    expect(htmlCommentLines(['<!-- a --> b', 'x <!-- c -->', '  <!-- d', '- item', 'e --> f', 'g'])).toEqual([
      true,
      false,
      true,
      true,
      true,
      false,
    ]);
  });
});

describe('isRunbookItem: the one definition every command reads through parseRunbook', () => {
  it('an entry of empty markers is not an item; one content line anywhere in it makes it one', () => {
    expect(isRunbookItem(['- [ ]'])).toBe(false);
    expect(isRunbookItem(['-', '- [ ]', '*'])).toBe(false);
    expect(isRunbookItem(['- [ ]', 'Lift when x (check 10-20)'])).toBe(true);
    expect(isRunbookItem(['- [x]'])).toBe(true);
  });
});
