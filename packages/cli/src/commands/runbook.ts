import { unknownNameError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo, Command } from '../io.js';
import { RUNBOOK_HELP, SAMPLE_RUNBOOK_FILE, SAMPLE_STATUS_FILE } from './runbook/help.js';
import { initCommand } from './runbook/init.js';
import {
  bootTriageCommand,
  checkCommand,
  dueCommand,
  gateReportCommand,
  guarded,
  pruneCommand,
  quietCommand,
  tickCommand,
} from './runbook/subcommands.js';

const SUBCOMMANDS: Record<string, { readonly usage: string; readonly run: Command }> = {
  init: { usage: 'init [DIR] [--dry-run]              write a commented sample runbook and status file', run: initCommand },
  check: { usage: 'check FILE                          would the server store this runbook? line-numbered errors', run: checkCommand },
  due: { usage: 'due FILE                            tracked items due today', run: dueCommand },
  prune: { usage: 'prune FILE [--write]                items to remove: past DELETE dates, fired PR triggers', run: pruneCommand },
  tick: { usage: 'tick --runbook FILE --status FILE   would a checklist task be created now? prints it', run: tickCommand },
  quiet: { usage: 'quiet --runbook FILE --status FILE  the quiet check: one "Quiet. Same as ..." line, or why not', run: quietCommand },
  'boot-triage': {
    usage: 'boot-triage --status FILE           would a boot-triage task be created after a restart?',
    run: bootTriageCommand,
  },
  'gate-report': {
    usage: "gate-report LOG                     how often the gate's quiet calls matched the lead's",
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
    ...Object.values(SUBCOMMANDS).map((s) => `  ${s.usage}`),
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
  const sub = Object.hasOwn(SUBCOMMANDS, name) ? SUBCOMMANDS[name] : undefined;
  if (sub === undefined) {
    unknownNameError(io, 'runbook', 'subcommand', name, Object.keys(SUBCOMMANDS));
    return EXIT.usage;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(RUNBOOK_HELP[name] ?? `Usage: heartbeat-kit runbook ${sub.usage}\n`);
    return EXIT.ok;
  }
  return guarded(io, name, () => sub.run(rest, io));
};
