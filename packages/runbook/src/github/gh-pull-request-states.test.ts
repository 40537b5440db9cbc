import type { CommandRequest, CommandRunner } from '@heartbeat-kit/core';
import { errAsync, okAsync } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { createGhPullRequestStates, parseGhPrView } from './gh-pull-request-states.js';

function fakeRunner(
  reply: { exitCode: number; stdout?: string; stderr?: string } | 'not-found',
): CommandRunner & { requests: CommandRequest[] } {
  const requests: CommandRequest[] = [];
  return {
    requests,
    run: (request) => {
      requests.push(request);
      if (reply === 'not-found') return errAsync({ kind: 'not-found', file: request.file, message: 'ENOENT' });
      return okAsync({ exitCode: reply.exitCode, stdout: reply.stdout ?? '', stderr: reply.stderr ?? '', durationMs: 1 });
    },
  };
}

describe('gh pr view adapter', () => {
  it('runs gh with an argument vector and reads a merged PR', async () => {
    const runner = fakeRunner({ exitCode: 0, stdout: '{"mergedAt":"2026-10-19T08:00:00Z","state":"MERGED"}\n' });
    const r = await createGhPullRequestStates(runner).read({ repo: 'acme/web', number: 7 });
    expect(r._unsafeUnwrap()).toEqual({ state: 'MERGED', mergedAt: '2026-10-19T08:00:00Z' });
    expect(runner.requests[0]).toMatchObject({ file: 'gh', args: ['pr', 'view', '7', '--json', 'state,mergedAt', '--repo=acme/web'] });
  });
  it.each([
    ['{"mergedAt":null,"state":"CLOSED"}', { state: 'CLOSED', mergedAt: null }],
    ['{"mergedAt":"0001-01-01T00:00:00Z","state":"OPEN"}', { state: 'OPEN', mergedAt: null }],
  ])('parses %s', (stdout, value) => {
    expect(parseGhPrView(stdout)._unsafeUnwrap()).toEqual(value);
  });
  it.each(['', 'oops', '{"state":"DRAFT"}'])('%j is malformed, with a typed error', (stdout) => {
    const error = parseGhPrView(stdout)._unsafeUnwrapErr();
    expect(error.kind).toBe('malformed');
    expect(error.message).toMatch(/gh pr view/);
  });
  it('maps failures to typed errors', async () => {
    const auth = await createGhPullRequestStates(
      fakeRunner({ exitCode: 4, stderr: 'To get started with GitHub CLI, please run:  gh auth login\n' }),
    ).read({ number: 1 });
    expect(auth._unsafeUnwrapErr().kind).toBe('auth');
    const missing = await createGhPullRequestStates(
      fakeRunner({ exitCode: 1, stderr: 'GraphQL: Could not resolve to a PullRequest with the number of 999. (repository.pullRequest)\n' }),
    ).read({ number: 999 });
    expect(missing._unsafeUnwrapErr().kind).toBe('not-found');
    expect((await createGhPullRequestStates(fakeRunner('not-found')).read({ number: 1 }))._unsafeUnwrapErr().kind).toBe('tool');
    expect((await createGhPullRequestStates(fakeRunner({ exitCode: 0, stdout: 'oops' })).read({ number: 1 }))._unsafeUnwrapErr().kind).toBe(
      'malformed',
    );
  });
  it('refuses a repo that could become an option', async () => {
    const runner = fakeRunner({ exitCode: 0, stdout: '{}' });
    const r = await createGhPullRequestStates(runner).read({ repo: '--web/x y', number: 1 });
    expect(r.isErr()).toBe(true);
    expect(runner.requests).toHaveLength(0);
  });
});
