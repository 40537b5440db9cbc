/**
 * The `--help` pages of `heartbeat-kit fleet` and of each subcommand: what it does, its output and
 * exit codes. The flags are declared in fleet/flags.ts; the kernel renders each page from
 * {@link fleetSpec}, and docs/reference/cli.md is generated from those pages.
 */
import type { CommandSpec } from '../../cli-kernel/index.js';
import { EXIT, type ExitCode } from '../../exit-codes.js';
import { COMMON_FLAGS, OWN_FLAGS, siblingFlagsOf, type Subcommand } from './flags.js';

/** Help text of `heartbeat-kit fleet`. */
export const FLEET_HELP = `Usage: heartbeat-kit fleet <worker|add|list|remove|status|history|liveness|ack|unack|pause|resume> [options]

Runs many heartbeats on Redis with BullMQ: workers share schedules, locks, dedup memory and
delivery. Each due slot runs once, a heartbeat never runs two cycles at once, and a report is
remembered only after the sink confirmed it.

Subcommands:
  worker    process due slots and deliver reports until SIGINT/SIGTERM
  add       register (or update) a heartbeat: an id, a project directory, an interval
  list      the registered heartbeats
  remove    unregister a heartbeat and stop its schedule
  status    per heartbeat: last cycle, next slot, lag, last report
  history   one heartbeat's receipts: one record per slot, ran or skipped with the reason
  liveness  exit 0 when one heartbeat ran recently, else 1 with the reason (for a monitor)
  ack       acknowledge one heartbeat's finding with a note (as 'heartbeat-kit ack'); --list
  unack     remove one heartbeat's ack
  pause     pause one heartbeat with a note (as 'heartbeat-kit pause'): its slots write paused receipts
  resume    end one heartbeat's pause

Run 'heartbeat-kit fleet <subcommand> --help' for its options.
`;

/** One subcommand's page besides its flags: what follows its name, what it does, notes, exit codes. */
interface FleetPage {
  readonly usage: string;
  readonly description: string;
  readonly notes?: string;
  /** Empty for the pages that have never listed them. */
  readonly exits: readonly (readonly [ExitCode, string])[];
}

const REDIS_FAILED = [EXIT.failure, 'Redis failed'] as const;
// The pages that only read or write registrations: usage errors, and a Redis that cannot be reached or fails.
const USAGE = [EXIT.usage, 'usage error'] as const;
const REDIS_DOWN = [EXIT.failure, 'Redis unreachable or failed'] as const;

const PAGES: Readonly<Record<Subcommand, FleetPage>> = {
  worker: {
    usage: '[--redis URL] [--concurrency N] [options]',
    description: "Processes the fleet's slots, cycles and outbox until SIGINT/SIGTERM. Start one per core or host.",
    notes: `With --json the worker prints each event (cycle, skip, failed, stale-write, delivered, delivery-failed,
sink-breaker) as one JSON line on stderr; messages still go to --sink.

Sink circuit breaker, per heartbeat (its HEARTBEAT.md Breaker after / Breaker back-off cap): deliveries
failing the same way (HTTP 503, exit 1, …) in that many of the heartbeat's cycles in a row print one
SINK_FAILING advisory on stderr; its messages then stay in the outbox and are tried only every 2nd, 4th,
… cycle up to the cap (its receipts say delivery held), never dropped; the first delivery that works
prints one recovered line and the held messages go out.

Started while Redis is down, the worker waits for it: retries after 1 s, 2 s, 4 s … up to 30 s
apart, each retry on stderr, for up to 10 min (then exit 3); Ctrl-C stops the wait. A Redis that
refuses the password exits 3 at once with the fix.`,
    exits: [
      [EXIT.ok, 'stopped by SIGINT/SIGTERM'],
      [EXIT.usage, 'usage error'],
      [EXIT.failure, 'Redis unreachable or credentials refused'],
    ],
  },
  add: {
    usage: 'ID (--cwd DIR | --scanners fake) [--interval D] [options]',
    description: "Registers heartbeat ID (letters, digits, '.', '_', '-'; no '__') and schedules it.",
    exits: [[EXIT.ok, 'registered (or updated)'], [EXIT.usage, 'usage error (an ID or interval refused too)'], REDIS_DOWN],
  },
  list: {
    usage: '[options]',
    description: 'Lists the registered heartbeats.',
    exits: [[EXIT.ok, 'listed (also when none)'], USAGE, REDIS_DOWN],
  },
  remove: {
    usage: 'ID [options]',
    description: 'Unregisters heartbeat ID and removes its schedule. Its state stays in Redis.',
    exits: [[EXIT.ok, 'removed'], [EXIT.rejected, 'ID was not registered'], USAGE, REDIS_DOWN],
  },
  history: {
    usage: 'ID [--since WHEN] [options]',
    description: `Lists heartbeat ID's receipts, oldest first: every slot ends in one record, 'ran' (cycle number,
HEARTBEAT_OK or report, delivery 'queued' when the outbox holds the report) or 'skipped' with its
reason (overlapping: an earlier slot still ran; down: no worker committed it; config-error).
Kept in Redis per heartbeat, bounded to the last 200 records and 7 days.`,
    notes: 'With --json prints {"receipts": [...], "warnings": [...]}.',
    exits: [[EXIT.ok, 'listed (also when none)'], USAGE, REDIS_DOWN],
  },
  liveness: {
    usage: 'ID [--max-age DURATION] [options]',
    description: `Watches one fleet heartbeat as 'check-liveness' watches a loop: exits 0 when its newest 'ran'
receipt is at most --max-age old, else 1 with the reason (no worker commits its slots, every
recent slot was skipped and why, or it never ran). For a cron monitor or a Kubernetes probe
beside the workers.`,
    notes: `With --json prints {"live": …, "reason"?, "message", "lastRan"?}. While an operator pause is in
force ('heartbeat-kit fleet pause') the answer is "ID paused until …: note" and the exit is 0 (a
pause is not a death; one with no end older than 24 h also warns on stderr); --json then prints
{"live": true, "paused": {…}, "message", "notes"}.`,
    exits: [
      [EXIT.ok, 'alive (or paused)'],
      [EXIT.rejected, 'not alive (reason on stdout)'],
      [EXIT.usage, 'usage error'],
      [EXIT.failure, 'Redis unreachable or failed'],
    ],
  },
  status: {
    usage: '[options]',
    description: `Per heartbeat: last cycle, next slot, lag of the last cycle behind its slot, last report, and
an operator pause in force ('fleet pause') on the line below (--json: its "pause").`,
    exits: [[EXIT.ok, 'shown (also when none)'], USAGE, REDIS_DOWN],
  },
  ack: {
    usage: `ID SELECTOR --note TEXT [--for DURATION | --until ISO] [--snooze] [options]
       heartbeat-kit fleet ack ID --list [options]`,
    description: `Acknowledges a finding of heartbeat ID, as 'heartbeat-kit ack' does for one project: the worker's
slots do not report it while it is unchanged and the ack has not ended; changed content ends the
ack and is reported at once. SELECTOR is a finding id (hbf-…), a fingerprint (CATEGORY:SUBJECT)
or a CATEGORY, known to the heartbeat's state in Redis or to the category table. Kept in Redis at
<prefix>:hb:ID:acks, read once per slot.`,
    exits: [
      [EXIT.ok, 'acknowledged (or listed)'],
      [
        EXIT.usage,
        'usage error (no note, a note over 500 characters, an unknown heartbeat or selector, a bad duration, an --until not after now; nothing is written)',
      ],
      REDIS_FAILED,
    ],
  },
  unack: {
    usage: 'ID SELECTOR [options]',
    description: `Removes heartbeat ID's acks that SELECTOR names: an ack id (ack-…) or the selector, fingerprint
or category an ack was written with.`,
    exits: [[EXIT.ok, 'removed'], [EXIT.usage, 'no ack matches SELECTOR (nothing is written)'], REDIS_FAILED],
  },
  pause: {
    usage: 'ID --note TEXT [--for DURATION | --until ISO] [options]',
    description: `Pauses heartbeat ID as 'heartbeat-kit pause' does for one project, without stopping its schedule:
every slot in the pause writes a 'paused' receipt with the note instead of running ('fleet history'
lists them) and delivers nothing. Kept in Redis at {<prefix>:hb:ID}:pause and read once per slot
under the heartbeat's lock: a slot honours all of a pause or none of it. A new pause replaces the old.`,
    exits: [
      [EXIT.ok, 'paused'],
      [EXIT.usage, 'usage error (no note, a bad --for/--until/--scanner, an unknown heartbeat; nothing is written)'],
      REDIS_FAILED,
    ],
  },
  resume: {
    usage: 'ID [options]',
    description: `Ends heartbeat ID's pause (see 'heartbeat-kit fleet pause'): its next slot runs as usual. Resuming
when nothing is paused is not an error; a damaged pause is removed too.`,
    exits: [[EXIT.ok, 'resumed (or nothing was paused)'], [EXIT.usage, 'usage error'], REDIS_FAILED],
  },
};

/** The declaration of `fleet SUB`: its page, its own flags, the common ones, and its siblings' to refuse. */
export function fleetSpec(sub: Subcommand): CommandSpec {
  const page = PAGES[sub];
  const flags = { ...OWN_FLAGS[sub], ...COMMON_FLAGS };
  return {
    name: `fleet ${sub}`,
    usage: page.usage,
    description: page.description,
    flags,
    siblingFlags: siblingFlagsOf(sub),
    // Counted after the flags by the subcommand (fleet/args.ts), in its own words.
    positionals: { max: Number.POSITIVE_INFINITY, fix: "see the subcommand's --help" },
    ...(page.notes === undefined ? {} : { notes: page.notes }),
    exitCodes: page.exits,
  };
}
