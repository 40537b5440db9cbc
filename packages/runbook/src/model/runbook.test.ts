import { describe, expect, it } from 'vitest';
import { classifySection, findPullRequestTriggers, hasLiftTrigger, parseRunbook } from './runbook.js';

const SPEC_EXAMPLE = `## Standing Orders
- Stalled task (no progress for 45 min): read its last progress, steer it or cancel and recreate.
- Idle workers next to unassigned pool tasks: find out why the pool does not drain.
- Slack requests older than 1 hour without a task: create the task.

## Watch Items
- Linear webhook retries since 2026-08-18. Lift when zero retries for 48 h (check 08-22).
`;

describe('parseRunbook', () => {
  it('splits the spec example into a reference and a tracked section', () => {
    const rb = parseRunbook(SPEC_EXAMPLE);
    expect(rb.sections.map((s) => [s.name, s.kind, s.items.length])).toEqual([
      ['Standing Orders', 'reference', 3],
      ['Watch Items', 'tracked', 1],
    ]);
    expect(rb.trackedItems).toHaveLength(1);
    expect(rb.trackedItems[0]!.line).toBe(7);
    expect(rb.trackedItems[0]!.liftTrigger).toBe(true);
  });
  it('sub-bullets and continuations belong to the item; ### inherits the section', () => {
    const rb = parseRunbook(
      '## Active Blockers\n### infra\n- A. Lift when x (check 01-02)\n  - detail one\n    more\n- B. until y 01-03\n\n## Notes\n- not tracked\n',
    );
    expect(rb.trackedItems.map((i) => [i.line, i.endLine, i.children])).toEqual([
      [3, 5, ['- detail one', 'more']],
      [6, 6, []],
    ]);
  });
  it('ignores items inside HTML comments', () => {
    expect(parseRunbook('## Watch Items\n<!--\n- hidden 01-01\n-->\n- shown. Lift when x 01-02').trackedItems.map((i) => i.line)).toEqual([
      5,
    ]);
  });
  it('an empty list item is not an item in any section (`- [ ]`, `-`, `*`, `+`, `+ [  ]`)', () => {
    const rb = parseRunbook(
      '## Standing Orders\n- [ ]\n*\n\n## Active Blockers\n- [ ]\n\n## Watch Items\n-\n*\n+\n+ [  ]\r\n\n## Open Discussion\n### sub\n- [ ]\n',
    );
    expect(rb.sections.map((s) => [s.name, s.items.length])).toEqual([
      ['Standing Orders', 0],
      ['Active Blockers', 0],
      ['Watch Items', 0],
      ['Open Discussion', 0],
    ]);
    expect(rb.trackedItems).toEqual([]);
  });
  it('a ticked box and an ordered marker are content on the server, so they stay items', () => {
    expect(parseRunbook('## Watch Items\n- [x]\n1.\n').trackedItems.map((i) => i.text)).toEqual(['- [x]', '1.']);
  });
  it('an empty marker ends the item above it; a content line under it makes it an item', () => {
    const rb = parseRunbook('## Watch Items\n- A. Lift when x (check 01-02)\n- [ ]\n- [ ]\n  Lift when y (check 01-03)\n');
    expect(rb.trackedItems.map((i) => [i.line, i.endLine, i.children])).toEqual([
      [2, 2, []],
      [4, 5, ['Lift when y (check 01-03)']],
    ]);
  });
  it('keeps CRLF text intact and still reads tokens', () => {
    const rb = parseRunbook('## Watch Items\r\n- a. Lift when b (check 03-04)\r\n');
    expect(rb.trackedItems[0]!.tokens.bare).toEqual([{ month: 3, day: 4 }]);
    expect(rb.lines[1]).toBe('- a. Lift when b (check 03-04)\r');
  });
});

describe('section names', () => {
  it.each([
    ['Watch Items', 'tracked'],
    ['watch items:', 'tracked'],
    ['  Active   Blockers ', 'tracked'],
    ['Open Discussion', 'tracked'],
    ['Playbook index', 'reference'],
    ['Governance', 'reference'],
    ['Watch Itemz', 'other'],
  ])('%j is %s', (name, kind) => {
    expect(classifySection(name).kind).toBe(kind);
  });
});

describe('triggers', () => {
  it('finds PR triggers with and without a repository', () => {
    expect(findPullRequestTriggers('Lift when #123 merges; drop once acme/web#7 is merged')).toEqual([
      { number: 123 },
      { repo: 'acme/web', number: 7 },
    ]);
  });
  it.each([
    ['Lift when zero retries for 48 h (check 08-22)', true],
    ['until the vendor replies (check 08-22)', true],
    ['Old flag DELETE 10-18', true],
    ['lift when #5 merges', true],
    ['Keep an eye on it (check 08-22)', false],
  ])('%j lift trigger: %s', (line, yes) => {
    expect(hasLiftTrigger(line)).toBe(yes);
  });
});
