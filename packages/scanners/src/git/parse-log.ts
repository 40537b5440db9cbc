import { err, ok, type Result } from 'neverthrow';
import type { CommandOutput } from '@heartbeat-kit/core';

/** How a failed git call reads (tools.md §4.4). */
export type GitFailure =
  | { readonly kind: 'not-a-repo'; readonly stderr: string }
  | { readonly kind: 'unborn'; readonly stderr: string }
  | { readonly kind: 'unknown-revision'; readonly stderr: string }
  | { readonly kind: 'malformed-output'; readonly message: string }
  | { readonly kind: 'git-failed'; readonly exitCode: number; readonly stderr: string };

/** Classifies a non-zero git exit by its stderr (git runs with `LC_ALL=C`, so messages are English). */
export function classifyGitFailure(output: CommandOutput): GitFailure {
  const stderr = output.stderr.slice(0, 500);
  if (/fatal: not a git repository/.test(stderr)) return { kind: 'not-a-repo', stderr };
  if (/does not have any commits yet/.test(stderr)) return { kind: 'unborn', stderr };
  if (/unknown revision|bad revision|ambiguous argument/.test(stderr)) return { kind: 'unknown-revision', stderr };
  return { kind: 'git-failed', exitCode: output.exitCode, stderr };
}

/**
 * Reads `git log -1 --format=%ct`: the committer time of HEAD in epoch seconds, or `undefined`
 * when there is no commit (an unborn branch exits 128; a filtered log prints nothing).
 */
export function interpretLastCommitEpoch(output: CommandOutput): Result<number | undefined, GitFailure> {
  if (output.exitCode !== 0) {
    const failure = classifyGitFailure(output);
    return failure.kind === 'unborn' ? ok(undefined) : err(failure);
  }
  const text = output.stdout.trim();
  if (text === '') return ok(undefined);
  if (!/^\d+$/.test(text)) return err({ kind: 'malformed-output', message: `not an epoch: ${text.slice(0, 40)}` });
  return ok(Number(text));
}

/** Reads `git log --format=%H …`: how many commits it listed (empty output, exit 0 = none). */
export function interpretCommitCount(output: CommandOutput): Result<number, GitFailure> {
  if (output.exitCode !== 0) return err(classifyGitFailure(output));
  const lines = output.stdout.split('\n').filter((line) => line !== '');
  for (const line of lines) {
    if (!/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(line))
      return err({ kind: 'malformed-output', message: `not a commit id: ${line.slice(0, 80)}` });
  }
  return ok(lines.length);
}
