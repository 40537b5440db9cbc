import { join } from 'node:path';
import { createProcessRunner } from '@heartbeat-kit/core/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturedOutput } from '../../woterclip/test/support/gh-captures.js';
import { emptyRepo, startRealGhWorld, type RealGhWorld } from '../../woterclip/test/support/real-gh.js';
import { createGhPullRequestStates } from '../src/github/index.js';
import { applyPrunePlan, parseRunbook, planPrune, readPullRequestStates, type PullRequestStates } from '../src/index.js';
import { createFakePullRequestStates } from '../src/testing/index.js';
import { CONTRACT_WORLD, pullRequestStatesContract } from './contract/pull-request-states-contract.js';

// The runbook prune scenario with PR states read three ways: the in-memory fake, the gh adapter
// over the fake gh script, and the gh adapter over the real gh 2.23.0 talking to the API double.

const TEXT = [
  '## Watch Items',
  '- Old flag DELETE 10-18',
  '- Followed up. Lift when vendor answers (check 10-19)',
  '',
  '## Active Blockers',
  '- Deploy freeze. Lift when #12 merges (check 10-25)',
  '- Flaky test. Lift when o/r#13 merges (check 10-25)',
  '- Docs. Lift when #14 merges (check 10-25)',
  '- Unknown PR. Lift when #99 merges (check 10-25)',
  '',
].join('\n');

let world: RealGhWorld;
beforeAll(async () => {
  world = await startRealGhWorld(
    emptyRepo({
      pulls: Object.entries(CONTRACT_WORLD).map(([ref, pr]) => ({ number: Number(ref.slice(1)), state: pr.state, mergedAt: pr.mergedAt })),
    }),
  );
});
afterAll(async () => {
  const unknown = world.double.unknown;
  await world.close();
  expect(unknown).toEqual([]);
});

const FAKE_GH_DIR = join(import.meta.dirname, 'fixtures', 'fake-gh');
const fakeGhWorld = JSON.stringify(Object.fromEntries(Object.entries(CONTRACT_WORLD).map(([k, v]) => [k.slice(1), v])));
const fakeGhRunner = createProcessRunner({
  baseEnv: { ...process.env, PATH: `${FAKE_GH_DIR}:${process.env.PATH ?? ''}`, FAKE_GH_WORLD: fakeGhWorld },
});

const backends: readonly (readonly [string, () => PullRequestStates])[] = [
  ['in-memory fake', () => createFakePullRequestStates({ ...CONTRACT_WORLD, 'o/r#13': CONTRACT_WORLD['#13']! })],
  ['gh adapter over the fake gh script', () => createGhPullRequestStates(fakeGhRunner)],
  ['gh adapter over real gh 2.23.0 + GitHub API double', () => createGhPullRequestStates(world.runner, { defaultRepo: 'o/r' })],
];

for (const [name, make] of backends) {
  pullRequestStatesContract(name, make);

  describe(`runbook prune through ${name}`, () => {
    it('removes merged and closed-unmerged PR items and past DELETE dates, warns on the unknown PR', async () => {
      const rb = parseRunbook(TEXT);
      const states = (await readPullRequestStates(rb, make()))._unsafeUnwrap();
      const plan = planPrune(rb, new Date('2026-10-20T12:00:00Z'), 'UTC', states);
      expect(plan.entries.map((e) => [e.line, e.action, e.reason])).toEqual([
        [2, 'remove', 'delete-date-past'],
        [3, 'review', 'check-date-past'],
        [6, 'remove', 'pr-merged'],
        [7, 'remove', 'pr-closed-unmerged'],
      ]);
      expect(plan.warnings.map((w) => w.line)).toEqual([9]);
      expect(applyPrunePlan(TEXT, plan).split('\n')).toEqual([
        '## Watch Items',
        '- Followed up. Lift when vendor answers (check 10-19)',
        '',
        '## Active Blockers',
        '- Docs. Lift when #14 merges (check 10-25)',
        '- Unknown PR. Lift when #99 merges (check 10-25)',
        '',
      ]);
    });
  });
}

describe('gh pr view failures as real gh prints them', () => {
  it('an expired token (exit 1, HTTP 401 Bad credentials) is auth, not a tool failure', async () => {
    const captured = capturedOutput('pr-view-bad-credentials');
    expect(captured.exitCode).toBe(1);
    world.double.fault('unauthenticated');
    const r = await createGhPullRequestStates(world.runner, { defaultRepo: 'o/r' }).read({ number: 12 });
    world.double.fault(undefined);
    expect(r._unsafeUnwrapErr()).toMatchObject({ kind: 'auth' });
  });

  it('a rate limit is a tool failure that names it', async () => {
    world.double.fault('rate-limited');
    const r = await createGhPullRequestStates(world.runner, { defaultRepo: 'o/r' }).read({ number: 12 });
    world.double.fault(undefined);
    const error = r._unsafeUnwrapErr();
    expect(error.kind).toBe('tool');
    expect(error.message).toContain('API rate limit exceeded');
  });
});
