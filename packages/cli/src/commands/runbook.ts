import { unknownNameError } from '../errors.js';
import { EXIT, type CliIo, type Command } from '../io.js';
import { bootTriageCommand, checkCommand, dueCommand, gateReportCommand, guarded, pruneCommand, tickCommand } from './runbook/subcommands.js';

const SUBCOMMANDS: Record<string, { readonly usage: string; readonly run: Command }> = {
  check: { usage: 'check FILE                 tracked-item date check; exit 1 when the server would refuse the file', run: checkCommand },
  due: { usage: 'due FILE                   tracked items due today (bare MM-DD today, DELETE MM-DD past)', run: dueCommand },
  prune: { usage: 'prune FILE [--write] [--offline] [--repo o/r] [--env-allow NAMES]   prune plan; --write rewrites the file atomically', run: pruneCommand },
  tick: { usage: 'tick --runbook FILE --status FILE [--gate NAME|PATH] [--dry-run] [--env-allow NAMES]   checklist tick decision', run: tickCommand },
  'boot-triage': { usage: 'boot-triage --status FILE [--runbook FILE]   boot triage decision (T+90 s)', run: bootTriageCommand },
  'gate-report': { usage: 'gate-report LOG [--threshold 0.95] [--min-samples 20]   shadow gate agreement', run: gateReportCommand },
};

function help(): string {
  return [
    'Usage: heartbeat-kit runbook <subcommand> [options]',
    '',
    ...Object.values(SUBCOMMANDS).map((s) => `  ${s.usage}`),
    '',
    'Every subcommand takes --json, --now ISO (default: now) and --tz ZONE (default: TZ or the system zone).',
    '--env-allow NAMES: hardened mode for gh and the gate (see docs/environment.md).',
    '',
  ].join('\n');
}

/** `heartbeat-kit runbook …`: spec 003's runbook checks and decisions. */
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
    io.stdout(`Usage: heartbeat-kit runbook ${sub.usage}\n  --json  --now ISO  --tz ZONE\n`);
    return EXIT.ok;
  }
  return guarded(io, name, () => sub.run(rest, io));
};
