import { describePause, pauseActiveAt } from '@heartbeat-kit/core/host';
import { loadStatus, renderStatus } from '@heartbeat-kit/woterclip';
import { ok } from 'neverthrow';
import { commandFailure, defineCommand, usageFailure, type DeclaredCommand } from '../cli-kernel/index.js';
import { EXIT } from '../exit-codes.js';
import { parseEnvAllowFlag } from '../wiring/cli-runner.js';
import { readWoterclipPause } from './woterclip-pause.js';
import { clockFrom, resolveCwd, wireWoterclip, type WoterclipCommandOverrides } from './woterclip-wiring.js';

const STATUS_FLAGS = {
  cwd: { type: 'string', value: 'DIR', help: 'repository root (default: current directory)' },
  now: { type: 'string', value: 'ISO', help: 'evaluate "Stopped" as at this instant' },
  json: { type: 'boolean', help: 'print one JSON object' },
  'env-allow': { type: 'string', value: 'NAMES', help: 'hardened mode for gh (see woterclip beat --help and docs/environment.md)' },
} as const;

/** `heartbeat-kit woterclip status`: the lock, the queue by persona, blocked issues and the last beats. */
export function createStatusCommand(overrides: WoterclipCommandOverrides): DeclaredCommand<typeof STATUS_FLAGS> {
  return defineCommand(
    {
      name: 'woterclip status',
      usage: '[options]',
      description: `Shows who holds .woterclip/.heartbeat-lock (running, no longer running: the next beat takes it
over at once, or judged by its age), the queue by persona, in-progress issues, blocked issues with
their Clears-when line, and the last beats with their stop reasons ("Stopped" after ~2 h with no
beat and a queue). An operator pause ('woterclip pause') is named first ("Paused: paused until
…: note"; --json: "pause"), beside the quiet hours the config sets.`,
      flags: STATUS_FLAGS,
      exitCodes: [
        [EXIT.ok, 'shown'],
        [EXIT.usage, 'usage or config error'],
        [EXIT.failure, 'GitHub, the beat log or a file cannot be read'],
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
      // The operator's pause is named beside the queue (even when GitHub cannot be read), in force now or not.
      const pause = await readWoterclipPause(root, io, 'woterclip status');
      const pauseLine =
        pause === undefined
          ? ''
          : `${pauseActiveAt(pause, clock.now().getTime()) ? 'Paused' : 'Pause (not in force now)'}: ${describePause(pause)}\n`;
      const loaded = await loadStatus(wired.deps, wired.config);
      if (loaded.isErr()) {
        if (flags.json !== true && pauseLine !== '') io.stdout(pauseLine);
        const e = loaded.error;
        return commandFailure(
          e.kind === 'github'
            ? `GitHub failed (${e.message}); run \`gh auth login\` if you are logged out.`
            : `.woterclip/heartbeat-log.jsonl: ${e.message}`,
        );
      }
      for (const warning of loaded.value.warnings) io.stderr(`heartbeat-kit woterclip status: warning: ${warning}\n`);
      const view = loaded.value.view;
      io.stdout(
        flags.json === true
          ? `${JSON.stringify({ ...view, ...(pause === undefined ? {} : { pause }) })}\n`
          : `${pauseLine}${renderStatus(view)}`,
      );
      return ok(EXIT.ok);
    },
  );
}
