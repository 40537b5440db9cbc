import { err, ok, type Result } from 'neverthrow';
import { parseRouteFlag } from '../sinks/route-spec.js';
import { parseSinkSpec, type SinkSpec } from '../sinks/sink-spec.js';
import { parseEnvAllowFlag } from './cli-runner.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The delivery and environment flags `cycle` and `loop` share: checked before anything is read. */
export interface HeartbeatFlagValues {
  readonly sink?: string | undefined;
  readonly route?: readonly string[] | undefined;
  readonly 'sink-auth-env'?: string | undefined;
  readonly 'sink-same-origin-redirects'?: boolean | undefined;
  readonly 'tmux-socket'?: string | undefined;
  readonly 'env-allow'?: string | undefined;
}

/** {@link HeartbeatFlagValues}, checked: what the wiring takes from them. */
export interface HeartbeatFlags {
  /** `--sink`, parsed; undefined = the config's default sink (else stdout). */
  readonly sinkFlag: SinkSpec | undefined;
  /** The webhook's `Authorization` header, read from the variable `--sink-auth-env` names. */
  readonly authorization: string | undefined;
  readonly sameOriginRedirects: boolean;
  /** `--tmux-socket`: a socket name (`tmux -L`). */
  readonly socket: string | undefined;
  /** `--env-allow`'s names; undefined = the flag was not given. */
  readonly envAllow: readonly string[] | undefined;
}

// The socket names `--tmux-socket` takes: a name, never a path or an option (prefetch-requests.ts relies on it).
const TMUX_SOCKET_NAME = /^[A-Za-z0-9._-]+$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Checks the shared flags in the order a user reads them; the first mistake comes back as one line that
 * names the fix. The config's own lines are checked once it is loaded.
 */
export function checkHeartbeatFlags(values: HeartbeatFlagValues, env: Env): Result<HeartbeatFlags, string> {
  const sinkFlag = parseSinkFlags(values);
  if (sinkFlag.isErr()) return err(sinkFlag.error);
  // Before routes are resolved the sink these flags apply to is `--sink`'s (stdout when it is not given).
  const sinkKind = sinkFlag.value?.kind ?? 'stdout';
  const authorization = sinkAuthorization(values['sink-auth-env'], sinkKind, env);
  if (authorization.isErr()) return err(authorization.error);
  const sameOriginRedirects = values['sink-same-origin-redirects'] === true;
  if (sameOriginRedirects && sinkKind !== 'webhook')
    return err('--sink-same-origin-redirects only applies to --sink webhook:URL. Fix: drop it or use a webhook sink.');
  const socket = values['tmux-socket'];
  if (socket !== undefined && !TMUX_SOCKET_NAME.test(socket))
    return err(`--tmux-socket "${socket}" is not a socket name. Fix: use letters, digits, '.', '_' or '-'.`);
  const envAllow = parseEnvAllowFlag(values['env-allow']);
  if (envAllow.isErr()) return err(envAllow.error);
  return ok({ sinkFlag: sinkFlag.value, authorization: authorization.value, sameOriginRedirects, socket, envAllow: envAllow.value });
}

/** `--sink` and every `--route`, parsed; the routes themselves are resolved once the config is loaded. */
function parseSinkFlags(values: HeartbeatFlagValues): Result<SinkSpec | undefined, string> {
  const parsedSink = values.sink === undefined ? undefined : parseSinkSpec(values.sink);
  if (parsedSink !== undefined && parsedSink.isErr()) return err(parsedSink.error.message);
  for (const flag of values.route ?? []) {
    const parsed = parseRouteFlag(flag);
    if (parsed.isErr()) return err(parsed.error);
  }
  return ok(parsedSink?.value);
}

/** The header `--sink-auth-env NAME` stands for: only a webhook sends one, and an unset variable is a mistake. */
function sinkAuthorization(authEnv: string | undefined, sinkKind: SinkSpec['kind'], env: Env): Result<string | undefined, string> {
  if (authEnv === undefined) return ok(undefined);
  if (sinkKind !== 'webhook') return err('--sink-auth-env only applies to --sink webhook:URL. Fix: drop it or use a webhook sink.');
  if (!ENV_NAME.test(authEnv))
    return err(`--sink-auth-env "${authEnv}" is not an environment variable name. Fix: e.g. --sink-auth-env HOOK_AUTH.`);
  const authorization = env[authEnv];
  if (authorization === undefined || authorization === '')
    return err(`--sink-auth-env ${authEnv}: the variable is not set. Fix: export ${authEnv}='Bearer …' before running.`);
  return ok(authorization);
}
