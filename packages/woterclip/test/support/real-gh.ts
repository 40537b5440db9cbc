import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProcessRunner } from '@heartbeat-kit/core/node';
import type { CommandRunner } from '@heartbeat-kit/core';
import { startGitHubApiDouble, type DoubleRepo, type GitHubApiDouble } from './github-api-double.js';
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
