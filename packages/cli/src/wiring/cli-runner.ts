import type { CommandRunner } from '@heartbeat-kit/core';
import { createProcessRunner, type ProcessRunnerOptions } from '@heartbeat-kit/core/node';
import type { CliIo } from '../io.js';

/** What a command chooses about its runner; the environment and the shutdown come from `io`. */
export type CliRunnerOptions = Omit<ProcessRunnerOptions, 'baseEnv' | 'shutdownSignal'>;

/**
 * The CLI's process runner: core's runner over the user's environment, ended by the CLI's
 * SIGINT/SIGTERM (children run in their own process groups, so the terminal's Ctrl-C no longer
 * reaches them: the runner kills them instead).
 */
export function createCliRunner(io: CliIo, options: CliRunnerOptions = {}): CommandRunner {
  return createProcessRunner({ ...options, baseEnv: io.env, shutdownSignal: io.shutdownSignal });
}
