import { realpathSync, statSync, type Stats } from 'node:fs';
import { stat, unlink } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { CommandError, CommandOutput, CommandRequest } from '@heartbeat-kit/core';
import { createProcessRunner } from '@heartbeat-kit/core/node';
import type { ResultAsync } from 'neverthrow';
import type { CliIo } from '../io.js';
import { CYCLE_OPTIONS } from './cycle-options.js';
import {
  fileSignature,
  formatPrefetchPlan,
  isEnvAllowList,
  parsePrefetchPlan,
  prefetchKey,
  prefetchPlanName,
  sameEnvAllow,
} from './prefetch-plan.js';
import { readPlanFile, writePlanFile, type PlanFileRead } from './prefetch-plan-file.js';
import { prefetchIdOf, prefetchRequest, sameRequest, type PrefetchContext, type PrefetchId } from './prefetch-requests.js';
import { findProjectRoot, PROJECT_CONFIG_FILE } from './project-root.js';
import { revParseRequest } from './rev-parse-request.js';
import type { CyclePrefetch, PrefetchStats } from './cycle-prefetch-types.js';

export type { CyclePrefetch, PrefetchStats } from './cycle-prefetch-types.js';

interface Run {
  readonly request: CommandRequest;
  readonly envAllow: readonly string[] | undefined;
  readonly controller: AbortController;
  readonly result: ResultAsync<CommandOutput, CommandError>;
  claimed: boolean;
}

/** Where this invocation's plan is, and what its requests are built from. */
interface Place {
  readonly ctx: PrefetchContext;
  readonly planPath: string;
  /** The config file the command will read (HEARTBEAT.md of the project, or --config). */
  readonly configFile: string;
  readonly key: string;
  readonly euid: number;
  /** The plan's text as read or last written (an unchanged plan is not rewritten). */
  planText: string | undefined;
  /** The file or its directory failed the owner checks: never written to either. */
  refused: boolean;
}

/** The directory of the heartbeat's own files in the repository's common git directory. */
const STATE_DIR_NAME = 'heartbeat-kit';

/** What {@link startCyclePrefetch} needs of the CLI's outside world. */
export type PrefetchIo = Pick<CliIo, 'cwd' | 'env' | 'shutdownSignal'>;

/**
 * Starts the prefetch of a `cycle` invocation (its arguments after `cycle`): at once `git rev-parse`
 * (the request the project lookup makes), then, from the plan the last cycle with the same
 * directory and flags left in `heartbeat-kit/prefetch-<uid>/` of the repository's common git
 * directory, the listings it names — unless the plan is from another version, the config file
 * changed since, or the plan's active hours are over. A plan that fails the owner checks or is
 * not exactly a plan starts nothing and leaves a warning. With `--env-allow`, `--help` or
 * arguments the command itself would refuse, nothing is started.
 */
export function startCyclePrefetch(argv: readonly string[], io: PrefetchIo, kit: string): CyclePrefetch {
  const p: Prefetch = { io, kit, runs: [], recorded: [], warnings: [], place: undefined, discarded: false };
  const planned = startPlanned(p, argv);
  const stats = (): PrefetchStats => ({ started: p.runs.length, claimed: p.runs.filter((r) => r.claimed).length });
  return {
    planned,
    warnings: () => [...p.warnings],
    claim: (request, envAllow, signal) => claim(p, request, envAllow, signal),
    record: (request, envAllow) => {
      // Kept as asked; which listing it is (if any) is decided when the plan is saved.
      if (request.speculative === true && p.recorded.length < 64)
        p.recorded.push({ request: { ...request, args: [...request.args] }, envAllow });
    },
    stats,
    discard: () => {
      p.discarded = true;
      for (const run of p.runs) if (!run.claimed) run.controller.abort('not claimed');
      return stats();
    },
    savePlan: async (facts) => {
      await planned;
      await savePlan(p, facts);
    },
  };
}

/** One speculative request the cycle ran, kept for the next cycle's plan. */
interface Recorded {
  readonly request: CommandRequest;
  readonly envAllow: readonly string[] | undefined;
}

/** What one invocation's prefetch keeps: its runs, what the cycle asked for, and where its plan is. */
interface Prefetch {
  readonly io: PrefetchIo;
  readonly kit: string;
  readonly runs: Run[];
  readonly recorded: Recorded[];
  readonly warnings: string[];
  place: Place | undefined;
  discarded: boolean;
}

function startRun(p: Prefetch, request: CommandRequest, envAllow: readonly string[] | undefined): Run {
  const controller = new AbortController();
  const runner = createProcessRunner({ baseEnv: p.io.env, shutdownSignal: p.io.shutdownSignal, envAllow });
  const run: Run = { request, envAllow, controller, result: runner.run(request, controller.signal), claimed: false };
  p.runs.push(run);
  return run;
}

/** Starts `git rev-parse` at once, then the listings of the plan it leads to; resolves to how many listings started. */
function startPlanned(p: Prefetch, argv: readonly string[]): Promise<number> {
  const flags = readFlags(argv);
  if (flags === undefined) return Promise.resolve(0);
  let cwd: string;
  try {
    cwd = realpathSync(resolve(p.io.cwd, flags.cwd ?? '.'));
  } catch {
    return Promise.resolve(0);
  }
  // Without an effective uid (Windows) the owner of a plan cannot be checked: no plan is read or written.
  const euid = process.geteuid?.();
  const key = prefetchKey({ cwd, config: flags.config, state: flags.state, tmuxSocket: flags.tmuxSocket });
  const nowMs = flags.now === undefined ? Date.now() : Date.parse(flags.now);
  const probe = startRun(p, revParseRequest(cwd), undefined);
  return (async () => {
    const out = await probe.result;
    if (out.isErr() || out.value.exitCode !== 0 || euid === undefined) return 0;
    const [top = '', common = ''] = out.value.stdout.split('\n');
    if (top === '' || common === '') return 0;
    const located = await locatePlan({ cwd, top, common, flags, key, euid });
    p.place = located.here;
    return startFromPlan(p, located, nowMs);
  })().catch(() => 0);
}

/** The plan file as read, beside the place it belongs to and the config file's state now. */
interface Located {
  readonly here: Place;
  readonly read: PlanFileRead;
  readonly config: Stats | undefined;
}

async function locatePlan(at: {
  readonly cwd: string;
  readonly top: string;
  readonly common: string;
  readonly flags: PrefetchFlags;
  readonly key: string;
  readonly euid: number;
}): Promise<Located> {
  const { cwd, flags, key, euid } = at;
  const commonDir = resolve(cwd, at.common);
  const planPath = join(commonDir, STATE_DIR_NAME, `prefetch-${euid}`, prefetchPlanName(key));
  // The project and config exactly as the project lookup finds them (project-location.ts), and
  // the plan, side by side: each step waits for a turn of a loop that is busy loading the command.
  const [found, read] = await Promise.all([
    findProjectRoot(cwd, resolve(cwd, at.top), commonDir).then(async ({ project }) => {
      const configFile = flags.config === undefined ? join(project, PROJECT_CONFIG_FILE) : resolve(cwd, flags.config);
      return { project, configFile, config: await stat(configFile).catch(() => undefined) };
    }),
    readPlanFile(planPath, euid),
  ]);
  const here: Place = {
    ctx: { project: found.project, tmuxSocket: flags.tmuxSocket },
    planPath,
    configFile: found.configFile,
    key,
    euid,
    planText: undefined,
    refused: false,
  };
  return { here, read, config: found.config };
}

/** Starts the listings a usable plan names; a plan that is not one leaves a warning and starts nothing. */
function startFromPlan(p: Prefetch, { here, read, config }: Located, nowMs: number): number {
  if (read.kind === 'absent') return 0;
  if (read.kind === 'refused') {
    here.refused = true;
    p.warnings.push(ignored(here.planPath, read.reason, read.fix));
    return 0;
  }
  here.planText = read.text;
  const verdict = parsePrefetchPlan(read.text);
  if (verdict.isErr()) {
    p.warnings.push(
      ignored(
        here.planPath,
        verdict.error,
        `nothing to do if you edited it (a cache: the next cycle replaces it); if not, check who can write to ${dirname(here.planPath)}`,
      ),
    );
    return 0;
  }
  const plan = verdict.value;
  if (plan.kit !== p.kit || plan.key !== here.key || !(nowMs < plan.validUntilMs) || fileSignature(config) !== plan.config || p.discarded)
    return 0;
  let started = 0;
  for (const id of plan.ids) {
    const request = prefetchRequest(id, here.ctx);
    if (request === undefined) continue;
    startRun(p, request, plan.envAllow ?? undefined);
    started += 1;
  }
  return started;
}

function claim(
  p: Prefetch,
  request: CommandRequest,
  envAllow: readonly string[] | undefined,
  signal: AbortSignal | undefined,
): ResultAsync<CommandOutput, CommandError> | undefined {
  const run = p.runs.find((r) => !r.claimed && sameEnvAllow(r.envAllow, envAllow) && sameRequest(r.request, request));
  if (run === undefined) return undefined;
  run.claimed = true;
  if (signal !== undefined) {
    if (signal.aborted) run.controller.abort(signal.reason);
    else signal.addEventListener('abort', () => run.controller.abort(signal.reason), { once: true });
  }
  return run.result;
}

async function savePlan(p: Prefetch, { configFile, validUntilMs }: Parameters<CyclePrefetch['savePlan']>[0]): Promise<void> {
  const here = p.place;
  if (here === undefined || here.refused) return;
  const envAllow = p.recorded[0]?.envAllow;
  const ids: PrefetchId[] = [];
  // The config the command read must be the one the next bin will look at, or the plan could
  // outlive an edit of the real one; one policy per plan (the scanners share one runner).
  if (validUntilMs !== undefined && configFile === here.configFile && (envAllow === undefined || isEnvAllowList(envAllow))) {
    for (const r of p.recorded) {
      if (!sameEnvAllow(r.envAllow, envAllow)) continue;
      const id = prefetchIdOf(r.request, here.ctx);
      if (id !== undefined && !ids.includes(id)) ids.push(id);
    }
  }
  let signature: string;
  try {
    signature = fileSignature(statSync(here.configFile));
  } catch {
    signature = fileSignature(undefined);
  }
  const text = formatPrefetchPlan({
    kit: p.kit,
    key: here.key,
    config: signature,
    validUntilMs: ids.length === 0 ? 0 : (validUntilMs ?? 0),
    envAllow: ids.length === 0 ? null : (envAllow ?? null),
    ids,
  });
  if (text === here.planText) return;
  if (await writePlanFile(here.planPath, text, here.euid)) here.planText = text;
  // Versions before 2 kept a plan of whole command lines beside the state: never read again.
  await unlink(join(dirname(dirname(here.planPath)), prefetchPlanName(here.key))).catch(() => undefined);
}

/** The warning for a plan that was not used: which file, why, and what to do. */
function ignored(path: string, reason: string, fix: string): string {
  return printable(`prefetch plan ${path} ignored, nothing in it ran: ${reason}. Fix: ${fix}.`);
}

/** Control characters (a directory name may hold any) shown as `?`, so a warning cannot drive the terminal. */
function printable(text: string): string {
  // eslint-disable-next-line no-control-regex -- the point is to find them
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
}

/** The flags the prefetch reads. */
interface PrefetchFlags {
  readonly cwd: string | undefined;
  readonly config: string | undefined;
  readonly state: string | undefined;
  readonly tmuxSocket: string | undefined;
  readonly now: string | undefined;
}

/**
 * `cycle`'s flags, read with the command's own option table (so every option that takes a value
 * takes it here too: `--sink file:X` is one option, not a flag and a stray argument); undefined
 * when it should start nothing: arguments the command refuses, `--help`, or `--env-allow` (its
 * policy would have to be parsed as the command parses it).
 */
function readFlags(argv: readonly string[]): PrefetchFlags | undefined {
  let values;
  try {
    ({ values } = parseArgs({ args: [...argv], options: CYCLE_OPTIONS, strict: true, allowPositionals: false }));
  } catch {
    return undefined;
  }
  if (values.help === true || values['env-allow'] !== undefined) return undefined;
  return { cwd: values.cwd, config: values.config, state: values.state, tmuxSocket: values['tmux-socket'], now: values.now };
}
