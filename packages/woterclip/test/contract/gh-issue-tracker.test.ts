import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createGhIssueTracker } from '../../src/github/index.js';
import { createProcessRunner } from '@heartbeat-kit/core/node';
import { issueTrackerContract, type ContractSeed } from './issue-tracker-contract.js';

const fakeGh = join(import.meta.dirname, '..', 'fixtures', 'fake-gh', 'gh.mjs');
chmodSync(fakeGh, 0o755);
const dir = mkdtempSync(join(tmpdir(), 'woterclip-gh-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;

function writeState(seed: ContractSeed, authMode = 'ok'): string {
  counter += 1;
  const path = join(dir, `state-${counter}.json`);
  const state = {
    repo: 'o/r',
    login: seed.login,
    authMode,
    labels: [...seed.labels],
    seq: 100,
    argv: [] as string[][],
    issues: seed.issues.map((i) => ({
      number: i.number,
      id: 3_000_000_000 + i.number,
      title: i.title,
      body: i.body ?? '',
      labels: [...(i.labels ?? [])],
      comments: (i.comments ?? []).map((c, n) => ({
        id: `IC_${n}`,
        ...c,
        url: `https://github.com/o/r/issues/${i.number}#issuecomment-${n + 1}`,
      })),
      createdAt: '2026-07-01T00:00:00Z',
      state: i.open === false ? 'CLOSED' : 'OPEN',
      assignees: i.mine === false ? [] : [seed.login],
      subIssues: [] as number[],
    })),
  };
  writeFileSync(path, JSON.stringify(state));
  return path;
}

const runner = createProcessRunner();
const tracker = (statePath: string) => createGhIssueTracker({ runner, repo: 'o/r', gh: fakeGh, env: { FAKE_GH_STATE: statePath } });
const states: string[] = [];

issueTrackerContract(
  'gh CLI adapter against a fake gh executable',
  (seed) => {
    const path = writeState(seed);
    states.push(path);
    return Promise.resolve(tracker(path));
  },
  true,
);

describe('gh adapter specifics', () => {
  it('passes --repo on every repo command and never uses -f for the sub-issue id', () => {
    const calls = states.flatMap((p) => (JSON.parse(readFileSync(p, 'utf8')) as { argv: string[][] }).argv);
    expect(calls.length).toBeGreaterThan(20);
    for (const argv of calls) {
      if (argv[0] === 'auth' || argv[0] === '--version') continue;
      // The label edit's GraphQL names the repository in its JSON body on stdin (owner, name).
      if (argv[0] === 'api' && argv[1] === 'graphql') expect(argv).toEqual(['api', 'graphql', '--input=-']);
      else if (argv[0] === 'api') expect(argv.join(' ')).toMatch(/repos\/o\/r\//);
      else expect(argv).toContain('--repo=o/r');
    }
    const attach = calls.filter((a) => a.includes('-F'));
    expect(attach.length).toBeGreaterThan(0);
    expect(calls.some((a) => a.includes('-f'))).toBe(false);
  });

  it('maps "not logged in" to an auth error', async () => {
    const t = tracker(writeState({ login: 'octocat', labels: [], issues: [] }, 'none'));
    expect((await t.authStatus())._unsafeUnwrapErr().kind).toBe('auth');
    expect((await t.listInbox())._unsafeUnwrapErr()).toMatchObject({ kind: 'auth' });
  });

  it('a missing gh executable is "unavailable"', async () => {
    const t = createGhIssueTracker({ runner, repo: 'o/r', gh: join(dir, 'no-such-gh') });
    expect((await t.authStatus())._unsafeUnwrapErr().kind).toBe('unavailable');
  });

  it('refuses a repo that is not owner/name', () => {
    expect(() => createGhIssueTracker({ runner, repo: '--repo=x' })).toThrow(RangeError);
  });
});
