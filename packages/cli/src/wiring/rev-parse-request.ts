import type { CommandRequest } from '@heartbeat-kit/core';

/**
 * The `git rev-parse` that finds a directory's worktree root and common git directory. One
 * builder for the project lookup and the cycle prefetch, which starts this very request while the
 * command loads: the lookup then gets that run (the prefetch hands a run only to an equal request).
 */
export function revParseRequest(directory: string): CommandRequest {
  return {
    file: 'git',
    args: ['-C', directory, 'rev-parse', '--show-toplevel', '--git-common-dir'],
    env: { LC_ALL: 'C', GIT_OPTIONAL_LOCKS: '0' },
  };
}
