import { renderHelp, type DeclaredCommand } from '../cli-kernel/index.js';
import { unknownNameError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo, Command } from '../io.js';
import { SAMPLE_RUNBOOK_FILE, SAMPLE_STATUS_FILE, type RunbookSubcommand } from './runbook/help.js';
import { initCommand } from './runbook/init.js';
import {
  bootTriageCommand,
  checkCommand,
  dueCommand,
  gateReportCommand,
  pruneCommand,
  quietCommand,
  tickCommand,
} from './runbook/subcommands.js';

// The subcommands are declared on the command kernel (runbook/help.ts holds their pages); this
// file lists them with one line each and dispatches.
const SUBCOMMANDS: Record<RunbookSubcommand, { readonly summary: string; readonly run: DeclaredCommand }> = {
  init: { summary: 'init [DIR] [--dry-run]              write a commented sample runbook and status file', run: initCommand },
  check: { summary: 'check FILE                          would the server store this runbook? line-numbered errors', run: checkCommand },
  due: { summary: 'due FILE                            tracked items due today', run: dueCommand },
  prune: { summary: 'prune FILE [--write]                items to remove: past DELETE dates, fired PR triggers', run: pruneCommand },
  tick: { summary: 'tick --runbook FILE --status FILE   would a checklist task be created now? prints it', run: tickCommand },
  quiet: { summary: 'quiet --runbook FILE --status FILE  the quiet check: one "Quiet. Same as ..." line, or why not', run: quietCommand },
  'boot-triage': {
    summary: 'boot-triage --status FILE           would a boot-triage task be created after a restart?',
    run: bootTriageCommand,
  },
  'gate-report': {
    summary: "gate-report LOG                     how often the gate's quiet calls matched the lead's",
    run: gateReportCommand,
  },
};

function help(): string {
  return [
    'Usage: heartbeat-kit runbook <subcommand> [options]',
    '',
    "The runbook is the lead agent's standing checklist (Markdown). Every 30 minutes the agent server",
    "creates a checklist task from it and the server's status; these subcommands make the same",
    'decisions from files, so you can check a runbook and preview a tick before the server does.',
    '',
    ...Object.values(SUBCOMMANDS).map((s) => `  ${s.summary}`),
    '',
    'Every subcommand takes --json, --now ISO (default: now) and --tz ZONE (default: TZ or the system',
    'zone), and explains its file formats, an example and its exit codes with --help.',
    '',
    'Start here:',
    `  heartbeat-kit runbook init && heartbeat-kit runbook tick --runbook ${SAMPLE_RUNBOOK_FILE} --status ${SAMPLE_STATUS_FILE}`,
    '',
    '--env-allow NAMES (prune, tick): hardened mode for gh and the gate (see docs/environment.md).',
    '',
  ].join('\n');
}

/** `heartbeat-kit runbook …`: check a runbook and preview the server's tick, quiet and boot-triage decisions. */
export const runbookCommand: Command = async (argv: readonly string[], io: CliIo): Promise<number> => {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(help());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const sub = Object.hasOwn(SUBCOMMANDS, name) ? SUBCOMMANDS[name as RunbookSubcommand] : undefined;
  if (sub === undefined) {
    unknownNameError(io, 'runbook', 'subcommand', name, Object.keys(SUBCOMMANDS));
    return EXIT.usage;
  }
  // --help anywhere wins, also beside a flag the parser would refuse (as before the kernel).
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(renderHelp(sub.run.spec));
    return EXIT.ok;
  }
  return sub.run(rest, io);
};
