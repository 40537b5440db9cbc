import { type ConfigSection, durationSetter, formatDuration } from '@heartbeat-kit/core/host';
import { z } from 'zod';

const MINUTE = 60_000;

const GIT_SHAPE = {
  /** Uncommitted changes with a last commit older than this are GIT_STALE (1 h). */
  gitStaleMs: z
    .number()
    .int()
    .positive()
    .default(60 * MINUTE)
    .describe('A worktree with uncommitted changes and a last commit older than this (ms) is GIT_STALE.'),
};

const gitAlert = durationSetter('gitStaleMs', 'h', 'uncommitted changes older than 1 hour');

/**
 * The git scanner's section of the configuration (HEARTBEAT.md `### Git`): how old the last commit of
 * a worktree with uncommitted changes may be before it is GIT_STALE.
 */
export const GIT_CONFIG: ConfigSection<{ readonly gitStaleMs: z.ZodDefault<z.ZodNumber> }> = {
  shape: GIT_SHAPE,
  before: 'operatorIdleMs',
  headings: { git: 'git' },
  keys: { git: { 'alert if': gitAlert, threshold: gitAlert } },
  renderAt: 'scan parameters',
  render: ({ gitStaleMs }) => [
    '### Git',
    '<!-- A worktree with uncommitted changes whose last commit is older than this is reported (bare number = hours). -->',
    `- Alert if: uncommitted changes older than ${formatDuration(gitStaleMs)}`,
    '',
  ],
};
