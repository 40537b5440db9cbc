import packageJson from '../package.json' with { type: 'json' };
import { isMissingPackage, unknownNameError, withJsonStderr, type OptionalPackage } from './errors.js';
import { EXIT } from './exit-codes.js';
import type { CliIo, Command } from './io.js';
import { terminalSafeIo } from './terminal-safe-io.js';

/** Subcommands by name. Each lives in `commands/`. */
const COMMANDS: Record<string, { readonly summary: string; readonly load: () => Promise<Command>; readonly optional?: OptionalPackage }> = {
  cycle: {
    summary: 'run one heartbeat cycle and print HEARTBEAT_OK or the report',
    load: async () => (await import('./commands/cycle.js')).cycleCommand,
  },
  loop: { summary: 'run the heartbeat loop until SIGINT/SIGTERM', load: async () => (await import('./commands/loop.js')).loopCommand },
  history: {
    summary: 'list the receipts of the heartbeat slots: ran, or skipped and why',
    load: async () => (await import('./commands/history.js')).historyCommand,
  },
  'check-liveness': {
    summary: 'exit 0 when the heartbeat ran recently, 1 with the reason (for probes)',
    load: async () => (await import('./commands/check-liveness.js')).checkLivenessCommand,
  },
  check: {
    summary: 'run one HEARTBEAT.md check now and show what it would report (run NAME), or list them',
    load: async () => (await import('./commands/check.js')).checkCommand,
  },
  pause: {
    summary: 'pause the heartbeat with a note (--for, --until, --scanner, --except-critical): paused receipts',
    load: async () => (await import('./commands/pause.js')).pauseCommand,
  },
  resume: {
    summary: 'end the pause: the next slot runs',
    load: async () => (await import('./commands/pause.js')).resumeCommand,
  },
  plan: {
    summary: 'show the coming slots and what each will do (runs, critical-only, quiet hours)',
    load: async () => (await import('./commands/plan.js')).planCommand,
  },
  ack: {
    summary: 'acknowledge a finding with a note: not reported while unchanged (--for, --until, --snooze, --list)',
    load: async () => (await import('./commands/ack.js')).ackCommand,
  },
  unack: {
    summary: 'remove an ack: the finding is decided as usual again',
    load: async () => (await import('./commands/ack.js')).unackCommand,
  },
  inbox: {
    summary: "print an agent inbox's waiting messages once (drain, e.g. as a Claude Code hook) or list them",
    load: async () => (await import('./commands/inbox.js')).inboxCommand,
  },
  init: {
    summary: 'write a commented .claude/HEARTBEAT.md with the defaults',
    load: async () => (await import('./commands/init.js')).initCommand,
  },
  replay: {
    summary: 're-run recorded cycles and compare their decisions',
    load: async () => (await import('./commands/replay.js')).replayCommand,
  },
  woterclip: {
    summary: 'work GitHub issues with personas (beat) and show the queue (status)',
    load: async () => (await import('./commands/woterclip.js')).woterclipCommand,
  },
  fleet: {
    summary: 'run many heartbeats on Redis with BullMQ: worker, add, list, remove, status, history (needs @heartbeat-kit/bullmq)',
    load: async () => (await import('./commands/fleet.js')).fleetCommand,
    optional: { name: '@heartbeat-kit/bullmq', why: 'BullMQ and the Redis client' },
  },
  service: {
    summary: 'run the loop as a systemd or launchd service with a liveness timer: install, status, uninstall',
    load: async () => (await import('./commands/service.js')).serviceCommand,
  },
  mcp: {
    summary: 'serve the heartbeat as MCP tools on stdio for agents (--allow-write for ack, pause, cycle; needs @heartbeat-kit/mcp)',
    load: async () => (await import('./commands/mcp.js')).mcpCommand,
    optional: { name: '@heartbeat-kit/mcp', why: 'the Model Context Protocol SDK' },
  },
  runbook: {
    summary: "check a lead agent's runbook and preview its checklist ticks: init, check, due, quiet, tick",
    load: async () => (await import('./commands/runbook.js')).runbookCommand,
  },
};

// Read from package.json (inlined by the bundler) so a changeset version bump cannot drift from --version.
const VERSION = packageJson.version;

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(16)}${c.summary}`);
  return [
    'Usage: heartbeat-kit <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    'Options:',
    '  -h, --help     show this help (also: heartbeat-kit help <command> [subcommand])',
    '  -V, --version  print the version',
    '',
    "Run 'heartbeat-kit help <command>' (or 'heartbeat-kit <command> --help') for a command's options.",
    'With --json, errors, warnings and notes go to stderr as one JSON object per line: { error | warning | info, command, fix? }',
    '(info: a line that needs nothing done, such as a stale lock taken over or a worker running).',
    '',
  ].join('\n');
}

/**
 * Runs the CLI with `argv` (without node and script) and returns the exit code.
 *
 * @example
 * ```ts
 * import { main } from 'heartbeat-kit';
 *
 * // The whole CLI in-process: tests and embedders capture output instead of spawning a process.
 * let out = '';
 * const code = await main(['cycle', '--cwd', '/path/to/project', '--json'], {
 *   stdout: (text) => void (out += text),
 *   stderr: (text) => void process.stderr.write(text),
 *   cwd: process.cwd(),
 *   env: process.env,
 *   shutdownSignal: new AbortController().signal,
 * });
 * console.log(code, JSON.parse(out).status); // 0 'ok' | 'report'
 * ```
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [first, ...rest] = argv;
  // `help <command> [subcommand]` is `<command> [subcommand] --help`: one help text per command,
  // printed by the command that parses those options.
  const asHelp = first === 'help' && rest.length > 0;
  const [given, ...args] = asHelp ? [...rest, '--help'] : argv;
  // `help checks` reads best as a topic: the check contract is the `check` command's help.
  const name = given === 'checks' ? 'check' : given;
  const endOfOptions = argv.indexOf('--');
  const json = (endOfOptions < 0 ? argv : argv.slice(0, endOfOptions)).includes('--json');
  // Every write of every command passes the one terminal filter, under the JSON stderr wrapper so
  // that its JSON lines are escaped, not cut.
  const safe = terminalSafeIo(io, json ? 'json' : 'text');
  const out = json ? withJsonStderr(safe, name ?? '') : safe;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    safe.stdout(usage());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version' || name === '-V' || name === '-v') {
    safe.stdout(`${VERSION}\n`);
    return EXIT.ok;
  }
  const entry = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (entry === undefined) {
    unknownNameError(out, '', 'command', name, Object.keys(COMMANDS));
    return EXIT.usage;
  }
  let command: Command;
  try {
    command = await entry.load();
  } catch (error) {
    // An optional dependency (kept out of a plain install to keep it lean) is loaded on demand.
    if (entry.optional === undefined || !isMissingPackage(error, entry.optional.name)) throw error;
    out.stderr(
      `heartbeat-kit ${name}: needs the optional package ${entry.optional.name} (${entry.optional.why}), which is not installed. Fix: npm install ${entry.optional.name}@${VERSION}\n`,
    );
    return EXIT.usage;
  }
  try {
    return await command(args, out);
  } catch (error) {
    // Commands return typed outcomes; anything thrown is a bug. It must not exit 1, which means
    // "the answer is no" (not alive, rejected), nor vanish into a quiet HEARTBEAT_OK.
    out.stderr(`heartbeat-kit ${name}: internal error (a bug in heartbeat-kit; please report it): ${describeCrash(error)}\n`);
    return EXIT.internal;
  }
}

/** The stack of a thrown error (its message when there is none). */
function describeCrash(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}
