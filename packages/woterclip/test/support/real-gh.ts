import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProcessRunner } from '@heartbeat-kit/core/node';
import type { CommandRunner } from '@heartbeat-kit/core';
import { startGitHubApiDouble, type DoubleIssue, type DoubleRepo, type GitHubApiDouble } from './github-api-double.js';
import { makeLoopbackTls } from './loopback-tls.js';

/** The real gh this machine has (Debian's package; `.ci/run` installs it). */
export const REAL_GH = '/usr/bin/gh';

/** Real gh pointed at a fresh API double, isolated from the user's gh, tokens and caches. */
export interface RealGhWorld {
  readonly double: GitHubApiDouble;
  /** The whole environment gh runs with (nothing inherited). */
  readonly env: Readonly<Record<string, string>>;
  /** The one process runner, starting from `env` instead of `process.env`. */
  readonly runner: CommandRunner;
  readonly dir: string;
  readonly close: () => Promise<void>;
}

/** A repository for the double: `o/r`, login `octocat`, no issues. */
export function emptyRepo(overrides: Partial<DoubleRepo> = {}): DoubleRepo {
  return { owner: 'o', name: 'r', login: 'octocat', labels: [], issues: [], pulls: [], ...overrides };
}

/**
 * Starts the double and builds gh's environment from nothing: a temp `GH_CONFIG_DIR` and HOME,
 * a temp `TMPDIR` (gh 2.23 keeps its API cache in `$TMPDIR/gh-cli-cache`), the double as
 * `GH_HOST` with its CA in `SSL_CERT_FILE`, the token in `GH_ENTERPRISE_TOKEN`, and no
 * `GITHUB_TOKEN`/`GH_TOKEN` from the caller.
 */
export async function startRealGhWorld(repo: DoubleRepo = emptyRepo()): Promise<RealGhWorld> {
  const dir = mkdtempSync(join(tmpdir(), 'hk-real-gh-'));
  for (const sub of ['config', 'home', 'tmp', 'tls']) mkdirSync(join(dir, sub));
  const tls = makeLoopbackTls(join(dir, 'tls'));
  const token = 'ghp_double_token';
  const double = await startGitHubApiDouble(tls, repo, token);
  const env: Record<string, string> = {
    PATH: '/usr/bin:/bin',
    HOME: join(dir, 'home'),
    TMPDIR: join(dir, 'tmp'),
    XDG_CACHE_HOME: join(dir, 'tmp'),
    GH_CONFIG_DIR: join(dir, 'config'),
    GH_HOST: double.host,
    GH_ENTERPRISE_TOKEN: token,
    SSL_CERT_FILE: tls.caFile,
    GH_NO_UPDATE_NOTIFIER: '1',
    GH_PROMPT_DISABLED: '1',
    NO_COLOR: '1',
    LANG: 'C.UTF-8',
  };
  return {
    double,
    env,
    runner: createProcessRunner({ baseEnv: env }),
    dir,
    close: async () => {
      await double.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const issue = (number: number, title: string, extra: Partial<DoubleIssue> = {}): DoubleIssue => ({
  number,
  id: 3_000_000_000 + number,
  title,
  body: '',
  state: 'OPEN',
  labels: [],
  assignees: ['octocat'],
  comments: [],
  subIssues: [],
  createdAt: `2026-07-0${number % 9}T00:00:00Z`,
  ...extra,
});

/** The repository the captured fixtures were taken against (test/support/gh-captures.ts). */
export function fixtureRepo(): DoubleRepo {
  return emptyRepo({
    labels: [
      { name: 'backend', color: '1d76db', description: '' },
      { name: 'agent-working', color: 'fbca04', description: 'WoterClip is working on it' },
    ],
    issues: [
      issue(5, 'Parent', {
        body: 'Do the thing',
        labels: ['backend'],
        comments: [{ id: 41, author: 'boss', body: 'Please fix.', createdAt: '2026-07-21T09:00:00Z' }],
      }),
      issue(6, 'Child A'),
      issue(7, 'Child B'),
      issue(8, 'Not mine', { assignees: [] }),
    ],
    pulls: [
      { number: 12, state: 'MERGED', mergedAt: '2026-07-20T08:00:00Z' },
      { number: 13, state: 'OPEN', mergedAt: null },
    ],
  });
}
