import { describe, expect, it } from 'vitest';
import { capturedOutput } from '../../test/support/gh-captures.js';
import type { CommandRunner } from '@heartbeat-kit/core';
import { okAsync } from 'neverthrow';
import { checkGhVersion, classifyGhFailure } from './gh-failures.js';
import { createGhIssueTracker } from './gh-issue-tracker.js';
import { parseAuthLogin, parseJsonSequence } from './gh-output.js';

/** A runner that answers `gh --version` and then `gh auth status` with captured runs. */
const replay = (authStatus: string): CommandRunner => ({
  run: (request) => okAsync(capturedOutput(request.args[0] === '--version' ? 'version' : authStatus)),
});

// Every failure real gh 2.23.0 printed (test/fixtures/gh-captured, re-checked against real gh by
// test/gh-captured-fixtures.test.ts) and the tracker error the adapter makes of it.
const EXPECTED: Record<string, { kind: string; label?: string }> = {
  'issue-list-not-logged-in': { kind: 'auth' },
  'issue-list-bad-credentials': { kind: 'auth' },
  'api-issue-bad-credentials': { kind: 'auth' },
  'issue-edit-bad-credentials': { kind: 'auth' },
  'pr-view-bad-credentials': { kind: 'auth' },
  'issue-list-rate-limited': { kind: 'rate-limited' },
  'issue-edit-rate-limited': { kind: 'rate-limited' },
  'api-issue-rate-limited': { kind: 'rate-limited' },
  'issue-list-secondary-rate-limit': { kind: 'rate-limited' },
  'api-issue-secondary-rate-limit': { kind: 'rate-limited' },
  'issue-edit-unknown-label': { kind: 'label-not-found', label: 'in-review' },
  'issue-create-unknown-label': { kind: 'label-not-found', label: 'in-review' },
  'issue-view-not-found': { kind: 'not-found' },
  'api-graphql-label-ids-not-found': { kind: 'not-found' },
  'api-graphql-label-edit-rate-limited': { kind: 'rate-limited' },
  'api-graphql-label-edit-bad-credentials': { kind: 'auth' },
  'api-issue-not-found': { kind: 'not-found' },
  'label-create-exists': { kind: 'failed' },
  'api-sub-issues-add-again': { kind: 'failed' },
};

describe('classifyGhFailure on what real gh printed', () => {
  for (const [name, expected] of Object.entries(EXPECTED)) {
    it(`${name} → ${expected.kind}`, () => {
      const output = capturedOutput(name);
      expect(output.exitCode).not.toBe(0);
      expect(classifyGhFailure(output)).toMatchObject(expected);
    });
  }

  it('an expired token says to log in again, a rate limit says nothing changed', () => {
    expect(classifyGhFailure(capturedOutput('issue-edit-bad-credentials')).message).toBe(
      'HTTP 401: Bad credentials (https://localhost:PORT/api/graphql); run `gh auth login`',
    );
    expect(classifyGhFailure(capturedOutput('api-issue-rate-limited')).message).toBe(
      'GitHub rate limit: gh: API rate limit exceeded for user ID 1. (HTTP 403); nothing was changed, the next beat retries',
    );
  });
});

describe('authStatus on what real gh printed', () => {
  it('a failed auth status names the cause, not the host gh prints alone on its first line', async () => {
    const t = createGhIssueTracker({ runner: replay('auth-status-bad-credentials'), repo: 'o/r' });
    expect((await t.authStatus())._unsafeUnwrapErr()).toEqual({
      kind: 'auth',
      message:
        'gh auth status failed: localhost:PORT: authentication failed; The localhost:PORT token in GH_ENTERPRISE_TOKEN is no longer valid.; run `gh auth login`',
    });
    const none = createGhIssueTracker({ runner: replay('auth-status-not-logged-in'), repo: 'o/r' });
    expect((await none.authStatus())._unsafeUnwrapErr().message).toBe(
      'gh auth status failed: You are not logged into any GitHub hosts. Run gh auth login to authenticate.; run `gh auth login`',
    );
  });

  it('a good auth status gives the login', async () => {
    const t = createGhIssueTracker({ runner: replay('auth-status-ok'), repo: 'o/r' });
    expect((await t.authStatus())._unsafeUnwrap()).toEqual({ login: 'octocat' });
  });
});

describe('parsers on what real gh printed', () => {
  it('auth status: gh 2.23 prints "Logged in to HOST as LOGIN (GH_ENTERPRISE_TOKEN)" on stderr', () => {
    const ok = capturedOutput('auth-status-ok');
    expect(ok.stdout).toBe('');
    expect(parseAuthLogin(ok.stderr)).toBe('octocat');
  });

  it('--paginate prints one JSON array per page back to back', () => {
    const out = capturedOutput('api-sub-issues-list-two-pages').stdout;
    expect(out).toMatch(/\]\[/);
    const pages = parseJsonSequence(out) as { number: number }[][];
    expect(pages.map((p) => p.map((i) => i.number))).toEqual([[7], [6]]);
    expect(parseJsonSequence(capturedOutput('api-sub-issues-list-empty').stdout)).toEqual([[]]);
  });

  it('gh --version of the CI gh passes the minimum version check', () => {
    expect(checkGhVersion(capturedOutput('version').stdout)).toBeUndefined();
  });
});
