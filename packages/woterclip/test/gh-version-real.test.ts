import { afterAll, beforeAll, expect, it } from 'vitest';
import { createGhIssueTracker } from '../src/github/index.js';
import { runBeat } from '../src/index.js';
import { harness, report } from './beat-harness.js';
import { emptyRepo, REAL_GH, startRealGhWorld, type RealGhWorld } from './support/real-gh.js';

// Issue 31 item 3 through the real gh: the gh here (2.23.0) is the oldest we support, so "too old"
// is shown by requiring a newer one; the real `gh --version` output is what gets read.
let w: RealGhWorld;
beforeAll(async () => {
  w = await startRealGhWorld(
    emptyRepo({
      labels: [{ name: 'backend', color: '1d76db', description: '' }],
      issues: [
        {
          number: 1,
          id: 3_000_000_001,
          title: 'a',
          body: '',
          state: 'OPEN',
          labels: ['backend'],
          assignees: ['octocat'],
          comments: [],
          subIssues: [],
          createdAt: '2026-07-01T00:00:00Z',
        },
      ],
    }),
  );
});
afterAll(async () => {
  await w.close();
});

it('real gh older than the minimum: the beat ends blocked_exit naming both versions and the fix, before any request, labels intact', async () => {
  const tracker = createGhIssueTracker({ runner: w.runner, repo: 'o/r', gh: REAL_GH, minVersion: '99.0.0' });
  const h = harness({ issues: [], script: [(r) => report('completed', {}, r)] });
  const result = await runBeat({ ...h.deps, tracker });
  expect(result.exit).toBe('blocked-exit');
  expect(result.stopReason).toBe('blocked_exit');
  expect(result.messages.join('\n')).toContain(
    'gh 2.23.0 is older than 99.0.0, the oldest gh heartbeat-kit supports; upgrade the GitHub CLI (https://github.com/cli/cli#installation) and run the beat again',
  );
  expect(w.double.requests).toEqual([]);
  expect(w.double.repo.issues[0]?.labels).toEqual(['backend']);
  expect(w.double.repo.issues[0]?.comments).toEqual([]);
});

it('real gh at the minimum (2.23.0) passes the check and the beat goes on to gh auth status', async () => {
  const tracker = createGhIssueTracker({ runner: w.runner, repo: 'o/r', gh: REAL_GH, minVersion: '2.23.0' });
  expect((await tracker.authStatus())._unsafeUnwrap()).toEqual({ login: 'octocat' });
  expect(w.double.requests.map((r) => r.operation ?? `${r.method} ${r.path}`)).toEqual(['GET /api/v3/', 'UserCurrent']);
});
