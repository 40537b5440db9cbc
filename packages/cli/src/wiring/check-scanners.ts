import type { Scanner } from '@heartbeat-kit/core';
import { type CheckSpec, envPatternMatches } from '@heartbeat-kit/core/host';
import { commandScanner, type CommandScannerSpec } from '@heartbeat-kit/scanners';
import type { CliIo } from '../io.js';
import { createCliRunner } from './cli-runner.js';

/** What the checks of HEARTBEAT.md need from the CLI: its io (environment, shutdown) and the global allow-list. */
export interface CheckWiring {
  readonly io: CliIo;
  /** The project directory: checks run here (or in their `cwd` under it). */
  readonly cwd: string;
  /** `--env-allow` or `## Environment → Allow`: a check without its own `env allow` gets this. */
  readonly envAllow?: readonly string[] | undefined;
}

/** The user's environment without a check's `env deny` names (a trailing `*` is a prefix). */
function withoutDenied(env: CliIo['env'], deny: readonly string[] | undefined): CliIo['env'] {
  if (deny === undefined) return env;
  return Object.fromEntries(Object.entries(env).filter(([name]) => !deny.some((pattern) => envPatternMatches(pattern, name))));
}

/**
 * One scanner per check, each over its own process runner: the CLI's runner (process groups,
 * deadline and grace, output cap, the shutdown) with the check's env policy — its `env allow` as
 * hardened mode (else the heartbeat's), its `env deny` names taken out of what children inherit.
 */
export function createCheckScanners(checks: readonly CheckSpec[], wiring: CheckWiring): Scanner[] {
  return checks.map((check) => commandScanner(checkScannerSpec(check, wiring)));
}

/** The spec `commandScanner` and `check run` get for one check: the check, its runner, the project directory. */
export function checkScannerSpec(check: CheckSpec, wiring: CheckWiring): CommandScannerSpec {
  const io = { ...wiring.io, env: withoutDenied(wiring.io.env, check.env?.deny) };
  const runner = createCliRunner(io, { profile: 'command', envAllow: check.env?.allow ?? wiring.envAllow });
  return { check, runner, cwd: wiring.cwd };
}
