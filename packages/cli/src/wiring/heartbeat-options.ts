import type { CycleDeps } from '@heartbeat-kit/core';
import { DEFAULT_HEARTBEAT_FILE } from '@heartbeat-kit/core/host';
import type { CliIo } from '../io.js';
import type { SinkSpec } from '../sinks/sink-spec.js';
import { tmuxSinkSettings, type TmuxSinkSettings } from '../sinks/tmux-sink-settings.js';
import { resolveRoutes, type RouteSpec } from '../sinks/route-spec.js';
import { join } from 'node:path';
import { err, ok, type Result } from 'neverthrow';
import { createCliRunner } from './cli-runner.js';
import { createCycleDeps, resolvePath } from './cycle-deps.js';
import { checkHeartbeatFlags, type HeartbeatFlags, type HeartbeatFlagValues } from './heartbeat-flags.js';
import { loadHeartbeatSettings, type LoadedHeartbeatSettings } from './heartbeat-settings.js';
import { ownStateFiles } from './own-state-files.js';
import { fileInStatePath, stateUnderFileMessage } from './state-path-check.js';
import { existingStatePath, locateProject, migrateLegacyState, type ProjectLocation } from './project-location.js';

/** The options `cycle` and `loop` share (their table lives in `cycle-options.ts`, which imports nothing). */
export { HEARTBEAT_OPTIONS } from './cycle-options.js';

/** Parsed values of {@link HEARTBEAT_OPTIONS} (the delivery and environment flags in {@link HeartbeatFlagValues}). */
export interface HeartbeatOptionValues extends HeartbeatFlagValues {
  readonly cwd?: string | undefined;
  readonly config?: string | undefined;
  readonly state?: string | undefined;
  readonly 'operator-activity-file'?: string | undefined;
  readonly json?: boolean | undefined;
}

/** A heartbeat invocation with its settings loaded and its adapters picked. */
export interface ResolvedHeartbeat {
  /** The project root (where `.claude/HEARTBEAT.md` was found, else the worktree root). */
  readonly cwd: string;
  readonly location: ProjectLocation;
  /** Things to tell the user on stderr before the cycle (a state migration, git missing). */
  readonly notes: readonly string[];
  readonly statePath: string;
  readonly json: boolean;
  /** The default sink: every priority class without a route of its own. */
  readonly sink: SinkSpec;
  /** Routes by priority (`--route`, HEARTBEAT.md `## Delivery`); empty = one message to `sink`. */
  readonly routes: readonly RouteSpec[];
  readonly settings: LoadedHeartbeatSettings;
  readonly deps: CycleDeps;
  /** Reloads HEARTBEAT.md (the loop does this before every cycle). */
  readonly reloadSettings: () => ReturnType<typeof loadHeartbeatSettings>;
}

/** Why a heartbeat could not be resolved; a config error also says where its slot's receipt goes. */
export type ResolveHeartbeatError =
  | { readonly message: string; readonly configError?: undefined }
  | { readonly message: string; readonly configError: true; readonly statePath: string };

/**
 * Validates the shared options, loads HEARTBEAT.md and wires the concrete adapters. Errors come
 * back as one line that names the fix.
 */
export async function resolveHeartbeat(
  values: HeartbeatOptionValues,
  io: CliIo,
  options: { readonly dryRun?: boolean } = {},
): Promise<Result<ResolvedHeartbeat, ResolveHeartbeatError>> {
  // Flag mistakes first, before anything is read: the config's own lines are checked once it is loaded.
  const flags = checkHeartbeatFlags(values, io.env);
  if (flags.isErr()) return err({ message: flags.error });
  const located = await locateHeartbeatProject(values, io, flags.value.envAllow);
  if (located.isErr()) return err({ message: located.error });
  const location = located.value;
  const cwd = location.project;
  // An explicit --config is relative to the directory the user named, as before.
  const reloadSettings = () => loadHeartbeatSettings(values.config === undefined ? cwd : location.cwd, values.config, io.env);
  const settings = await reloadSettings();
  if (settings.isErr()) {
    // Where the receipt of this skipped slot goes; nothing is migrated by a run that did not run.
    const statePath = values.state === undefined ? await existingStatePath(location) : resolvePath(io.cwd, values.state);
    return err({ message: settings.error, configError: true, statePath });
  }
  const delivery = resolveDelivery(values.route ?? [], flags.value.sinkFlag, settings.value, io.env);
  if (delivery.isErr()) return err({ message: delivery.error });
  const state = await heartbeatStatePath(values.state, io.cwd, location, options.dryRun === true);
  const wiring = { values, io, location, flags: flags.value, settings: settings.value, delivery: delivery.value };
  return ok({
    cwd,
    location,
    notes: [...location.notes, ...state.notes],
    statePath: state.statePath,
    json: values.json === true,
    sink: delivery.value.sink,
    routes: delivery.value.routes,
    settings: settings.value,
    deps: await wireHeartbeatDeps(wiring, state.statePath),
    reloadSettings,
  });
}

/** Finds the project (`--cwd`) and refuses a `--state` that lies under a file. */
async function locateHeartbeatProject(
  values: HeartbeatOptionValues,
  io: CliIo,
  envAllow: readonly string[] | undefined,
): Promise<Result<ProjectLocation, string>> {
  const located = await locateProject(resolvePath(io.cwd, values.cwd ?? '.'), {
    runner: createCliRunner(io, { envAllow }),
    env: io.env,
    flag: values.cwd === undefined ? 'the current directory' : '--cwd',
  });
  if (located.isErr() || values.state === undefined) return located;
  const file = await fileInStatePath(resolvePath(io.cwd, values.state));
  return file === undefined ? located : err(stateUnderFileMessage(values.state, file));
}

/** Where reports go: the default sink, the routes by priority and, when a tmux sink is among them, its settings. */
interface HeartbeatDelivery {
  readonly sink: SinkSpec;
  readonly routes: readonly RouteSpec[];
  readonly tmuxSink: TmuxSinkSettings | undefined;
}

/** The flags' and HEARTBEAT.md's `## Delivery` sinks together (`--sink` wins the default). */
function resolveDelivery(
  routeFlags: readonly string[],
  sinkFlag: SinkSpec | undefined,
  settings: LoadedHeartbeatSettings,
  env: CliIo['env'],
): Result<HeartbeatDelivery, string> {
  const routed = resolveRoutes({ flags: routeFlags, sinkFlag, delivery: settings.config.delivery, file: settings.file });
  if (routed.isErr()) return err(routed.error);
  const { defaultSink: sink, routes } = routed.value;
  // A tmux sink's idle time and prompt come from the environment: checked before anything runs.
  const usesTmux = sink.kind === 'tmux' || routes.some((route) => route.sink.kind === 'tmux');
  if (!usesTmux) return ok({ sink, routes, tmuxSink: undefined });
  const tmuxSink = tmuxSinkSettings(env);
  if (tmuxSink.isErr()) return err(tmuxSink.error);
  return ok({ sink, routes, tmuxSink: tmuxSink.value });
}

/** The state file: `--state`, else the state directory's, where an older version's state is moved first. */
async function heartbeatStatePath(
  stateFlag: string | undefined,
  ioCwd: string,
  location: ProjectLocation,
  dryRun: boolean,
): Promise<{ readonly statePath: string; readonly notes: readonly string[] }> {
  if (stateFlag !== undefined) return { statePath: resolvePath(ioCwd, stateFlag), notes: [] };
  // A dry run moves nothing: it reads an older version's state where it still is.
  if (dryRun) return { statePath: await existingStatePath(location), notes: [] };
  return migrateLegacyState(location.legacyStateDirs, join(location.stateDir, 'state.json'));
}

/** The concrete adapters of one heartbeat, from its checked flags, settings and delivery. */
async function wireHeartbeatDeps(
  wiring: {
    readonly values: HeartbeatOptionValues;
    readonly io: CliIo;
    readonly location: ProjectLocation;
    readonly flags: HeartbeatFlags;
    readonly settings: LoadedHeartbeatSettings;
    readonly delivery: HeartbeatDelivery;
  },
  statePath: string,
): Promise<CycleDeps> {
  const { values, io, location, flags, settings, delivery } = wiring;
  const cwd = location.project;
  const activityFile = values['operator-activity-file'] ?? io.env.HEARTBEAT_OPERATOR_ACTIVITY_FILE;
  const own = await ownStateFiles(statePath);
  return createCycleDeps({
    cwd,
    statePath,
    sink: delivery.sink,
    routes: delivery.routes,
    io,
    ...(flags.authorization === undefined ? {} : { sinkAuthorization: flags.authorization }),
    ...(flags.sameOriginRedirects ? { sinkFollowRedirects: 'same-origin' as const } : {}),
    ...(activityFile ? { operatorActivityFile: resolvePath(io.cwd, activityFile) } : {}),
    ...(flags.socket ? { tmuxArgs: ['-L', flags.socket] } : {}),
    ...(delivery.tmuxSink === undefined ? {} : { tmuxSink: delivery.tmuxSink }),
    // The flag replaces the config's list; neither = the user's environment minus the deny-list.
    envAllow: flags.envAllow ?? settings.config.envAllow,
    ignorePaths: [...own.paths, ...location.legacyStateDirs],
    ignorePrefixes: own.prefixes,
    // Resolved as loadHeartbeatSettings does: the config is the heartbeat's, not the user's work.
    configFile: values.config === undefined ? join(cwd, DEFAULT_HEARTBEAT_FILE) : resolvePath(location.cwd, values.config),
    checks: settings.config.checks,
  });
}
