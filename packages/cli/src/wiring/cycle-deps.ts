import { appendFile, mkdir } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { CycleDeps, Sink } from '@heartbeat-kit/core';
import type { CheckSpec } from '@heartbeat-kit/core/host';
import {
  createFileMtimeOperatorActivity,
  createFileOutputSpool,
  createFileReplyInbox,
  createFileStateStore,
  createFileAckStore,
  ackPathFor,
  gchatSpoolPrefixFor,
  inboxPathFor,
  createAgentInboxSink,
  createJsonlFileSink,
  createStdoutSink,
  nodeSleep,
  systemClock,
} from '@heartbeat-kit/core/node';
import { createDefaultScanners } from '@heartbeat-kit/scanners';
import { createNodePipelineFiles, nodeFileExists } from '@heartbeat-kit/scanners/node';
import type { CliIo } from '../io.js';
import { createCheckScanners } from './check-scanners.js';
import { createCliRunner } from './cli-runner.js';
import { createCommandSink } from '../sinks/command-sink.js';
import type { SinkSpec } from '../sinks/sink-spec.js';
import type { RouteSpec } from '../sinks/route-spec.js';
import type { WebhookRedirectPolicy } from '../sinks/webhook-redirect.js';
import { createWebhookSink } from '../sinks/webhook-sink.js';
import { createTmuxSink } from '../sinks/tmux-sink.js';
import { DEFAULT_TMUX_SINK_SETTINGS, type TmuxSinkSettings } from '../sinks/tmux-sink-settings.js';

/** Resolves a user path against the command's working directory. */
export function resolvePath(cwd: string, path: string): string {
  return isAbsolute(path) ? path : resolve(cwd, path);
}

/** Options for wiring the CoBuilder heartbeat's concrete adapters. */
export interface CycleWiring {
  readonly cwd: string;
  readonly statePath: string;
  readonly sink: SinkSpec;
  /** Routes by priority: each its own sink (built like the default one). */
  readonly routes?: readonly RouteSpec[];
  readonly io: CliIo;
  /** A file whose modification time is the operator's last message. */
  readonly operatorActivityFile?: string;
  /** `Authorization` header of a webhook sink (from `--sink-auth-env`). */
  readonly sinkAuthorization?: string;
  /** Redirects a webhook sink follows (`--sink-same-origin-redirects`); default none. */
  readonly sinkFollowRedirects?: WebhookRedirectPolicy;
  /** tmux socket selection, e.g. `['-L', 'work']` (the scanners' and the tmux sink's). */
  readonly tmuxArgs?: readonly string[];
  /** A tmux sink's idle time and prompt (from the environment); default {@link DEFAULT_TMUX_SINK_SETTINGS}. */
  readonly tmuxSink?: TmuxSinkSettings;
  /** Hardened mode: the only variables (besides the essentials) that reach the tools. */
  readonly envAllow?: readonly string[] | undefined;
  /** Paths the git scanner never counts (the heartbeat's own state). */
  readonly ignorePaths?: readonly string[];
  /** Path prefixes of the heartbeat's own files beside the state (see `ownStateFiles`). */
  readonly ignorePrefixes?: readonly string[];
  /** The config file the cycle reads: the git scanner never counts it as a change. */
  readonly configFile?: string;
  /** HEARTBEAT.md `## Checks`: each becomes a scanner after the built-in ones. */
  readonly checks?: readonly CheckSpec[];
}

/** Picks the concrete adapters: the process runner, the seven scanners and the checks, file state, reply inbox and GChat spool, the chosen sink. */
export function createCycleDeps(wiring: CycleWiring): CycleDeps {
  const runner = createCliRunner(wiring.io, { envAllow: wiring.envAllow });
  const sink = createSink(wiring.sink, wiring);
  // Beside the state file, so it follows the state wherever that is kept.
  const inbox = createFileReplyInbox({ path: inboxPathFor(wiring.statePath) });
  // The GChat poll prints straight into a file there: a cycle killed as the poller exits loses nothing.
  const spool = createFileOutputSpool({ directory: dirname(wiring.statePath), prefix: gchatSpoolPrefixFor(wiring.statePath) });
  return {
    clock: wiring.io.clock ?? systemClock,
    sleep: nodeSleep,
    stateStore: createFileStateStore({ path: wiring.statePath }),
    // The operator's acks beside the state (`heartbeat-kit ack`); the cycle only reads them.
    ackStore: createFileAckStore({ path: ackPathFor(wiring.statePath) }),
    sink,
    inbox,
    scanners: createDefaultScanners({
      runner,
      cwd: wiring.cwd,
      fileExists: nodeFileExists,
      pipelineFiles: createNodePipelineFiles(),
      replyInbox: inbox,
      replySpool: spool,
      ...(wiring.tmuxArgs ? { tmuxArgs: wiring.tmuxArgs } : {}),
      ...(wiring.ignorePaths ? { ignorePaths: wiring.ignorePaths } : {}),
      ...(wiring.ignorePrefixes ? { ignorePrefixes: wiring.ignorePrefixes } : {}),
      ...(wiring.configFile ? { configFile: wiring.configFile } : {}),
    }).concat(createCheckScanners(wiring.checks ?? [], { io: wiring.io, cwd: wiring.cwd, envAllow: wiring.envAllow })),
    ...(wiring.operatorActivityFile ? { operatorActivity: createFileMtimeOperatorActivity(wiring.operatorActivityFile) } : {}),
    // Each route its own sink instance: its own retries, and (in the state) its own breaker.
    ...((wiring.routes ?? []).length > 0
      ? { routes: (wiring.routes ?? []).map((route) => ({ priority: route.priority, sink: createSink(route.sink, routeWiring(wiring)) })) }
      : {}),
  };
}

/**
 * A route's webhook is another receiver: `--sink-auth-env`'s header and the redirect policy belong to
 * the `--sink` webhook only, so a credential never travels to a route's host.
 */
function routeWiring(wiring: CycleWiring): CycleWiring {
  const { sinkAuthorization: _auth, sinkFollowRedirects: _redirects, ...rest } = wiring;
  return rest;
}

function createSink(spec: SinkSpec, wiring: CycleWiring): Sink {
  switch (spec.kind) {
    case 'stdout':
      return createStdoutSink(wiring.io.stdout);
    case 'file':
      return createJsonlFileSink({ path: resolvePath(wiring.cwd, spec.path) });
    case 'webhook':
      return createWebhookSink({
        url: spec.url,
        ...(wiring.sinkAuthorization === undefined ? {} : { authorization: wiring.sinkAuthorization }),
        ...(wiring.sinkFollowRedirects === undefined ? {} : { followRedirects: wiring.sinkFollowRedirects }),
      });
    case 'tmux':
      return createTmuxSink({
        runner: createCliRunner(wiring.io, { profile: 'tmux', envAllow: wiring.envAllow }),
        ...(wiring.tmuxArgs ? { tmuxArgs: wiring.tmuxArgs } : {}),
        session: spec.session,
        ...(spec.window === undefined ? {} : { window: spec.window, pane: spec.pane ?? 0 }),
        sleep: nodeSleep,
        ...(wiring.tmuxSink ?? DEFAULT_TMUX_SINK_SETTINGS),
      });
    case 'command':
      return createCommandSink({
        argv: spec.argv,
        runner: createCliRunner(wiring.io, { profile: 'command', envAllow: wiring.envAllow }),
        cwd: wiring.cwd,
      });
    case 'inbox':
      return createAgentInboxSink({ directory: resolvePath(wiring.cwd, spec.directory) });
  }
}

/** Appends one JSON line (cycle records for `heartbeat-kit replay`). */
export async function appendJsonLine(path: string, value: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await appendFile(path, `${JSON.stringify(value)}\n`, 'utf8');
}
