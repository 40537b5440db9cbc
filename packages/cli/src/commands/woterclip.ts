import { parseCommand, type DeclaredCommand } from '../cli-kernel/index.js';
import { unknownNameError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import type { Command } from '../io.js';
import { createBeatCommand } from './woterclip-beat.js';
import { woterclipHistoryCommand } from './woterclip-history.js';
import { createWoterclipInitCommand } from './woterclip-init.js';
import { woterclipPauseCommand, woterclipResumeCommand } from './woterclip-pause.js';
import { createStatusCommand } from './woterclip-status.js';
import type { WoterclipCommandOverrides } from './woterclip-wiring.js';

export { woterclipReceiptsDirectory, type WoterclipCommandOverrides } from './woterclip-wiring.js';

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

/**
 * A subcommand whose argv the parser refuses says so as WoterClip's commands always have, on one
 * line under `heartbeat-kit woterclip:` ending in "run with --help for the options"; the rest is
 * the declared command's.
 */
function withWoterclipRefusal(command: DeclaredCommand): Command {
  return (argv, io) => {
    const parsed = parseCommand(command.spec, argv);
    if (parsed.isOk()) return command(argv, io);
    const problem = parsed.error.message.replace(/ Fix: .*$/, '').replace(/\.$/, '');
    io.stderr(`heartbeat-kit woterclip: ${problem}. Fix: run with --help for the options.\n`);
    return Promise.resolve(EXIT.usage);
  };
}

/** Builds the `woterclip` command; the CLI picks the concrete adapters here. */
export function createWoterclipCommand(overrides: WoterclipCommandOverrides = {}): Command {
  const subcommands: Readonly<Record<string, Command>> = {
    init: withWoterclipRefusal(createWoterclipInitCommand(overrides)),
    beat: withWoterclipRefusal(createBeatCommand(overrides)),
    status: withWoterclipRefusal(createStatusCommand(overrides)),
    history: withWoterclipRefusal(woterclipHistoryCommand),
    pause: woterclipPauseCommand,
    resume: woterclipResumeCommand,
  };
  return async (argv, io) => {
    const [sub, ...rest] = argv;
    if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
      io.stdout(WOTERCLIP_HELP);
      return sub === undefined ? EXIT.usage : EXIT.ok;
    }
    // Own names only: `toString` is not a subcommand.
    const command = Object.hasOwn(subcommands, sub) ? subcommands[sub] : undefined;
    if (command !== undefined) return command(rest, io);
    unknownNameError(io, 'woterclip', 'subcommand', sub, Object.keys(subcommands));
    return EXIT.usage;
  };
}

/** `heartbeat-kit woterclip beat|status`. */
export const woterclipCommand: Command = createWoterclipCommand();
