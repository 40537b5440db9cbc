import { runBeat, type BeatResult } from '@heartbeat-kit/woterclip';
import { ok } from 'neverthrow';
import { commandFailure, defineCommand, usageFailure, type DeclaredCommand } from '../cli-kernel/index.js';
import { beatExitCode, EXIT, stopSignalExit, type ExitCode } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { parseEnvAllowFlag } from '../wiring/cli-runner.js';
import { beatPause, pausedBeat } from './woterclip-pause.js';
import { clockFrom, resolveCwd, wireWoterclip, type WoterclipCommandOverrides } from './woterclip-wiring.js';

const ROOT_FLAG = { type: 'string', value: 'DIR', help: 'repository root (default: current directory)' } as const;

/** The flags of `woterclip beat`. */
const BEAT_FLAGS = {
  cwd: ROOT_FLAG,
  'dry-run': {
    type: 'boolean',
    help: 'show what would be picked; change nothing, record no beat line and no\nreceipt, take no lock (a rehearsal: a later real beat sees nothing of it)',
  },
  persona: { type: 'string', value: 'NAME', help: 'only pick issues for this persona' },
  now: { type: 'string', value: 'ISO', help: 'run as if the beat started at this instant (quiet hours, lock age)' },
  json: { type: 'boolean', help: 'print the beat result as one JSON object' },
  'env-allow': {
    type: 'string',
    value: 'NAMES',
    help: `hardened mode: gh and the agent get only PATH, HOME, USER, LANG, TMPDIR,
TMUX_TMPDIR and these comma-separated names (PREFIX* = prefix; replaces
config.yaml environment.allow); see docs/environment.md`,
  },
} as const;

function printBeat(io: CliIo, result: BeatResult, exitCode: ExitCode, json: boolean): void {
  if (json) {
    io.stdout(`${JSON.stringify({ ...result, exitCode })}\n`);
    return;
  }
  for (const warning of result.warnings) io.stderr(`heartbeat-kit woterclip beat: warning: ${warning}\n`);
  const lines = [...result.messages, ...result.suggestions];
  if (lines.length > 0) (exitCode === EXIT.ok ? io.stdout : io.stderr)(`${lines.join('\n')}\n`);
}

/** `heartbeat-kit woterclip beat`: one beat over the repository, on the adapters the overrides leave real. */
export function createBeatCommand(overrides: WoterclipCommandOverrides): DeclaredCommand<typeof BEAT_FLAGS> {
  return defineCommand(
    {
      name: 'woterclip beat',
      usage: '[options]',
      description: 'Runs one WoterClip beat over the repository in --cwd (reads .woterclip/config.yaml).',
      flags: BEAT_FLAGS,
      notes: `Every beat but a dry run leaves exactly one receipt in .woterclip/receipts/ (see 'woterclip history'): 'ran',
'paused' (inside a 'woterclip pause': no lock, no GitHub call, exit 0) or 'skipped' with its reason. A beat killed mid-run leaves its lock, which names the beat's host,
pid and start time: on the same host the next beat takes it over at once (another host's lock,
or one without them, once stale_lock_hours old) and records that slot as 'abandoned'. When the agent dispatch fails the same way
3 beats in a row, the beat prints one DISPATCH_FAILING advisory and later beats work no issue
(receipt 'breaker-open') except every 2nd, 4th, … up to every 8th beat, which tries again; the
first dispatch that works prints one 'dispatch recovered' line. The 3 and the 8 are
dispatch.breaker.after and dispatch.breaker.backoff_cap in .woterclip/config.yaml (after: 0 = off).`,
      exitCodes: [
        [EXIT.ok, 'beat ran or skipped'],
        [EXIT.rejected, 'blocked (run gh auth login)'],
        [EXIT.usage, 'usage or config error'],
        [EXIT.failure, 'lock or file failure'],
        [EXIT.interrupted, 'stopped by Ctrl-C (SIGINT)'],
        [
          EXIT.terminated,
          'stopped by SIGTERM (no beat line written, the lock released; the issue in hand may keep its working label until a later beat cleans it as stale)',
        ],
      ],
    },
    async ({ flags, io }) => {
      const clocked = clockFrom(flags.now);
      if (clocked.isErr()) return usageFailure(clocked.error);
      const clock = clocked.value;
      const envAllow = parseEnvAllowFlag(flags['env-allow']);
      if (envAllow.isErr()) return usageFailure(envAllow.error);
      const root = resolveCwd(io, flags.cwd);
      const wiring = await wireWoterclip(overrides, io, root, clock, envAllow.value);
      if (wiring.isErr()) return commandFailure(wiring.error.message, wiring.error.kind === 'io' ? EXIT.failure : EXIT.usage);
      const wired = wiring.value;
      const dryRun = flags['dry-run'] === true;
      const json = flags.json === true;
      // The operator's pause, beside quiet hours: a whole pause skips before the lock; --except-critical is triage-only.
      const paused = await beatPause(root, clock.now().getTime(), io);
      if (paused.kind === 'skip')
        return ok(await pausedBeat(paused, { io, receipts: wired.deps.receipts, nowMs: clock.now().getTime(), json, dryRun }));
      const result = await runBeat(wired.deps, {
        dryRun,
        // Loaded once: `wireWoterclip` read it to pick the adapters.
        loaded: wired.loaded,
        ...(flags.persona === undefined ? {} : { persona: flags.persona }),
        ...(paused.kind === 'triage-only' ? { triageOnly: paused.line } : {}),
      });
      // Interrupted: 130 after Ctrl-C, 143 after SIGTERM, as for `cycle`.
      const code = result.exit === 'interrupted' ? (stopSignalExit(io.shutdownSignal) ?? EXIT.interrupted) : beatExitCode(result.exit);
      printBeat(io, result, code, json);
      return ok(code);
    },
  );
}
