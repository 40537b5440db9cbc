import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { DEFAULT_SCANNER_TIMEOUT_MS } from '@heartbeat-kit/core/host';
import { COMMAND_SINK_TIMEOUT_MS } from '../sinks/command-sink.js';

/** Which service manager, and for systemd whose. */
export type ServiceKind = 'systemd-user' | 'systemd-system' | 'launchd';

/** Everything a unit or plist is made of: absolute paths only, chosen once at install. */
export interface ServicePlan {
  readonly kind: ServiceKind;
  /** Unit base name / plist label suffix, from the project (see {@link serviceName}). */
  readonly name: string;
  /** The node that runs the bin (`process.execPath`). */
  readonly node: string;
  /** The bin's real path (symlinks resolved). */
  readonly bin: string;
  /** The project root `loop` watches; also the working directory. */
  readonly project: string;
  /** systemd: `EnvironmentFile=-` this (optional, may not exist). */
  readonly envFile: string;
  /** PATH at install time, so the tools the heartbeat runs (git, tmux, gh, bd) are found as in the user's shell. */
  readonly pathEnv: string | undefined;
  /** Extra `loop` arguments (after `--` on the command line), passed verbatim. */
  readonly loopArgs: readonly string[];
  /** `check-liveness --max-age`, when given. */
  readonly maxAge: string | undefined;
  /** systemd system units: the account the loop runs as. */
  readonly user: string | undefined;
  /** launchd: where stdout and stderr go. */
  readonly logDir: string;
}

/**
 * How long a stop may take: the scan in flight runs to its deadline (each scanner gives up after
 * {@link DEFAULT_SCANNER_TIMEOUT_MS}), then its report is delivered (the slowest sink, a command,
 * gets {@link COMMAND_SINK_TIMEOUT_MS}), with 30 s to spare for writing state and receipts.
 */
export const STOP_TIMEOUT_SEC = Math.ceil((DEFAULT_SCANNER_TIMEOUT_MS + COMMAND_SINK_TIMEOUT_MS + 30_000) / 1000);

/** The liveness check's period (systemd timer, launchd StartInterval). */
export const LIVENESS_EVERY_SEC = 15 * 60;

/**
 * The service's name for a project: `heartbeat-kit-<basename>-<hash>`. The basename is cut to
 * lowercase letters, digits and dashes (valid in every unit name and launchd label, no escaping
 * needed); the hash of the full path tells two checkouts with the same basename apart.
 */
export function serviceName(project: string): string {
  const slug =
    basename(project)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40)
      .replace(/-+$/, '') || 'project';
  const hash = createHash('sha256').update(project).digest('hex').slice(0, 8);
  return `heartbeat-kit-${slug}-${hash}`;
}

/** The first line of every file `service install` writes; a file without it is not ours to replace or remove. */
export const MARKER = 'Written by heartbeat-kit service install; edits are replaced by the next install.';

/**
 * The liveness check's arguments: the same project, and the same `--state` and `--config` as the
 * loop's (else it would judge another state file's receipts), then `--max-age` when given.
 */
export function livenessArgs(plan: ServicePlan): string[] {
  const shared: string[] = [];
  plan.loopArgs.forEach((arg, i) => {
    for (const flag of ['--state', '--config']) {
      if (arg === flag && plan.loopArgs[i + 1] !== undefined) shared.push(flag, plan.loopArgs[i + 1] as string);
      else if (arg.startsWith(`${flag}=`)) shared.push(arg);
    }
  });
  return ['check-liveness', '--cwd', plan.project, ...shared, ...(plan.maxAge === undefined ? [] : ['--max-age', plan.maxAge])];
}
