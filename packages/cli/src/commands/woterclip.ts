import { isAbsolute, join, resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Clock, CommandRunner } from '@heartbeat-kit/core';
import { describePause, pauseActiveAt } from '@heartbeat-kit/core/host';
import { createFileLockStore, createFileReceiptStore, systemClock } from '@heartbeat-kit/core/node';
import {
  beatReceiptView,
  createCommandDispatcher,
  formatBeatReceipt,
  loadStatus,
  loadWoterclipConfig,
  renderStatus,
  runBeat,
  woterclipLockCodec,
  type BeatResult,
} from '@heartbeat-kit/woterclip';
import { createGhIssueTracker } from '@heartbeat-kit/woterclip/github';
import { createDirectoryWorkspace, createFileBeatLog, createPathToolProbe } from '@heartbeat-kit/woterclip/node';
import { unknownNameError } from '../errors.js';
import { beatExitCode, EXIT, stopSignalExit, type ExitCode } from '../exit-codes.js';
import type { CliIo, Command } from '../io.js';
import { runWoterclipInit, WOTERCLIP_INIT_HELP } from './woterclip-init.js';
import { createCliRunner, parseEnvAllowFlag } from '../wiring/cli-runner.js';
import { parseInstantFlag } from '../wiring/instant.js';
import { parseSince } from './history.js';
import { beatPause, pausedBeat, readWoterclipPause, woterclipPauseCommand, woterclipResumeCommand } from './woterclip-pause.js';

/** Where WoterClip beats leave their receipts: beside its lock and beat log, apart from the cycle's. */
export function woterclipReceiptsDirectory(repoRoot: string): string {
  return join(repoRoot, '.woterclip', 'receipts');
}

/** Help text of `heartbeat-kit woterclip`. */
export const WOTERCLIP_HELP = `Usage: heartbeat-kit woterclip <init|beat|status|history|pause|resume> [options]

WoterClip: work GitHub issues assigned to you, one persona per issue, reporting back with
structured comments and a JSONL beat log (.woterclip/).

Subcommands:
  init      write .woterclip/config.yaml and an Orchestrator persona (--labels: create the labels)
  beat      run one heartbeat: lock, inbox, dispatch, report, label transitions
  status    queue by persona, in-progress and blocked issues, last beats
  history   the receipt of every beat: ran (what it worked, how it stopped) or skipped (why)
  pause     pause the beats with a note (--for, --until, --except-critical): paused receipts
  resume    end the pause: the next beat runs

Run 'heartbeat-kit woterclip <subcommand> --help' for its options.
`;

/** Help text of `heartbeat-kit woterclip beat`. */
export const WOTERCLIP_BEAT_HELP = `Usage: heartbeat-kit woterclip beat [options]

Runs one WoterClip beat over the repository in --cwd (reads .woterclip/config.yaml).

Options:
  --cwd DIR          repository root (default: current directory)
  --dry-run          show what would be picked; change nothing, record no beat line and no
                     receipt, take no lock (a rehearsal: a later real beat sees nothing of it)
  --persona NAME     only pick issues for this persona
  --now ISO          run as if the beat started at this instant (quiet hours, lock age)
  --json             print the beat result as one JSON object
  --env-allow NAMES  hardened mode: gh and the agent get only PATH, HOME, USER, LANG, TMPDIR,
                     TMUX_TMPDIR and these comma-separated names (PREFIX* = prefix; replaces
                     config.yaml environment.allow); see docs/environment.md
  -h, --help         show this help

Every beat but a dry run leaves exactly one receipt in .woterclip/receipts/ (see 'woterclip history'): 'ran',
'paused' (inside a 'woterclip pause': no lock, no GitHub call, exit 0) or 'skipped' with its reason. A beat killed mid-run leaves its lock, which names the beat's host,
pid and start time: on the same host the next beat takes it over at once (another host's lock,
or one without them, once stale_lock_hours old) and records that slot as 'abandoned'. When the agent dispatch fails the same way
3 beats in a row, the beat prints one DISPATCH_FAILING advisory and later beats work no issue
(receipt 'breaker-open') except every 2nd, 4th, … up to every 8th beat, which tries again; the
first dispatch that works prints one 'dispatch recovered' line. The 3 and the 8 are
dispatch.breaker.after and dispatch.breaker.backoff_cap in .woterclip/config.yaml (after: 0 = off).

Exit codes: 0 beat ran or skipped, 1 blocked (run gh auth login), 2 usage or config error,
3 lock or file failure, 130 stopped by Ctrl-C (SIGINT), 143 stopped by SIGTERM (no beat line
written, the lock released; the issue in hand may keep its working label until a later beat
cleans it as stale).
`;

/** Help text of `heartbeat-kit woterclip history`. */
export const WOTERCLIP_HISTORY_HELP = `Usage: heartbeat-kit woterclip history [options]

Lists the receipts of WoterClip beats, oldest first: every beat ends in exactly one record,
'ran' (beat number, issues worked with their status, stop reason, whether the report comments
were posted, the dispatch breaker's advisory or recovery line) or 'skipped' with its reason
(quiet-hours, overlapping: another beat holds the lock, lock-unavailable, config-error, dry-run,
breaker-open, abandoned: a beat that never finished). Kept in .woterclip/receipts/, apart from
the cycle's ('heartbeat-kit history'), bounded to the last 2000 records and 30 days.

Options:
  --cwd DIR          repository root (default: current directory)
  --since WHEN       only receipts at or after WHEN: an ISO instant or a duration back from
                     now such as 24h or 90m
  --now ISO          judge ages as at this instant
  --json             print {"receipts": [...], "warnings": [...]}
  -h, --help         show this help

Exit codes: 0 listed (also when there are none), 2 usage error, 3 the receipts cannot be read.
`;

/** Help text of `heartbeat-kit woterclip status`. */
export const WOTERCLIP_STATUS_HELP = `Usage: heartbeat-kit woterclip status [options]

Shows who holds .woterclip/.heartbeat-lock (running, no longer running: the next beat takes it
over at once, or judged by its age), the queue by persona, in-progress issues, blocked issues with
their Clears-when line, and the last beats with their stop reasons ("Stopped" after ~2 h with no
beat and a queue). An operator pause ('woterclip pause') is named first ("Paused: paused until
…: note"; --json: "pause"), beside the quiet hours the config sets.

Options:
  --cwd DIR          repository root (default: current directory)
  --now ISO          evaluate "Stopped" as at this instant
  --json             print one JSON object
  --env-allow NAMES  hardened mode for gh (see woterclip beat --help and docs/environment.md)
  -h, --help         show this help
`;

/** Adapters the command can be given instead of the real ones (tests, embedders). */
export interface WoterclipCommandOverrides {
  readonly runner?: CommandRunner;
  /** The gh executable. */
  readonly gh?: string;
  readonly pid?: number;
}

function clockFrom(now: string | undefined): Clock | string {
  if (now === undefined) return systemClock;
  const parsed = parseInstantFlag('--now', now);
  if (!parsed.ok) return parsed.message;
  const start = parsed.date?.getTime() ?? Date.now();
  const real = Date.now();
  return { now: () => new Date(start + (Date.now() - real)) };
}

function parse(
  argv: readonly string[],
  io: CliIo,
  options: NonNullable<ParseArgsConfig['options']>,
  help: string,
): Record<string, string | boolean | undefined> | number {
  try {
    const parsed = parseArgs({
      args: [...argv],
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: false,
      strict: true,
    });
    const values = parsed.values as Record<string, string | boolean | undefined>;
    if (values.help === true) {
      io.stdout(help);
      return EXIT.ok;
    }
    return values;
  } catch (error) {
    io.stderr(
      `heartbeat-kit woterclip: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}. Fix: run with --help for the options.\n`,
    );
    return EXIT.usage;
  }
}

function resolveCwd(io: CliIo, cwd: unknown): string {
  return typeof cwd === 'string' ? (isAbsolute(cwd) ? cwd : resolve(io.cwd, cwd)) : io.cwd;
}

/** Builds the `woterclip` command; the CLI picks the concrete adapters here. */
export function createWoterclipCommand(overrides: WoterclipCommandOverrides = {}): Command {
  const wire = async (io: CliIo, cwd: string, clock: Clock, envAllowFlag: readonly string[] | undefined) => {
    const dir = join(cwd, '.woterclip');
    // Persona files may be symlinks, but only to files inside the repository (issue 12 item 7).
    const files = createDirectoryWorkspace(dir, { boundary: cwd });
    const loaded = await loadWoterclipConfig(files);
    if (loaded.isErr()) return loaded.error;
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
    return {
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
    };
  };

  const beat: Command = async (argv, io) => {
    const values = parse(
      argv,
      io,
      {
        cwd: { type: 'string' },
        'dry-run': { type: 'boolean' },
        persona: { type: 'string' },
        now: { type: 'string' },
        json: { type: 'boolean' },
        'env-allow': { type: 'string' },
      },
      WOTERCLIP_BEAT_HELP,
    );
    if (typeof values === 'number') return values;
    const clock = clockFrom(values.now as string | undefined);
    if (typeof clock === 'string') {
      io.stderr(`heartbeat-kit woterclip beat: ${clock}\n`);
      return EXIT.usage;
    }
    const envAllow = parseEnvAllowFlag(values['env-allow'] as string | undefined);
    if (!envAllow.ok) {
      io.stderr(`heartbeat-kit woterclip beat: ${envAllow.message}\n`);
      return EXIT.usage;
    }
    const wired = await wire(io, resolveCwd(io, values.cwd), clock, envAllow.names);
    if ('kind' in wired) {
      io.stderr(`heartbeat-kit woterclip beat: ${wired.message}\n`);
      return wired.kind === 'io' ? EXIT.failure : EXIT.usage;
    }
    // The operator's pause, beside quiet hours: a whole pause skips before the lock; --except-critical is triage-only.
    const paused = await beatPause(resolveCwd(io, values.cwd), clock.now().getTime(), io);
    if (paused.kind === 'skip')
      return pausedBeat(paused, {
        io,
        receipts: wired.deps.receipts,
        nowMs: clock.now().getTime(),
        json: values.json === true,
        dryRun: values['dry-run'] === true,
      });
    const result = await runBeat(wired.deps, {
      dryRun: values['dry-run'] === true,
      // Loaded once: `wire` read it to pick the adapters.
      loaded: wired.loaded,
      ...(typeof values.persona === 'string' ? { persona: values.persona } : {}),
      ...(paused.kind === 'triage-only' ? { triageOnly: paused.line } : {}),
    });
    // Interrupted: 130 after Ctrl-C, 143 after SIGTERM, as for `cycle`.
    const code = result.exit === 'interrupted' ? (stopSignalExit(io.shutdownSignal) ?? EXIT.interrupted) : beatExitCode(result.exit);
    printBeat(io, result, code, values.json === true);
    return code;
  };

  const status: Command = async (argv, io) => {
    const values = parse(
      argv,
      io,
      { cwd: { type: 'string' }, now: { type: 'string' }, json: { type: 'boolean' }, 'env-allow': { type: 'string' } },
      WOTERCLIP_STATUS_HELP,
    );
    if (typeof values === 'number') return values;
    const clock = clockFrom(values.now as string | undefined);
    if (typeof clock === 'string') {
      io.stderr(`heartbeat-kit woterclip status: ${clock}\n`);
      return EXIT.usage;
    }
    const envAllow = parseEnvAllowFlag(values['env-allow'] as string | undefined);
    if (!envAllow.ok) {
      io.stderr(`heartbeat-kit woterclip status: ${envAllow.message}\n`);
      return EXIT.usage;
    }
    const wired = await wire(io, resolveCwd(io, values.cwd), clock, envAllow.names);
    if ('kind' in wired) {
      io.stderr(`heartbeat-kit woterclip status: ${wired.message}\n`);
      return wired.kind === 'io' ? EXIT.failure : EXIT.usage;
    }
    // The operator's pause is named beside the queue (even when GitHub cannot be read), in force now or not.
    const pause = await readWoterclipPause(resolveCwd(io, values.cwd), io, 'woterclip status');
    const pauseLine =
      pause === undefined
        ? ''
        : `${pauseActiveAt(pause, clock.now().getTime()) ? 'Paused' : 'Pause (not in force now)'}: ${describePause(pause)}\n`;
    const loaded = await loadStatus(wired.deps, wired.config);
    if (loaded.isErr()) {
      if (values.json !== true && pauseLine !== '') io.stdout(pauseLine);
      const e = loaded.error;
      io.stderr(
        e.kind === 'github'
          ? `heartbeat-kit woterclip status: GitHub failed (${e.message}); run \`gh auth login\` if you are logged out.\n`
          : `heartbeat-kit woterclip status: .woterclip/heartbeat-log.jsonl: ${e.message}\n`,
      );
      return EXIT.failure;
    }
    for (const warning of loaded.value.warnings) io.stderr(`heartbeat-kit woterclip status: warning: ${warning}\n`);
    const view = loaded.value.view;
    io.stdout(
      values.json === true
        ? `${JSON.stringify({ ...view, ...(pause === undefined ? {} : { pause }) })}\n`
        : `${pauseLine}${renderStatus(view)}`,
    );
    return EXIT.ok;
  };

  return async (argv, io) => {
    const [sub, ...rest] = argv;
    if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
      io.stdout(WOTERCLIP_HELP);
      return sub === undefined ? EXIT.usage : EXIT.ok;
    }
    if (sub === 'init') {
      const values = parse(
        rest,
        io,
        {
          cwd: { type: 'string' },
          repo: { type: 'string' },
          'board-user': { type: 'string' },
          labels: { type: 'boolean' },
          'dry-run': { type: 'boolean' },
          json: { type: 'boolean' },
        },
        WOTERCLIP_INIT_HELP,
      );
      if (typeof values === 'number') return values;
      return runWoterclipInit(
        {
          cwd: resolveCwd(io, values.cwd),
          ...(typeof values.repo === 'string' ? { repo: values.repo } : {}),
          ...(typeof values['board-user'] === 'string' ? { boardUser: values['board-user'] } : {}),
          labels: values.labels === true,
          dryRun: values['dry-run'] === true,
          json: values.json === true,
        },
        io,
        {
          ...(overrides.runner === undefined ? {} : { runner: overrides.runner }),
          ...(overrides.gh === undefined ? {} : { gh: overrides.gh }),
        },
      );
    }
    if (sub === 'beat') return beat(rest, io);
    if (sub === 'status') return status(rest, io);
    if (sub === 'history') return history(rest, io);
    if (sub === 'pause') return woterclipPauseCommand(rest, io);
    if (sub === 'resume') return woterclipResumeCommand(rest, io);
    unknownNameError(io, 'woterclip', 'subcommand', sub, ['init', 'beat', 'status', 'history', 'pause', 'resume']);
    return EXIT.usage;
  };
}

/** `heartbeat-kit woterclip history`: the receipts of the beats. */
const history: Command = async (argv, io) => {
  const values = parse(
    argv,
    io,
    { cwd: { type: 'string' }, since: { type: 'string' }, now: { type: 'string' }, json: { type: 'boolean' } },
    WOTERCLIP_HISTORY_HELP,
  );
  if (typeof values === 'number') return values;
  const now = parseInstantFlag('--now', values.now as string | undefined);
  if (!now.ok) {
    io.stderr(`heartbeat-kit woterclip history: ${now.message}\n`);
    return EXIT.usage;
  }
  const at = now.date ?? new Date();
  let sinceMs = Number.NEGATIVE_INFINITY;
  if (typeof values.since === 'string') {
    const since = parseSince(values.since, at);
    if (since.isErr()) {
      io.stderr(`heartbeat-kit woterclip history: ${since.error}\n`);
      return EXIT.usage;
    }
    sinceMs = since.value;
  }
  const directory = woterclipReceiptsDirectory(resolveCwd(io, values.cwd));
  const listed = await createFileReceiptStore({ directory, clock: { now: () => at } }).list();
  if (listed.isErr()) {
    io.stderr(`heartbeat-kit woterclip history: ${listed.error.message}. Fix: check that ${directory} is readable.\n`);
    return EXIT.failure;
  }
  const receipts = listed.value.receipts.filter((r) => r.source === 'woterclip' && Date.parse(r.slot) >= sinceMs);
  for (const warning of listed.value.warnings) io.stderr(`heartbeat-kit woterclip history: warning: ${warning}\n`);
  if (values.json === true) io.stdout(`${JSON.stringify({ receipts: receipts.map(beatReceiptView), warnings: listed.value.warnings })}\n`);
  else if (receipts.length === 0)
    io.stdout(`no beat receipts${typeof values.since === 'string' ? ` since ${new Date(sinceMs).toISOString()}` : ''} in ${directory}\n`);
  else for (const receipt of receipts) io.stdout(`${formatBeatReceipt(receipt)}\n`);
  return EXIT.ok;
};

function printBeat(io: CliIo, result: BeatResult, exitCode: ExitCode, json: boolean): void {
  if (json) {
    io.stdout(`${JSON.stringify({ ...result, exitCode })}\n`);
    return;
  }
  for (const warning of result.warnings) io.stderr(`heartbeat-kit woterclip beat: warning: ${warning}\n`);
  const lines = [...result.messages, ...result.suggestions];
  if (lines.length > 0) (exitCode === EXIT.ok ? io.stdout : io.stderr)(`${lines.join('\n')}\n`);
}

/** `heartbeat-kit woterclip beat|status`. */
export const woterclipCommand: Command = createWoterclipCommand();
