import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import type { CommandRunner } from '@heartbeat-kit/core';
import { fileStatuses, removeUnitFile, writeUnitFile, type FileStatus } from './service-files.js';
import { disableSteps, enableSteps, reloadSteps, runSteps, statusSteps, stepLines, type ManagerStep } from './service-manager.js';
import type { ServiceKind } from './service-plan.js';
import type { ServiceFile } from './systemd-units.js';

/** The actions of `heartbeat-kit service`. */
export type ServiceAction = 'install' | 'status' | 'uninstall';

/** The flags that change what an action does. */
export interface ActionFlags {
  readonly print?: boolean | undefined;
  readonly force?: boolean | undefined;
  readonly 'no-enable'?: boolean | undefined;
  readonly 'no-disable'?: boolean | undefined;
}

/** What every action works on: the planned files, where they go, and how to report. */
export interface Context {
  readonly io: CliIo;
  readonly kind: ServiceKind;
  readonly name: string;
  readonly dir: string;
  readonly files: readonly ServiceFile[];
  /** launchd opens its log files but does not make their directory: install does. */
  readonly logDir: string | undefined;
  readonly json: boolean;
  readonly runner: CommandRunner;
  readonly uid: number;
}

function report(
  c: Context,
  action: ServiceAction,
  fields: { files: readonly unknown[]; steps: readonly ManagerStep[]; [key: string]: unknown },
  lines: readonly string[],
): void {
  if (c.json) c.io.stdout(`${JSON.stringify({ action, kind: c.kind, name: c.name, dir: c.dir, ...fields })}\n`);
  else c.io.stdout(lines.map((l) => `${l}\n`).join(''));
}

function failedStep(steps: readonly ManagerStep[]): boolean {
  return steps.some((s) => s.outcome.kind === 'ran' && s.outcome.exitCode !== 0);
}

async function statusesOrFail(c: Context, verb: string): Promise<FileStatus[] | number> {
  try {
    return await fileStatuses(c.dir, c.files);
  } catch (error) {
    c.io.stderr(`heartbeat-kit service: cannot read ${c.dir} to ${verb}: ${(error as Error).message}. Fix: check its permissions.\n`);
    return EXIT.failure;
  }
}

function refuseForeign(c: Context, statuses: readonly FileStatus[], verb: string): number | undefined {
  const foreign = statuses.filter((s) => s.state === 'foreign');
  if (foreign.length === 0) return undefined;
  c.io.stderr(
    `heartbeat-kit service: not ${verb} ${foreign.map((s) => s.path).join(', ')}: heartbeat-kit did not write ${foreign.length === 1 ? 'it' : 'them'} (no "Written by heartbeat-kit" line); nothing changed. Fix: move ${foreign.length === 1 ? 'it' : 'them'} away, or add --force.\n`,
  );
  return EXIT.rejected;
}

/** Writes the files (never over a foreign one without --force), then enables them. */
export async function install(c: Context, flags: ActionFlags): Promise<number> {
  if (flags.print === true) {
    if (c.json)
      c.io.stdout(
        `${JSON.stringify({ action: 'print', kind: c.kind, name: c.name, dir: c.dir, files: c.files.map((f) => ({ path: join(c.dir, f.name), text: f.text })) })}\n`,
      );
    else c.io.stdout(c.files.map((f) => `==> ${join(c.dir, f.name)} <==\n${f.text}`).join('\n'));
    return EXIT.ok;
  }
  const statuses = await statusesOrFail(c, 'install');
  if (typeof statuses === 'number') return statuses;
  if (flags.force !== true) {
    const refused = refuseForeign(c, statuses, 'replacing');
    if (refused !== undefined) return refused;
  }
  const written: string[] = [];
  for (const file of c.files) {
    const path = join(c.dir, file.name);
    try {
      if (c.logDir !== undefined) await mkdir(c.logDir, { recursive: true });
      await writeUnitFile(path, file.text);
      written.push(path);
    } catch (error) {
      c.io.stderr(
        `heartbeat-kit service: cannot write ${path}: ${(error as Error).message}${written.length > 0 ? ` (written before it: ${written.join(', ')})` : ''}. Fix: check the directory's permissions${c.kind === 'systemd-system' ? ' (system units need root: sudo, or --user)' : ''}.\n`,
      );
      return EXIT.failure;
    }
  }
  const skip = flags['no-enable'] === true ? '--no-enable' : undefined;
  const { steps } = await runSteps(c.runner, enableSteps(c.kind, c.name, written, c.uid), { skip, stopOnFailure: true });
  report(c, 'install', { files: written, steps }, [...written.map((p) => `wrote ${p}`), ...stepLines(steps)]);
  return failedStep(steps) ? EXIT.failure : EXIT.ok;
}

/** Compares the files with the plan and asks the manager: exit 0 only when every file is current. */
export async function status(c: Context): Promise<number> {
  const statuses = await statusesOrFail(c, 'check it');
  if (typeof statuses === 'number') return statuses;
  const installed = statuses.every((s) => s.state === 'current');
  const anyOurs = statuses.some((s) => s.state === 'current' || s.state === 'outdated');
  // Ask the manager only about a service that is (partly) ours: no questions about strangers.
  const { steps, stdout } = anyOurs
    ? await runSteps(c.runner, statusSteps(c.kind, c.name, c.uid), { stopOnFailure: false })
    : { steps: [], stdout: [] };
  const manager = managerState(c.kind, steps, stdout);
  const lines = [
    ...statuses.map(
      (s) =>
        `${s.state.padEnd(9)}${s.path}${s.state === 'outdated' ? ' (runs another node or bin than this heartbeat-kit: run install again)' : s.state === 'foreign' ? ' (not written by heartbeat-kit)' : ''}`,
    ),
    ...manager.lines,
    installed ? `installed: ${c.name}` : `not installed: ${c.name}${anyOurs ? ' (partly, or out of date)' : ''}`,
  ];
  report(c, 'status', { installed, files: statuses, steps, units: manager.units }, lines);
  return installed ? EXIT.ok : EXIT.rejected;
}

function managerState(
  kind: ServiceKind,
  steps: readonly ManagerStep[],
  stdout: readonly string[],
): { lines: string[]; units: Record<string, string> } {
  const skipped = steps.find((s) => s.outcome.kind === 'skipped');
  if (skipped !== undefined && skipped.outcome.kind === 'skipped')
    return { lines: [`not checked: whether it runs (${skipped.outcome.why})`], units: {} };
  const units: Record<string, string> = {};
  if (kind === 'launchd') {
    steps.forEach((s) => {
      const label = (s.argv[2] ?? '').split('/').at(-1) ?? '';
      units[label] = s.outcome.kind === 'ran' && s.outcome.exitCode === 0 ? 'loaded' : 'not loaded';
    });
  } else {
    const names = (steps[0]?.argv ?? []).slice((steps[0]?.argv.indexOf('--') ?? 0) + 1);
    const active = (stdout[0] ?? '').split('\n');
    const enabled = (stdout[1] ?? '').split('\n');
    names.forEach((unit, i) => {
      units[unit] = `${active[i]?.trim() || 'unknown'}, ${enabled[i]?.trim() || 'unknown'}`;
    });
  }
  return { lines: Object.entries(units).map(([unit, state]) => `${unit}: ${state}`), units };
}

/** Disables the service, then removes its files (never a foreign one without --force). */
export async function uninstall(c: Context, flags: ActionFlags): Promise<number> {
  const statuses = await statusesOrFail(c, 'uninstall');
  if (typeof statuses === 'number') return statuses;
  if (flags.force !== true) {
    const refused = refuseForeign(c, statuses, 'removing');
    if (refused !== undefined) return refused;
  }
  const present = statuses.filter((s) => s.state !== 'missing');
  if (present.length === 0) {
    report(c, 'uninstall', { files: [], steps: [] }, [`not installed: ${c.name} (nothing in ${c.dir}); nothing removed`]);
    return EXIT.ok;
  }
  const skip = flags['no-disable'] === true ? '--no-disable' : undefined;
  const stopped = await runSteps(c.runner, disableSteps(c.kind, c.name, c.uid), { skip, stopOnFailure: false });
  const removed: string[] = [];
  for (const { path } of present) {
    try {
      await removeUnitFile(path);
      removed.push(path);
    } catch (error) {
      c.io.stderr(`heartbeat-kit service: cannot remove ${path}: ${(error as Error).message}. Fix: check the directory's permissions.\n`);
      report(c, 'uninstall', { files: removed, steps: stopped.steps }, [
        ...stepLines(stopped.steps),
        ...removed.map((p) => `removed ${p}`),
      ]);
      return EXIT.failure;
    }
  }
  const reloaded = await runSteps(c.runner, reloadSteps(c.kind), { skip, stopOnFailure: false });
  const steps = [...stopped.steps, ...reloaded.steps];
  // `disable --now` of a unit systemd never loaded fails; the files are gone all the same, so only a failed reload counts.
  report(c, 'uninstall', { files: removed, steps }, [
    ...stepLines(stopped.steps),
    ...removed.map((p) => `removed ${p}`),
    ...stepLines(reloaded.steps),
  ]);
  return failedStep(reloaded.steps) ? EXIT.failure : EXIT.ok;
}
