import { isAbsolute, join, resolve } from 'node:path';
import type { Clock, CommandRunner } from '@heartbeat-kit/core';
import { createFileLockStore, createFileReceiptStore, systemClock } from '@heartbeat-kit/core/node';
import { createCommandDispatcher, loadWoterclipConfig, woterclipLockCodec } from '@heartbeat-kit/woterclip';
import { createGhIssueTracker } from '@heartbeat-kit/woterclip/github';
import { createDirectoryWorkspace, createFileBeatLog, createPathToolProbe } from '@heartbeat-kit/woterclip/node';
import { err, ok, type Result } from 'neverthrow';
import type { CliIo } from '../io.js';
import { createCliRunner } from '../wiring/cli-runner.js';
import { parseInstantFlag } from '../wiring/instant.js';

/** Adapters the command can be given instead of the real ones (tests, embedders). */
export interface WoterclipCommandOverrides {
  readonly runner?: CommandRunner;
  /** The gh executable. */
  readonly gh?: string;
  readonly pid?: number;
}

/** Where WoterClip beats leave their receipts: beside its lock and beat log, apart from the cycle's. */
export function woterclipReceiptsDirectory(repoRoot: string): string {
  return join(repoRoot, '.woterclip', 'receipts');
}

/** The clock a `--now` starts (it runs on from that instant), or the usage error's message. */
export function clockFrom(now: string | undefined): Result<Clock, string> {
  if (now === undefined) return ok(systemClock);
  return parseInstantFlag('--now', now).map((instant): Clock => {
    const start = instant?.getTime() ?? Date.now();
    const real = Date.now();
    return { now: () => new Date(start + (Date.now() - real)) };
  });
}

/** The repository root `--cwd` names (relative to the current directory), or the current directory. */
export function resolveCwd(io: CliIo, cwd: string | undefined): string {
  return cwd === undefined ? io.cwd : isAbsolute(cwd) ? cwd : resolve(io.cwd, cwd);
}

/** Loads `.woterclip/config.yaml` and picks the concrete adapters a beat or `status` runs on. */
export async function wireWoterclip(
  overrides: WoterclipCommandOverrides,
  io: CliIo,
  cwd: string,
  clock: Clock,
  envAllowFlag: readonly string[] | undefined,
) {
  const dir = join(cwd, '.woterclip');
  // Persona files may be symlinks, but only to files inside the repository (issue 12 item 7).
  const files = createDirectoryWorkspace(dir, { boundary: cwd });
  const loaded = await loadWoterclipConfig(files);
  if (loaded.isErr()) return err(loaded.error);
  const { config } = loaded.value;
  const envAllow = envAllowFlag ?? config.environment?.allow;
  const runner = overrides.runner ?? createCliRunner(io, { timeoutMs: 60_000, profile: 'gh', envAllow });
  const tracker = createGhIssueTracker({
    runner,
    repo: config.github.repo,
    cwd,
    ...(overrides.gh === undefined ? {} : { gh: overrides.gh }),
  });
  const dispatchRunner =
    overrides.runner ??
    createCliRunner(io, {
      timeoutMs: (config.dispatch.timeout_sec ?? 6 * 3600) * 1000,
      maxOutputBytes: 16 * 1024 * 1024,
      profile: 'agent',
      envAllow,
    });
  const dispatcher = createCommandDispatcher({
    runner: dispatchRunner,
    command: config.dispatch.command,
    fallbackCommand: config.dispatch.fallback.command,
    fallbackModel: config.dispatch.fallback.model,
    cwd,
    ...(config.dispatch.timeout_sec === undefined ? {} : { timeoutMs: config.dispatch.timeout_sec * 1000 }),
  });
  return ok({
    config,
    loaded: loaded.value,
    tracker,
    deps: {
      tracker,
      dispatcher,
      lock: createFileLockStore({ path: join(dir, '.heartbeat-lock'), codec: woterclipLockCodec, clock }),
      log: createFileBeatLog(join(dir, 'heartbeat-log.jsonl')),
      files,
      tools: createPathToolProbe(io.env.PATH),
      clock,
      pid: overrides.pid ?? process.pid,
      receipts: createFileReceiptStore({ directory: woterclipReceiptsDirectory(cwd), clock }),
      signal: io.shutdownSignal,
    },
  });
}
