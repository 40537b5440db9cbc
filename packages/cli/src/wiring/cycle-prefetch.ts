import { realpathSync, statSync } from 'node:fs';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { CommandError, CommandOutput, CommandRequest } from '@heartbeat-kit/core';
import { createProcessRunner } from '@heartbeat-kit/core/node';
import type { ResultAsync } from 'neverthrow';
import type { CliIo } from '../io.js';
import {
  fileSignature,
  formatPrefetchPlan,
  parsePrefetchPlan,
  plannedRequest,
  prefetchKey,
  prefetchPlanName,
  sameEnvAllow,
  sameRequest,
  type PlannedRequest,
} from './prefetch-plan.js';
import { revParseRequest } from './rev-parse-request.js';

/**
 * Commands a one-shot `cycle` starts before its scanners ask for them, and what this cycle asked
 * for (the next cycle's plan). Node takes ≈ 200 ms to load the command on one core while the other
 * waits: `git rev-parse` and the listings the last cycle's scanners asked for first (bd ready,
 * bd list, tmux list-sessions, git worktree list; `CommandRequest.speculative`) run meanwhile.
 * A run is handed to one request equal to it in every field, under the same environment policy,
 * so a scanner gets exactly the output it would have got; runs nobody claims are killed.
 */
export interface CyclePrefetch {
  /** The run started for exactly `request` under this environment policy, handed over once; else undefined. */
  readonly claim: (
    request: CommandRequest,
    envAllow: readonly string[] | undefined,
    signal?: AbortSignal,
  ) => ResultAsync<CommandOutput, CommandError> | undefined;
  /** Resolves once the plan was read: how many of its commands were started (0: none, or no plan). */
  readonly planned: Promise<number>;
  /** Notes a speculative request the cycle ran, for the next cycle's plan. */
  readonly record: (request: CommandRequest, envAllow: readonly string[] | undefined) => void;
  /** How many runs were started early so far, and how many of them a request took. */
  readonly stats: () => PrefetchStats;
  /** Kills the runs nobody claimed; the final {@link PrefetchStats}. */
  readonly discard: () => PrefetchStats;
  /**
   * Leaves the next cycle its plan: what this cycle recorded, valid until `validUntilMs` (the
   * cycle says when its active hours and closed breakers make a prefetch safe), or an empty plan.
   * A cache: a plan that cannot be written is not an error.
   */
  readonly savePlan: (facts: { readonly configFile: string; readonly validUntilMs: number | undefined }) => Promise<void>;
}

/** What a cycle's prefetch did: runs started before the cycle asked, and how many it took (`cycle --json`: `prefetch`). */
export interface PrefetchStats {
  readonly started: number;
  readonly claimed: number;
}

interface Run {
  readonly planned: PlannedRequest;
  readonly envAllow: readonly string[] | undefined;
  readonly controller: AbortController;
  readonly result: ResultAsync<CommandOutput, CommandError>;
  claimed: boolean;
}

/** The options of `cycle` the prefetch needs; anything else it does not understand turns it off. */
const OPTIONS = {
  cwd: { type: 'string' },
  config: { type: 'string' },
  state: { type: 'string' },
  'tmux-socket': { type: 'string' },
  'env-allow': { type: 'string' },
  now: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** What {@link startCyclePrefetch} needs of the CLI's outside world. */
export type PrefetchIo = Pick<CliIo, 'cwd' | 'env' | 'shutdownSignal'>;

/**
 * Starts the prefetch of a `cycle` invocation (its arguments after `cycle`): at once `git rev-parse`
 * (the request the project lookup makes), then, from the plan the last cycle with the same
 * directory and flags left in the repository's heartbeat directory, its listings — unless the plan
 * is from another version, the config file changed since, or the plan's active hours are over.
 * With `--env-allow`, `--help` or arguments it cannot read, nothing is started.
 */
export function startCyclePrefetch(argv: readonly string[], io: PrefetchIo, kit: string): CyclePrefetch {
  const runs: Run[] = [];
  const recorded: { request: PlannedRequest; envAllow: readonly string[] | undefined }[] = [];
  let planPath: string | undefined;
  let planText: string | undefined;
  let key: string | undefined;
  let discarded = false;
  let planned: Promise<number> = Promise.resolve(0);

  const start = (planned: PlannedRequest, envAllow: readonly string[] | undefined): Run => {
    const controller = new AbortController();
    const runner = createProcessRunner({ baseEnv: io.env, shutdownSignal: io.shutdownSignal, envAllow });
    const run: Run = { planned, envAllow, controller, result: runner.run(planned, controller.signal), claimed: false };
    runs.push(run);
    return run;
  };

  const values = readFlags(argv);
  let real: string | undefined;
  if (values !== undefined) {
    try {
      real = realpathSync(resolve(io.cwd, values.cwd ?? '.'));
    } catch {
      real = undefined;
    }
  }
  if (values !== undefined && real !== undefined) {
    const cwd = real;
    key = prefetchKey({ cwd, config: values.config, state: values.state, tmuxSocket: values.tmuxSocket });
    const nowMs = values.now === undefined ? Date.now() : Date.parse(values.now);
    const probe = start(revParseRequest(cwd), undefined);
    const planKey = key;
    planned = (async () => {
      const out = await probe.result;
      if (out.isErr() || out.value.exitCode !== 0) return 0;
      const common = out.value.stdout.split('\n')[1];
      if (common === undefined || common === '') return 0;
      planPath = join(resolve(cwd, common), 'heartbeat-kit', prefetchPlanName(planKey));
      planText = await readFile(planPath, 'utf8').catch(() => undefined);
      const plan = planText === undefined ? undefined : parsePrefetchPlan(planText);
      if (plan === undefined || plan.kit !== kit || plan.key !== planKey || !(nowMs < plan.validUntilMs) || discarded) return 0;
      const config = await stat(plan.config.path).catch(() => undefined);
      if (fileSignature(config) !== plan.config.signature || discarded) return 0;
      for (const request of plan.requests) start(request, plan.envAllow ?? undefined);
      return plan.requests.length;
    })().catch(() => 0);
  }

  const stats = (): PrefetchStats => ({ started: runs.length, claimed: runs.filter((r) => r.claimed).length });
  return {
    planned,
    claim: (request, envAllow, signal) => {
      const run = runs.find((r) => !r.claimed && sameEnvAllow(r.envAllow, envAllow) && sameRequest(r.planned, request));
      if (run === undefined) return undefined;
      run.claimed = true;
      if (signal !== undefined) {
        if (signal.aborted) run.controller.abort(signal.reason);
        else signal.addEventListener('abort', () => run.controller.abort(signal.reason), { once: true });
      }
      return run.result;
    },
    record: (request, envAllow) => {
      const planned = request.speculative === true ? plannedRequest(request) : undefined;
      if (planned !== undefined) recorded.push({ request: planned, envAllow });
    },
    stats,
    discard: () => {
      discarded = true;
      for (const run of runs) if (!run.claimed) run.controller.abort('not claimed');
      return stats();
    },
    savePlan: async ({ configFile, validUntilMs }) => {
      if (planPath === undefined || key === undefined) return;
      const envAllow = recorded[0]?.envAllow;
      // One policy per plan: the scanners share one runner, so a second policy means another runner.
      const requests = validUntilMs === undefined ? [] : recorded.filter((r) => sameEnvAllow(r.envAllow, envAllow)).map((r) => r.request);
      let signature: string;
      try {
        signature = fileSignature(statSync(configFile));
      } catch {
        signature = fileSignature(undefined);
      }
      const text = formatPrefetchPlan({
        kit,
        key,
        config: { path: configFile, signature },
        validUntilMs: validUntilMs ?? 0,
        envAllow: envAllow ?? null,
        requests,
      });
      if (text === planText) return;
      const temporary = `${planPath}.${process.pid}.tmp`;
      try {
        await mkdir(dirname(planPath), { recursive: true });
        await writeFile(temporary, text, { mode: 0o600 });
        await rename(temporary, planPath);
        planText = text;
      } catch {
        // A cache: without it the next cycle starts its listings when its scanners ask.
      }
    },
  };
}

/** The flags the prefetch reads. */
interface PrefetchFlags {
  readonly cwd: string | undefined;
  readonly config: string | undefined;
  readonly state: string | undefined;
  readonly tmuxSocket: string | undefined;
  readonly now: string | undefined;
}

/** `cycle`'s flags as far as the prefetch needs them; undefined when it should start nothing. */
function readFlags(argv: readonly string[]): PrefetchFlags | undefined {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, strict: false, allowPositionals: true });
  } catch {
    return undefined;
  }
  const { values, positionals } = parsed;
  if (positionals.length > 0 || values.help !== undefined || values['env-allow'] !== undefined) return undefined;
  const text = (name: 'cwd' | 'config' | 'state' | 'tmux-socket' | 'now'): string | undefined | false => {
    const value = values[name];
    return value === undefined ? undefined : typeof value === 'string' ? value : false;
  };
  const flags = { cwd: text('cwd'), config: text('config'), state: text('state'), tmuxSocket: text('tmux-socket'), now: text('now') };
  // A string option given without its value: the command itself will say so; start nothing.
  if (Object.values(flags).some((value) => value === false)) return undefined;
  return flags as PrefetchFlags;
}
