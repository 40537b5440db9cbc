import type { CycleDeps } from '@heartbeat-kit/core';
import { DEFAULT_HEARTBEAT_FILE } from '@heartbeat-kit/core/host';
import type { CliIo } from '../io.js';
import { parseSinkSpec, type SinkSpec } from '../sinks/sink-spec.js';
import { tmuxSinkSettings } from '../sinks/tmux-sink-settings.js';
import { parseRouteFlag, resolveRoutes, type RouteSpec } from '../sinks/route-spec.js';
import { join } from 'node:path';
import { err, ok, type Result } from 'neverthrow';
import { createCliRunner, parseEnvAllowFlag } from './cli-runner.js';
import { createCycleDeps, resolvePath } from './cycle-deps.js';
import { loadHeartbeatSettings, type LoadedHeartbeatSettings } from './heartbeat-settings.js';
import { ownStateFiles } from './own-state-files.js';
import { fileInStatePath, stateUnderFileMessage } from './state-path-check.js';
import { existingStatePath, locateProject, migrateLegacyState, type ProjectLocation } from './project-location.js';

/** The options `cycle` and `loop` share (their table lives in `cycle-options.ts`, which imports nothing). */
export { HEARTBEAT_OPTIONS } from './cycle-options.js';

/** Parsed values of {@link HEARTBEAT_OPTIONS}. */
export interface HeartbeatOptionValues {
  readonly cwd?: string | undefined;
  readonly config?: string | undefined;
  readonly state?: string | undefined;
  readonly 'operator-activity-file'?: string | undefined;
  readonly sink?: string | undefined;
  readonly route?: readonly string[] | undefined;
  readonly 'sink-auth-env'?: string | undefined;
  readonly 'sink-same-origin-redirects'?: boolean | undefined;
  readonly 'tmux-socket'?: string | undefined;
  readonly 'env-allow'?: string | undefined;
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
  const parsedSink = values.sink === undefined ? undefined : parseSinkSpec(values.sink);
  if (parsedSink !== undefined && parsedSink.isErr()) return err({ message: parsedSink.error.message });
  // Flag mistakes first, before anything is read: the config's own lines are checked once it is loaded.
  for (const flag of values.route ?? []) {
    const parsed = parseRouteFlag(flag);
    if (parsed.isErr()) return err({ message: parsed.error });
  }
  const sink = { sink: parsedSink?.value ?? { kind: 'stdout' } };
  const authEnv = values['sink-auth-env'];
  let authorization: string | undefined;
  if (authEnv !== undefined) {
    if (sink.sink.kind !== 'webhook')
      return err({ message: '--sink-auth-env only applies to --sink webhook:URL. Fix: drop it or use a webhook sink.' });
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(authEnv))
      return err({
        message: `--sink-auth-env "${authEnv}" is not an environment variable name. Fix: e.g. --sink-auth-env HOOK_AUTH.`,
      });
    authorization = io.env[authEnv];
    if (authorization === undefined || authorization === '')
      return err({
        message: `--sink-auth-env ${authEnv}: the variable is not set. Fix: export ${authEnv}='Bearer …' before running.`,
      });
  }
  const sameOriginRedirects = values['sink-same-origin-redirects'] === true;
  if (sameOriginRedirects && sink.sink.kind !== 'webhook')
    return err({ message: '--sink-same-origin-redirects only applies to --sink webhook:URL. Fix: drop it or use a webhook sink.' });
  const socket = values['tmux-socket'];
  if (socket !== undefined && !/^[A-Za-z0-9._-]+$/.test(socket)) {
    return err({ message: `--tmux-socket "${socket}" is not a socket name. Fix: use letters, digits, '.', '_' or '-'.` });
  }
  const envAllowFlag = parseEnvAllowFlag(values['env-allow']);
  if (envAllowFlag.isErr()) return err({ message: envAllowFlag.error });
  const located = await locateProject(resolvePath(io.cwd, values.cwd ?? '.'), {
    runner: createCliRunner(io, { envAllow: envAllowFlag.value }),
    env: io.env,
    flag: values.cwd === undefined ? 'the current directory' : '--cwd',
  });
  if (located.isErr()) return err({ message: located.error });
  const location = located.value;
  const cwd = location.project;
  if (values.state !== undefined) {
    const file = await fileInStatePath(resolvePath(io.cwd, values.state));
    if (file !== undefined) return err({ message: stateUnderFileMessage(values.state, file) });
  }
  // An explicit --config is relative to the directory the user named, as before.
  const reloadSettings = () => loadHeartbeatSettings(values.config === undefined ? cwd : location.cwd, values.config, io.env);
  const settings = await reloadSettings();
  if (settings.isErr()) {
    // Where the receipt of this skipped slot goes; nothing is migrated by a run that did not run.
    const statePath = values.state === undefined ? await existingStatePath(location) : resolvePath(io.cwd, values.state);
    return err({ message: settings.error, configError: true, statePath });
  }
  const routed = resolveRoutes({
    flags: values.route ?? [],
    sinkFlag: parsedSink?.value,
    delivery: settings.value.config.delivery,
    file: settings.value.file,
  });
  if (routed.isErr()) return err({ message: routed.error });
  if (values.sink === undefined) sink.sink = routed.value.defaultSink;
  // A tmux sink's idle time and prompt come from the environment: checked before anything runs.
  const usesTmux = sink.sink.kind === 'tmux' || routed.value.routes.some((route) => route.sink.kind === 'tmux');
  const tmuxSink = usesTmux ? tmuxSinkSettings(io.env) : undefined;
  if (tmuxSink !== undefined && tmuxSink.isErr()) return err({ message: tmuxSink.error });
  const notes = [...location.notes];
  let statePath = values.state === undefined ? join(location.stateDir, 'state.json') : resolvePath(io.cwd, values.state);
  if (values.state === undefined) {
    if (options.dryRun) {
      // A dry run moves nothing: it reads an older version's state where it still is.
      statePath = await existingStatePath(location);
    } else {
      const migrated = await migrateLegacyState(location.legacyStateDirs, statePath);
      statePath = migrated.statePath;
      notes.push(...migrated.notes);
    }
  }
  const activityFile = values['operator-activity-file'] ?? io.env.HEARTBEAT_OPERATOR_ACTIVITY_FILE;
  const own = await ownStateFiles(statePath);
  const deps = createCycleDeps({
    cwd,
    statePath,
    sink: sink.sink,
    routes: routed.value.routes,
    io,
    ...(authorization === undefined ? {} : { sinkAuthorization: authorization }),
    ...(sameOriginRedirects ? { sinkFollowRedirects: 'same-origin' as const } : {}),
    ...(activityFile ? { operatorActivityFile: resolvePath(io.cwd, activityFile) } : {}),
    ...(socket ? { tmuxArgs: ['-L', socket] } : {}),
    ...(tmuxSink === undefined ? {} : { tmuxSink: tmuxSink.value }),
    // The flag replaces the config's list; neither = the user's environment minus the deny-list.
    envAllow: envAllowFlag.value ?? settings.value.config.envAllow,
    ignorePaths: [...own.paths, ...location.legacyStateDirs],
    ignorePrefixes: own.prefixes,
    // Resolved as loadHeartbeatSettings does: the config is the heartbeat's, not the user's work.
    configFile: values.config === undefined ? join(cwd, DEFAULT_HEARTBEAT_FILE) : resolvePath(location.cwd, values.config),
    checks: settings.value.config.checks,
  });
  return ok({
    cwd,
    location,
    notes,
    statePath,
    json: values.json === true,
    sink: sink.sink,
    routes: routed.value.routes,
    settings: settings.value,
    deps,
    reloadSettings,
  });
}
