import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProcessRunner } from '@heartbeat-kit/core/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGhIssueTracker } from '../src/github/index.js';
import type { DoubleIssue } from './support/github-api-double.js';
import { emptyRepo, REAL_GH, startRealGhWorld, type RealGhWorld } from './support/real-gh.js';

// Issue 31 (b): the two divergences of gh 2.23 the adapter now works around, each against real gh
// + the GitHub API double, and the label edit also against the fake gh.
const issue = (number: number, labels: string[]): DoubleIssue => ({
  number,
  id: 3_000_000_000 + number,
  title: `issue ${number}`,
  body: '',
  state: 'OPEN',
  labels,
  assignees: ['octocat'],
  comments: [],
  subIssues: [],
  createdAt: '2026-07-01T00:00:00Z',
});
const WORKING = ['backend', 'agent-working'];
let w: RealGhWorld;
beforeAll(async () => {
  w = await startRealGhWorld(
    emptyRepo({
      labels: ['backend', 'agent-working', 'agent-blocked'].map((name) => ({ name, color: 'ededed', description: '' })),
      issues: [1, 2, 3, 4, 5].map((n) => issue(n, [...WORKING])),
    }),
  );
});
afterAll(async () => {
  const unknown = w.double.unknown;
  await w.close();
  expect(unknown).toEqual([]);
});
const labelsOf = (n: number) => w.double.repo.issues.find((i) => i.number === n)?.labels;
const tracker = () => createGhIssueTracker({ runner: w.runner, repo: 'o/r', gh: REAL_GH });
const since = (from: number) => w.double.requests.slice(from);

describe('a label transition through real gh 2.23.0 and the API double', () => {
  // gh 2.23 sends LabelAdd and LabelRemove as two requests at once (seen in either order), so a
  // failure of one leaves the issue with neither label or with both.
  for (const [failing, n, left] of [
    ['LabelAdd', 1, ['backend']],
    ['LabelRemove', 5, ['backend', 'agent-working', 'agent-blocked']],
  ] as const) {
    it(`gh issue edit --add-label --remove-label is two mutations: ${failing} failing leaves ${left.length === 1 ? 'neither label' : 'both labels'} (why the adapter does not use it)`, async () => {
      const from = w.double.requests.length;
      w.double.fault('rate-limited', (r) => r.operation === failing);
      const out = (
        await w.runner.run({
          file: REAL_GH,
          args: ['issue', 'edit', String(n), '--repo=o/r', '--add-label=agent-blocked', '--remove-label=agent-working'],
          profile: 'gh',
        })
      )._unsafeUnwrap();
      w.double.fault(undefined);
      expect(out.exitCode).toBe(1);
      expect(out.stderr).toContain('API rate limit exceeded');
      // GraphQL answers RATE_LIMITED with status 200: both requests reached GitHub.
      const sent = since(from).flatMap((r) => (r.operation?.startsWith('Label') === true ? [r.operation] : []));
      expect(sent.sort()).toEqual(['LabelAdd', 'LabelRemove']);
      expect(labelsOf(n)).toEqual(left);
    });
  }

  it('the adapter sends working → blocked as ONE mutation request, after one read of the ids', async () => {
    const from = w.double.requests.length;
    (await tracker().editLabels(2, { add: ['agent-blocked'], remove: ['agent-working'] }))._unsafeUnwrap();
    const ops = since(from).flatMap((r) => (r.operation === undefined ? [] : [r.operation]));
    expect(ops.filter((o) => o.startsWith('Woterclip'))).toEqual(['WoterclipLabelIds', 'WoterclipLabelEdit']);
    expect(ops).not.toContain('LabelAdd');
    expect(ops).not.toContain('LabelRemove');
    expect(since(from).find((r) => r.operation === 'WoterclipLabelEdit')?.variables).toEqual({
      id: 'I_3000000002',
      add: ['LA_agent-blocked'],
      remove: ['LA_agent-working'],
    });
    expect(labelsOf(2)).toEqual(['backend', 'agent-blocked']);
  });

  for (const [fault, kind, n] of [
    ['rate-limited', 'rate-limited', 3],
    ['unauthenticated', 'auth', 4],
  ] as const) {
    it(`that request failing (${fault}) changes nothing: both labels as they were`, async () => {
      w.double.fault(fault, (r) => r.operation === 'WoterclipLabelEdit');
      const result = await tracker().editLabels(n, { add: ['agent-blocked'], remove: ['agent-working'] });
      w.double.fault(undefined);
      expect(result._unsafeUnwrapErr().kind).toBe(kind);
      expect(labelsOf(n)).toEqual(WORKING);
    });
  }

  it('gh label create without --color sends a colour of its own choosing; the adapter always sends one (EDEDED unless given)', async () => {
    const from = w.double.requests.length;
    const raw = (
      await w.runner.run({ file: REAL_GH, args: ['label', 'create', '--repo=o/r', '--', 'by-gh'], profile: 'gh' })
    )._unsafeUnwrap();
    expect(raw.exitCode).toBe(0);
    const ghBody = since(from).find((r) => r.method === 'POST' && r.path.endsWith('/labels'))?.body as { color?: string };
    expect(ghBody.color).toMatch(/^[0-9A-Fa-f]{6}$/); // random per run: never asserted further

    const t = tracker();
    (await t.createLabel('plain'))._unsafeUnwrap();
    (await t.createLabel('styled', { color: 'FBCA04', description: 'WoterClip status: in progress' }))._unsafeUnwrap();
    const bodies = since(from)
      .filter((r) => r.method === 'POST' && r.path.endsWith('/labels'))
      .map((r) => r.body);
    expect(bodies.slice(1)).toEqual([
      { name: 'plain', color: 'EDEDED', description: '' },
      { name: 'styled', color: 'FBCA04', description: 'WoterClip status: in progress' },
    ]);
    expect(w.double.repo.labels.find((l) => l.name === 'plain')?.color).toBe('ededed');
  });
});

describe('a label transition through the fake gh (test/fixtures/fake-gh)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'woterclip-label-transition-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const fakeGh = join(import.meta.dirname, 'fixtures', 'fake-gh', 'gh.mjs');
  chmodSync(fakeGh, 0o755);

  it('the mutation failing after the id read changes nothing', async () => {
    const path = join(dir, 'state.json');
    const state = {
      repo: 'o/r',
      login: 'octocat',
      authMode: 'ok',
      labels: ['backend', 'agent-working', 'agent-blocked'],
      seq: 100,
      argv: [],
      failures: [{ argv: ['api', 'graphql'], skip: 1, message: 'GraphQL: API rate limit exceeded for user ID 1.' }],
      issues: [{ ...issue(1, [...WORKING]), comments: [] }],
    };
    writeFileSync(path, JSON.stringify(state));
    const t = createGhIssueTracker({ runner: createProcessRunner(), repo: 'o/r', gh: fakeGh, env: { FAKE_GH_STATE: path } });
    const result = await t.editLabels(1, { add: ['agent-blocked'], remove: ['agent-working'] });
    expect(result._unsafeUnwrapErr().kind).toBe('rate-limited');
    const after = JSON.parse(readFileSync(path, 'utf8')) as typeof state;
    expect(after.issues[0]?.labels).toEqual(WORKING);
    expect(after.argv).toEqual([
      ['api', 'graphql', '--input=-'],
      ['api', 'graphql', '--input=-'],
    ]);
  });
});
