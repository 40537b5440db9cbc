import type { CommandRunner } from '@heartbeat-kit/core';
import { err, errAsync, ok, okAsync, type Result } from 'neverthrow';
import { z } from 'zod';
import type { PullRequestRef } from '../model/runbook.js';
import type { PullRequestState, PullRequestStateError, PullRequestStates } from '../ports/pull-request-states.js';

/** Options of the gh adapter. */
export interface GhPullRequestStatesOptions {
  /** `owner/name` for refs that name no repository; gh's current-repo default when absent. */
  readonly defaultRepo?: string;
  readonly timeoutMs?: number;
  readonly cwd?: string;
  /** Extra environment for gh (e.g. `GH_TOKEN`, `GH_HOST`), passed through the runner. */
  readonly env?: Readonly<Record<string, string>>;
}

const REPO = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;
// gh prints zero `time.Time` values for fields a PR does not have yet.
const ZERO_TIME = /^0001-01-01T00:00:00Z$/;

const ghPrSchema = z.object({
  state: z.enum(['OPEN', 'CLOSED', 'MERGED']),
  mergedAt: z.string().nullable().optional(),
});

/** Parses `gh pr view N --json state,mergedAt` stdout; anything else is `malformed`. */
export function parseGhPrView(stdout: string): Result<PullRequestState, Extract<PullRequestStateError, { kind: 'malformed' }>> {
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch {
    return err({ kind: 'malformed', message: 'gh pr view printed no JSON' });
  }
  const parsed = ghPrSchema.safeParse(json);
  if (!parsed.success)
    return err({
      kind: 'malformed',
      message: `unexpected gh pr view JSON: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    });
  const mergedAt =
    parsed.data.mergedAt === undefined ||
    parsed.data.mergedAt === null ||
    ZERO_TIME.test(parsed.data.mergedAt) ||
    parsed.data.mergedAt === ''
      ? null
      : parsed.data.mergedAt;
  return ok({ state: parsed.data.state, mergedAt });
}

/**
 * Reads PR states with `gh pr view N --json state,mergedAt` through the CommandRunner port. The
 * number is an integer and the repo is checked against `owner/name` and passed as `--repo=…`, so no
 * outside value can become an option.
 */
export function createGhPullRequestStates(runner: CommandRunner, options: GhPullRequestStatesOptions = {}): PullRequestStates {
  return {
    read: (ref: PullRequestRef) => {
      if (!Number.isSafeInteger(ref.number) || ref.number <= 0) {
        return errAsync<PullRequestState, PullRequestStateError>({
          kind: 'not-found',
          ref,
          message: `#${ref.number} is not a pull request number`,
        });
      }
      const repo = ref.repo ?? options.defaultRepo;
      if (repo !== undefined && !REPO.test(repo)) {
        return errAsync<PullRequestState, PullRequestStateError>({
          kind: 'not-found',
          ref,
          message: `"${repo}" is not an owner/name repository`,
        });
      }
      const args = ['pr', 'view', String(ref.number), '--json', 'state,mergedAt', ...(repo === undefined ? [] : [`--repo=${repo}`])];
      return runner
        .run({
          file: 'gh',
          args,
          profile: 'gh',
          timeoutMs: options.timeoutMs ?? 30_000,
          ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
          ...(options.env === undefined ? {} : { env: options.env }),
        })
        .mapErr((e): PullRequestStateError => ({
          kind: 'tool',
          message: e.kind === 'not-found' ? 'gh is not installed (not found on PATH)' : `gh failed: ${e.kind}`,
        }))
        .andThen((out) => {
          // Exit 4 is "never logged in"; an expired or revoked token is exit 1 with GitHub's
          // `HTTP 401: Bad credentials` (captured from gh 2.23.0: pr-view-bad-credentials).
          if (out.exitCode === 4 || /Bad credentials|HTTP 401|\b401 Unauthorized/.test(out.stderr))
            return errAsync<PullRequestState, PullRequestStateError>({
              kind: 'auth',
              message: 'gh is not authenticated (or its token expired); run gh auth login',
            });
          if (out.exitCode !== 0) {
            const firstLine = out.stderr.trim().split('\n')[0] ?? '';
            if (/could not resolve to a (pullrequest|pull request)|no pull requests found/i.test(out.stderr)) {
              return errAsync<PullRequestState, PullRequestStateError>({ kind: 'not-found', ref, message: firstLine });
            }
            return errAsync<PullRequestState, PullRequestStateError>({ kind: 'tool', message: `gh exited ${out.exitCode}: ${firstLine}` });
          }
          const parsed = parseGhPrView(out.stdout);
          return parsed.isOk()
            ? okAsync<PullRequestState, PullRequestStateError>(parsed.value)
            : errAsync<PullRequestState, PullRequestStateError>(parsed.error);
        });
    },
  };
}
