import { type CommandRunner, sanitizeForMessage } from '@heartbeat-kit/core';
import { launchdLabel } from './launchd-plist.js';
import type { ServiceKind } from './service-plan.js';

/** One call of systemctl or launchctl: the argv, and what happened. */
export interface ManagerStep {
  readonly argv: readonly string[];
  /** `ran` with its exit code; `skipped` with why (the tool is absent, or --no-enable). */
  readonly outcome:
    { readonly kind: 'ran'; readonly exitCode: number; readonly stderr: string } | { readonly kind: 'skipped'; readonly why: string };
}

const TIMEOUT_MS = 60_000;

function systemctl(kind: ServiceKind): string[] {
  return kind === 'systemd-user' ? ['systemctl', '--user'] : ['systemctl'];
}

/** The units a manager starts: the loop and the liveness timer (the timer starts the liveness service). */
function startedUnits(name: string): string[] {
  return [`${name}.service`, `${name}-liveness.timer`];
}

/** The commands that load and start the service after its files are written. */
export function enableSteps(kind: ServiceKind, name: string, files: readonly string[], uid: number): string[][] {
  if (kind === 'launchd') return files.map((file) => ['launchctl', 'bootstrap', `gui/${uid}`, file]);
  return [
    [...systemctl(kind), 'daemon-reload'],
    [...systemctl(kind), 'enable', '--now', '--', ...startedUnits(name)],
  ];
}

/** The commands that stop and unload the service before its files are removed. */
export function disableSteps(kind: ServiceKind, name: string, uid: number): string[][] {
  if (kind === 'launchd') {
    const label = launchdLabel(name);
    return [label, `${label}.liveness`].map((l) => ['launchctl', 'bootout', `gui/${uid}/${l}`]);
  }
  return [[...systemctl(kind), 'disable', '--now', '--', ...startedUnits(name)]];
}

/** After the files are gone: systemd forgets them. */
export function reloadSteps(kind: ServiceKind): string[][] {
  return kind === 'launchd' ? [] : [[...systemctl(kind), 'daemon-reload']];
}

/** The commands that ask the manager for the service's state (read-only). */
export function statusSteps(kind: ServiceKind, name: string, uid: number): string[][] {
  if (kind === 'launchd') {
    const label = launchdLabel(name);
    return [label, `${label}.liveness`].map((l) => ['launchctl', 'print', `gui/${uid}/${l}`]);
  }
  return [
    [...systemctl(kind), 'is-active', '--', ...startedUnits(name)],
    [...systemctl(kind), 'is-enabled', '--', ...startedUnits(name)],
  ];
}

/**
 * Runs `steps` in order through the process runner. A tool that is not installed skips every
 * step (said, with the commands to run by hand); with `stopOnFailure`, a failed step skips the rest.
 */
export async function runSteps(
  runner: CommandRunner,
  steps: readonly (readonly string[])[],
  options: { readonly skip?: string | undefined; readonly stopOnFailure: boolean },
): Promise<{ steps: ManagerStep[]; stdout: string[] }> {
  const done: ManagerStep[] = [];
  const stdout: string[] = [];
  let skip = options.skip;
  for (const argv of steps) {
    const [file = '', ...args] = argv;
    if (skip !== undefined) {
      done.push({ argv, outcome: { kind: 'skipped', why: skip } });
      continue;
    }
    const ran = await runner.run({ file, args, timeoutMs: TIMEOUT_MS, profile: 'command' });
    if (ran.isErr()) {
      skip = ran.error.kind === 'not-found' ? `${file} not found on PATH` : `${file} failed to run (${ran.error.kind})`;
      done.push({ argv, outcome: { kind: 'skipped', why: skip } });
      continue;
    }
    const stderr = sanitizeForMessage(ran.value.stderr.trim().split('\n').at(-1) ?? '', { maxLength: 300 });
    done.push({ argv, outcome: { kind: 'ran', exitCode: ran.value.exitCode, stderr } });
    stdout.push(ran.value.stdout);
    if (ran.value.exitCode !== 0 && options.stopOnFailure) skip = `an earlier step failed (${file} exited ${ran.value.exitCode})`;
  }
  return { steps: done, stdout };
}

/** One line per step: what ran and how it ended, or what was not done and why. */
export function stepLines(steps: readonly ManagerStep[]): string[] {
  return steps.map((step) => {
    const shown = step.argv.join(' ');
    if (step.outcome.kind === 'skipped') return `not done: ${shown} (${step.outcome.why}; run it yourself)`;
    if (step.outcome.exitCode === 0) return `ran: ${shown}`;
    return `failed: ${shown} exited ${step.outcome.exitCode}${step.outcome.stderr === '' ? '' : `: ${step.outcome.stderr}`}`;
  });
}
