import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fixture } from '../../test/support/fixtures.js';
import { parseBdJson } from './parse-bd-json.js';
import type { Bead } from './bead.js';

describe('parseBdJson on fixtures', () => {
  it('reads ready.json (bare array) with the fields the scanners need', () => {
    const beads = parseBdJson(fixture('beads', 'ready.json'))._unsafeUnwrap();
    expect(beads.map((b) => [b.id, b.priority])).toEqual([
      ['bd-k2m9', 0],
      ['bd-a3f8', 1],
      ['bd-a3f8.1', 1],
    ]);
    expect(beads[0]).toEqual({
      id: 'bd-k2m9',
      title: 'Crash on empty config',
      priority: 0,
      status: 'open',
      assignee: 'alice',
      labels: ['backend', 'urgent'],
      issueType: 'bug',
      createdAt: '2026-11-03T14:02:11Z',
      updatedAt: '2026-11-04T08:30:00Z',
    });
  });

  it('reads an empty list', () => {
    expect(parseBdJson(fixture('beads', 'ready-empty.json'))._unsafeUnwrap()).toEqual([]);
  });

  it('reads the bare array, the envelope and the skip-labels object to the same in-progress beads', () => {
    const bare = parseBdJson(fixture('beads', 'list-status-in_progress.json'))._unsafeUnwrap();
    const envelope = parseBdJson(fixture('beads', 'list-envelope.json'))._unsafeUnwrap();
    const object = parseBdJson(fixture('beads', 'list-skip-labels.json'))._unsafeUnwrap();
    expect(envelope).toEqual(bare);
    expect(object.map((b) => ({ ...b, labels: undefined }))).toEqual(bare.map((b) => ({ ...b, labels: undefined })));
    expect(bare[0]).toMatchObject({
      id: 'bd-p0c4',
      title: 'Write docs: "getting started" & <setup>',
      status: 'in_progress',
      assignee: 'claude',
      startedAt: '2026-11-06T09:10:00Z',
    });
  });

  it('reads list.json and show.json (arrays, nested dependencies ignored)', () => {
    expect(parseBdJson(fixture('beads', 'list.json'))._unsafeUnwrap().length).toBeGreaterThan(3);
    expect(parseBdJson(fixture('beads', 'show.json'))._unsafeUnwrap()).toMatchObject([{ id: 'bd-a3f8.2', priority: 2 }]);
    expect(parseBdJson(fixture('beads', 'show-include-comments.json'))._unsafeUnwrap()).toMatchObject([{ id: 'bd-k2m9' }]);
  });

  it('turns an {error} object into a bd-error', () => {
    expect(parseBdJson(fixture('beads', 'show-not-found.json'))._unsafeUnwrapErr()).toEqual({
      kind: 'bd-error',
      message: 'no issues found matching the provided IDs',
    });
  });

  it('rejects text, wrong shapes and out-of-range priorities with typed errors', () => {
    expect(parseBdJson(fixture('beads', 'ready.txt'))._unsafeUnwrapErr().kind).toBe('invalid-json');
    expect(parseBdJson('{"schema_version":1}')._unsafeUnwrapErr().kind).toBe('unexpected-shape');
    expect(parseBdJson('42')._unsafeUnwrapErr().kind).toBe('unexpected-shape');
    expect(parseBdJson('[{"id":"a-b","title":"t","priority":7}]')._unsafeUnwrapErr().kind).toBe('unexpected-shape');
    expect(parseBdJson('[{"id":"a-b","title":"t"}]')._unsafeUnwrapErr().kind).toBe('unexpected-shape');
  });

  it('accepts priority 0 and ignores unknown keys', () => {
    expect(parseBdJson('[{"id":"my-app-x7q","title":"t","priority":0,"future_field":{"x":1}}]')._unsafeUnwrap()).toEqual([
      { id: 'my-app-x7q', title: 't', priority: 0 },
    ]);
  });
});

const beadArb: fc.Arbitrary<Bead> = fc.record(
  {
    id: fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,8}-[a-z0-9]{3,8}(?:\.\d){0,2}$/),
    title: fc.string(),
    priority: fc.constantFrom(0 as const, 1 as const, 2 as const, 3 as const, 4 as const),
    status: fc.constantFrom('open', 'in_progress', 'blocked', 'custom-status'),
    assignee: fc.string({ minLength: 1 }),
    labels: fc.array(fc.string()),
    issueType: fc.constantFrom('bug', 'task', 'epic'),
    createdAt: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
    updatedAt: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
    startedAt: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  },
  { requiredKeys: ['id', 'title', 'priority'] },
);

function toBdJson(bead: Bead): Record<string, unknown> {
  return {
    id: bead.id,
    title: bead.title,
    priority: bead.priority,
    status: bead.status,
    assignee: bead.assignee,
    labels: bead.labels,
    issue_type: bead.issueType,
    created_at: bead.createdAt,
    updated_at: bead.updatedAt,
    started_at: bead.startedAt,
    dependency_count: 0,
  };
}

describe('parseBdJson properties', () => {
  it('round-trips beads through every accepted JSON shape', () => {
    fc.assert(
      fc.property(fc.array(beadArb, { maxLength: 6 }), fc.constantFrom('array', 'envelope', 'object'), (beads, shape) => {
        const items = beads.map(toBdJson);
        const payload =
          shape === 'array'
            ? items
            : shape === 'envelope'
              ? { schema_version: 1, data: items }
              : { issues: items, meta: { count: items.length }, schema_version: 1 };
        expect(parseBdJson(JSON.stringify(payload, null, 2))._unsafeUnwrap()).toEqual(beads);
      }),
    );
  });

  it('never throws on arbitrary text or JSON', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.jsonValue().map((v) => JSON.stringify({ data: v })),
          fc.jsonValue().map((v) => JSON.stringify([v])),
        ),
        (text) => {
          const result = parseBdJson(text);
          expect(result.isOk() || result.isErr()).toBe(true);
        },
      ),
    );
  });
});
