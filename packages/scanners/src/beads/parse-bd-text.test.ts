import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fixture } from '../../test/support/fixtures.js';
import { parseBdText } from './parse-bd-text.js';
import { parseBdJson } from './parse-bd-json.js';
import type { BeadPriority } from './bead.js';

const parse = (name: string) => parseBdText(fixture('beads', name))._unsafeUnwrap();
const idsAndPriorities = (name: string) => parse(name).map((b) => [b.id, b.priority]);

describe('parseBdText: bd ready formats', () => {
  it('reads the pretty view, dropping the epic suffix, footer and legend', () => {
    expect(parse('ready.txt')).toEqual([
      { id: 'bd-k2m9', title: 'Crash on empty config', priority: 0, status: 'open', issueType: 'bug' },
      { id: 'bd-a3f8', title: 'Auth overhaul', priority: 1, status: 'open', issueType: 'epic' },
      { id: 'bd-a3f8.1', title: 'Add login endpoint', priority: 1, status: 'open' },
    ]);
  });

  it('agrees with the JSON on ids, titles and priorities', () => {
    const json = parseBdJson(fixture('beads', 'ready.json'))
      ._unsafeUnwrap()
      .map((b) => [b.id, b.title, b.priority]);
    expect(parse('ready.txt').map((b) => [b.id, b.title, b.priority])).toEqual(json);
    expect(parse('ready-plain.txt').map((b) => [b.id, b.title, b.priority])).toEqual(json);
  });

  it('ignores a trailing tip and a truncation line', () => {
    expect(idsAndPriorities('ready-with-tip.txt')).toEqual([['bd-k2m9', 0]]);
    expect(idsAndPriorities('ready-truncated-footer.txt')).toEqual([['bd-k2m9', 0]]);
  });

  it('reads --plain with its Assignee detail line', () => {
    expect(parse('ready-plain.txt')[0]).toEqual({
      id: 'bd-k2m9',
      title: 'Crash on empty config',
      priority: 0,
      issueType: 'bug',
      assignee: 'alice',
    });
  });

  it('reads the legacy v0.30 and v0.33–v0.46 layouts', () => {
    expect(parse('ready-plain-legacy-v0.30.txt')).toEqual([
      { id: 'bd-k2m9', title: 'Crash on empty config', priority: 0, assignee: 'alice' },
      { id: 'bd-a3f8.1', title: 'Add login endpoint', priority: 1 },
    ]);
    expect(parse('ready-plain-legacy-v0.33-v0.46.txt')).toEqual([
      { id: 'bd-k2m9', title: 'Crash on empty config', priority: 0, issueType: 'bug' },
      { id: 'bd-a3f8.1', title: 'Add login endpoint', priority: 1, issueType: 'task' },
    ]);
  });

  it('reads both "nothing ready" messages as no beads', () => {
    expect(parse('ready-none-blocked.txt')).toEqual([]);
    expect(parse('ready-none-open.txt')).toEqual([]);
  });

  it('ignores an upgrade notice before the rows', () => {
    const text = `🔄 bd upgraded from v1.0.4 to v1.0.5 since last use\n💡 Run 'bd upgrade review' to see what changed\n${fixture('beads', 'ready.txt')}`;
    expect(parseBdText(text)._unsafeUnwrap()).toHaveLength(3);
  });

  it('reads the newer unbracketed priorities without the ● marker', () => {
    expect(parseBdText('○ my-app-x7q P1 [bug] Fix it ← Epic\n1. [P0] [task] my-app-y8r: Other\n')._unsafeUnwrap()).toEqual([
      { id: 'my-app-x7q', title: 'Fix it', priority: 1, status: 'open', issueType: 'bug' },
      { id: 'my-app-y8r', title: 'Other', priority: 0, issueType: 'task' },
    ]);
  });
});

describe('parseBdText: bd list formats', () => {
  it('reads the tree view of in-progress beads', () => {
    expect(parse('list-status-in_progress.txt')).toEqual([
      { id: 'bd-p0c4', title: 'Write docs: "getting started" & <setup>', priority: 2, status: 'in_progress' },
      { id: 'bd-7xq1', title: 'Dark mode', priority: 3, status: 'in_progress' },
    ]);
  });

  it('reads tree children and a closed row with its bare type word', () => {
    expect(parse('list-tree.txt').map((b) => b.id)).toEqual(['bd-k2m9', 'bd-a3f8', 'bd-a3f8.1', 'bd-a3f8.2', 'bd-p0c4', 'bd-7xq1']);
    expect(parse('list-all-tree-closed.txt')).toEqual([
      { id: 'bd-f7k2', title: 'Bump deps', priority: 4, status: 'closed', issueType: 'chore' },
    ]);
    expect(parse('list-empty.txt')).toEqual([]);
  });

  it('reads the flat view with assignee, labels and relation suffix', () => {
    const beads = parse('list-flat.txt');
    expect(beads).toHaveLength(7);
    expect(beads[0]).toEqual({
      id: 'bd-k2m9',
      title: 'Crash on empty config',
      priority: 0,
      status: 'open',
      issueType: 'bug',
      assignee: 'alice',
      labels: ['backend', 'urgent'],
    });
    expect(beads[2]).toEqual({ id: 'bd-a3f8.1', title: 'Add login endpoint', priority: 1, status: 'open', issueType: 'task' });
    expect(beads[3]?.status).toBe('blocked');
    expect(beads[6]).toEqual({ id: 'bd-f7k2', title: 'Bump deps', priority: 4, status: 'closed', issueType: 'chore' });
    expect(parse('list-flat-status-in_progress.txt').map((b) => [b.id, b.assignee, b.status])).toEqual([
      ['bd-p0c4', 'claude', 'in_progress'],
      ['bd-7xq1', 'bob', 'in_progress'],
    ]);
  });

  it('reads the legacy v0.46 flat view with status words', () => {
    expect(parse('list-legacy-v0.46.txt').map((b) => [b.id, b.status, b.assignee, b.title])).toEqual([
      ['bd-k2m9', 'open', 'alice', 'Crash on empty config'],
      ['bd-7xq1', 'in_progress', 'bob', 'Dark mode'],
      ['bd-f7k2', 'closed', undefined, 'Bump deps'],
    ]);
  });

  it('reads the long view', () => {
    expect(parse('list-long.txt')).toEqual([
      {
        id: 'bd-p0c4',
        title: 'Write docs: "getting started" & <setup>',
        priority: 2,
        status: 'in_progress',
        issueType: 'task',
        assignee: 'claude',
        labels: ['docs'],
      },
      { id: 'bd-7xq1', title: 'Dark mode', priority: 3, status: 'in_progress', issueType: 'feature', assignee: 'bob' },
    ]);
  });

  it('reads agent mode (no priority there, so none is invented)', () => {
    const beads = parse('list-agent-mode.txt');
    expect(beads.map((b) => b.id)).toEqual(['bd-k2m9', 'bd-a3f8', 'bd-a3f8.1', 'bd-a3f8.2', 'bd-p0c4', 'bd-7xq1']);
    expect(beads[2]).toEqual({ id: 'bd-a3f8.1', title: 'Add login endpoint' });
    expect(beads.every((b) => b.priority === undefined)).toBe(true);
  });

  it('rejects formats it must not guess at', () => {
    expect(parseBdText(fixture('beads', 'show.txt'))._unsafeUnwrapErr().kind).toBe('unrecognised-line');
    expect(parseBdText(fixture('beads', 'no-database.stderr.txt'))._unsafeUnwrapErr()).toMatchObject({
      kind: 'unrecognised-line',
      line: 1,
    });
  });
});

const idArb = fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,8}-[a-z0-9]{3,8}(?:\.\d){0,2}$/);
// Titles bd prints on one line; ` ← ` and relation suffixes are format syntax, so they are kept out.
const titleArb = fc.array(fc.stringMatching(/^[A-Za-z0-9:"&<>'#/]{1,8}$/), { minLength: 1, maxLength: 6 }).map((words) => words.join(' '));
const prioArb = fc.constantFrom<BeadPriority>(0, 1, 2, 3, 4);
const rowArb = fc.record({
  id: idArb,
  title: titleArb,
  priority: prioArb,
  bullet: fc.boolean(),
  type: fc.constantFrom('bug', 'task', 'epic'),
});

describe('parseBdText properties', () => {
  it('round-trips generated rows through the pretty, plain and flat layouts', () => {
    fc.assert(
      fc.property(fc.array(rowArb, { maxLength: 5 }), fc.constantFrom('pretty', 'plain', 'flat'), (rows, layout) => {
        const lines = rows.map((r, i) => {
          const p = `${r.bullet ? '● ' : ''}P${r.priority}`;
          if (layout === 'pretty') return `○ ${r.id} ${p} [${r.type}] ${r.title}`;
          if (layout === 'plain') return `${i + 1}. [${p}] [${r.type}] ${r.id}: ${r.title}`;
          return `◐ ${r.id} [${p}] [${r.type}] @agent-1 [l1 l2] - ${r.title}`;
        });
        const text =
          layout === 'plain'
            ? `\n📋 Ready work (${rows.length} issues with no active blockers):\n\n${lines.join('\n')}\n\n`
            : `${lines.join('\n')}\n`;
        const beads = parseBdText(text)._unsafeUnwrap();
        expect(beads.map((b) => [b.id, b.title, b.priority, b.issueType])).toEqual(rows.map((r) => [r.id, r.title, r.priority, r.type]));
      }),
    );
  });

  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('○', '●', '[', ']', 'P', '1', ' ', '\n', '-', 'a', ':', '.', '├── ', '  ', '\x1b[31m', '📋') }),
        (text) => {
          const result = parseBdText(text);
          expect(result.isOk() || result.isErr()).toBe(true);
        },
      ),
    );
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(() => parseBdText(text)).not.toThrow();
      }),
    );
  });
});
