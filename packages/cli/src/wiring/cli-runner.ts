import type { CommandRunner } from '@heartbeat-kit/core';
import { ENV_NAME_PATTERN, splitCommaList } from '@heartbeat-kit/core/host';
import { createProcessRunner, type ProcessRunnerOptions } from '@heartbeat-kit/core/node';
import { err, ok, type Result } from 'neverthrow';
import type { CliIo } from '../io.js';

/** What a command chooses about its runner; the environment and the shutdown come from `io`. */
export type CliRunnerOptions = Omit<ProcessRunnerOptions, 'baseEnv' | 'shutdownSignal'>;

/**
 * The CLI's process runner: core's runner over the user's environment, ended by the CLI's
 * SIGINT/SIGTERM (children run in their own process groups, so the terminal's Ctrl-C no longer
 * reaches them: the runner kills them instead).
 */
export function createCliRunner(io: CliIo, options: CliRunnerOptions = {}): CommandRunner {
  const runner = createProcessRunner({ ...options, baseEnv: io.env, shutdownSignal: io.shutdownSignal });
  const prefetch = io.prefetch;
  // Only a runner with the prefetch's own defaults may take its runs (the same timeout, output
  // cap and profile rules): an equal request then means an equal run.
  if (prefetch === undefined || Object.keys(options).some((name) => name !== 'envAllow')) return runner;
  return {
    run: (request, signal) => {
      prefetch.record(request, options.envAllow);
      return prefetch.claim(request, options.envAllow, signal) ?? runner.run(request, signal);
    },
  };
}

/** Parses `--env-allow A,B,XDG_*`: absent = undefined (the user's environment), else the names. */
export function parseEnvAllowFlag(value: string | undefined): Result<readonly string[] | undefined, string> {
  if (value === undefined) return ok(undefined);
  // Split as the config's `Allow:` line (## Environment) is, so the flag and the key accept the same lists.
  const names = splitCommaList(value, { spaces: true });
  const bad = names.find((name) => !ENV_NAME_PATTERN.test(name));
  if (bad !== undefined)
    return err(
      `--env-allow: ${JSON.stringify(bad)} is not a variable name. Fix: list names separated by commas, e.g. --env-allow BEADS_DIR,HTTPS_PROXY,XDG_*.`,
    );
  return ok(names);
}
