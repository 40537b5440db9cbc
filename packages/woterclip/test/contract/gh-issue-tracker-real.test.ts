import { afterEach, describe, expect, it } from 'vitest';
import { checkGhVersion, createGhIssueTracker, MIN_GH_VERSION } from '../../src/github/index.js';
import { capturedOutput } from '../support/gh-captures.js';
import type { DoubleIssue } from '../support/github-api-double.js';
import { emptyRepo, REAL_GH, startRealGhWorld, type RealGhWorld } from '../support/real-gh.js';
import { HOSTILE, issueTrackerContract, type ContractSeed } from './issue-tracker-contract.js';

const worlds: RealGhWorld[] = [];
afterEach(async () => {
  // Every request gh made must have been one the double knows: an unknown one is a failure here.
  const unknown = worlds.flatMap((w) => w.double.unknown);
  await Promise.all(worlds.splice(0).map((w) => w.close()));
  expect(unknown).toEqual([]);
});

/** The double's repository for a contract seed. */
export function repoFromSeed(seed: ContractSeed) {
  return emptyRepo({
    login: seed.login,
    labels: seed.labels.map((name) => ({ name, color: 'ededed', description: '' })),
    issues: seed.issues.map((i): DoubleIssue => ({
      number: i.number,
      id: 3_000_000_000 + i.number,
      title: i.title,
      body: i.body ?? '',
      state: i.open === false ? 'CLOSED' : 'OPEN',
      labels: [...(i.labels ?? [])],
      assignees: i.mine === false ? [] : [seed.login],
      comments: (i.comments ?? []).map((c, n) => ({ id: 100 + n, ...c })),
      subIssues: [],
      createdAt: `2026-07-01T00:00:0${i.number % 10}Z`,
    })),
  });
}

async function world(seed: ContractSeed): Promise<RealGhWorld> {
  const w = await startRealGhWorld(repoFromSeed(seed));
  worlds.push(w);
  return w;
}

issueTrackerContract(
  'gh adapter against real gh 2.23 and the GitHub API double',
  async (seed) => {
    const w = await world(seed);
    return createGhIssueTracker({ runner: w.runner, repo: 'o/r', gh: REAL_GH });
  },
  true,
);

describe('gh adapter against real gh: failures as GitHub sends them', () => {
  const seed: ContractSeed = { login: 'octocat', labels: ['backend'], issues: [{ number: 1, title: 'One', labels: ['backend'] }] };

  it('an expired token (401 Bad credentials) is an auth error for auth status and every command', async () => {
    const w = await world(seed);
    w.double.fault('unauthenticated');
    const t = createGhIssueTracker({ runner: w.runner, repo: 'o/r', gh: REAL_GH });
    expect((await t.authStatus())._unsafeUnwrapErr()).toMatchObject({ kind: 'auth' });
    expect((await t.listInbox())._unsafeUnwrapErr()).toMatchObject({ kind: 'auth' });
    expect((await t.issueId(1))._unsafeUnwrapErr()).toMatchObject({ kind: 'auth' });
  });

  it('a rate limit (REST 403, GraphQL RATE_LIMITED, secondary 429) is a rate-limited error naming the limit', async () => {
    const w = await world(seed);
    const t = createGhIssueTracker({ runner: w.runner, repo: 'o/r', gh: REAL_GH });
    w.double.fault('rate-limited');
    expect((await t.listInbox())._unsafeUnwrapErr()).toMatchObject({ kind: 'rate-limited' });
    expect((await t.issueId(1))._unsafeUnwrapErr()).toMatchObject({ kind: 'rate-limited' });
    w.double.fault('secondary-rate-limit');
    expect((await t.issueId(1))._unsafeUnwrapErr()).toMatchObject({ kind: 'rate-limited' });
    expect((await t.viewLabels(1))._unsafeUnwrapErr()).toMatchObject({ kind: 'rate-limited' });
  });

  it('a comment reaches GitHub byte-exact, control characters included (gh rewrites them only when printing)', async () => {
    const w = await world(seed);
    const t = createGhIssueTracker({ runner: w.runner, repo: 'o/r', gh: REAL_GH });
    for (const body of HOSTILE) (await t.comment(1, body))._unsafeUnwrap();
    expect(w.double.repo.issues[0]?.comments.map((c) => c.body)).toEqual([...HOSTILE]);
  });

  it('gh older than the minimum is refused before any request, naming both versions and the fix', () => {
    expect(checkGhVersion(capturedOutput('version').stdout)).toBeUndefined();
    expect(checkGhVersion('gh version 2.4.0 (2021-11-21 Ubuntu 2.4.0+dfsg1-2)\n')).toEqual({
      kind: 'unavailable',
      message: `gh 2.4.0 is older than ${MIN_GH_VERSION}, the oldest gh heartbeat-kit supports; upgrade the GitHub CLI (https://github.com/cli/cli#installation) and run the beat again`,
    });
    expect(checkGhVersion('gh: command output changed')).toMatchObject({ kind: 'bad-output' });
  });

  it('an unknown label on edit (gh 2.23 prints "\'x\' not found") is label-not-found', async () => {
    const w = await world(seed);
    const t = createGhIssueTracker({ runner: w.runner, repo: 'o/r', gh: REAL_GH });
    expect((await t.editLabels(1, { add: ['in-review'] }))._unsafeUnwrapErr()).toMatchObject({
      kind: 'label-not-found',
      label: 'in-review',
    });
    expect(w.double.repo.issues[0]?.labels).toEqual(['backend']);
  });
});
