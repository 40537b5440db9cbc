/**
 * The `--help` text of every `heartbeat-kit runbook` subcommand: what it does, the files it reads,
 * an example and its exit codes, in plain words. Each subcommand declares its spec with
 * {@link runbookSpec}; docs/reference/cli.md is generated from the pages the kernel renders.
 */
import type { CommandSpec, FlagSpecs } from '../../cli-kernel/index.js';
import { EXIT, type ExitCode } from '../../exit-codes.js';
import { COMMON_FLAGS } from './shared.js';

/** File names `runbook init` writes and the examples use. */
export const SAMPLE_RUNBOOK_FILE = 'runbook.md';
/** The status file `runbook init` writes. */
export const SAMPLE_STATUS_FILE = 'runbook-status.json';

const RUNBOOK_FORMAT = `The runbook (FILE, Markdown) is the lead agent's standing checklist:
  ## Standing Orders, ## Governance, ## Playbook index
      reference sections: evergreen rules, any number of "- " items
  ## Active Blockers, ## Watch Items, ## Open Discussion
      tracked sections: live items with an end, at most 10 in all (20 during a real surge)
  A tracked item is one "- " line that says when it is lifted ("Lift when ...", or
  "lift when #12 merges" for a pull request) and carries a date the checker can see:
  a bare month-day such as "(check 10-20)", or "DELETE 10-20" to remove it on or after
  that day. A full date such as 2026-10-20 is not read as a due date. Lines inside
  <!-- ... --> are comments. An empty list item ("- [ ]", "-", "*", "+") is not an item
  for any subcommand; a ticked "- [x]" or a bare "1." is, as on the server. A runbook of
  only headers, comments and empty items is empty: no checklist task, no cost.
  'heartbeat-kit runbook init' writes a commented sample.`;

const STATUS_FORMAT = `The status file (JSON) is a snapshot of the agent server (tasks, agents, schedules, mentions):
  {"version": 1, "generatedAt": "2026-10-20T10:00:00Z", "serverStartedAt": "2026-10-20T08:00:00Z",
   "agents": [{"id": "lead", "name": "lead", "isLead": true, "status": "online"}],
   "tasks": [{"id": "t1", "task": "Ship notes", "status": "failed", "failureReason": "tests failed",
              "createdAt": "2026-10-20T09:00:00Z", "lastUpdatedAt": "2026-10-20T09:30:00Z"}],
   "schedules": [], "mentions": []}
  Task statuses: pending, offered, in_progress, completed, failed, cancelled, superseded. The
  newest completed task of type heartbeat-checklist is the previous checklist; its "output" is
  what the lead answered. Every key: docs/schemas/runbook-status.schema.json.`;

const COMMON = `Common options:
  --json       print one JSON document instead of text
  --now ISO    the instant to decide for (default: now), e.g. --now 2026-10-20T10:00:00Z
  --tz ZONE    the time zone that decides which day "today" is (default: TZ, else the system zone)`;

/** One subcommand's page: what follows its name, what it does, the files it reads, example, exit codes. */
interface RunbookPage {
  readonly usage: string;
  readonly what: string;
  readonly reads: readonly string[];
  /** Command lines without `heartbeat-kit`; a line starting with a space is output. */
  readonly example: readonly string[];
  readonly exits: readonly (readonly [ExitCode, string])[];
}

const USAGE_ERROR = [EXIT.usage, 'usage error or an unreadable/invalid input file (one line on stderr names the fix)'] as const;
const FAILURE = [EXIT.failure, 'something outside your input failed (a file could not be read or written)'] as const;

const PAGES = {
  init: {
    usage: '[DIR] [--dry-run]',
    what: `Writes a commented sample runbook (${SAMPLE_RUNBOOK_FILE}) and a sample status file
(${SAMPLE_STATUS_FILE}) into DIR (default: the current directory), dated from --now, so that
'runbook check' accepts the runbook and 'runbook tick' creates a first checklist task. Never
overwrites: when either file exists, nothing is written. --dry-run prints what it would write.`,
    reads: [],
    example: [`runbook init`, `runbook tick --runbook ${SAMPLE_RUNBOOK_FILE} --status ${SAMPLE_STATUS_FILE}`],
    exits: [
      [EXIT.ok, 'written (or, with --dry-run, nothing exists that would be overwritten)'],
      [EXIT.rejected, 'a file already exists; nothing written'],
      USAGE_ERROR,
      FAILURE,
    ],
  },
  check: {
    usage: 'FILE',
    what: `The date check the agent server runs before it stores a runbook: every tracked item needs a
lift trigger and a date the checker can see; more than 20 tracked items are refused. Prints
one "FILE:LINE: error|warning: ..." line per problem, then "accepted" or "rejected".`,
    reads: [RUNBOOK_FORMAT],
    example: [`runbook check ${SAMPLE_RUNBOOK_FILE}`, `  ${SAMPLE_RUNBOOK_FILE}: accepted (2 tracked item(s), 0 error(s), 0 warning(s))`],
    exits: [
      [EXIT.ok, 'accepted (warnings may be printed)'],
      [EXIT.rejected, 'rejected: the server would refuse this runbook'],
      USAGE_ERROR,
      FAILURE,
    ],
  },
  due: {
    usage: 'FILE',
    what: `Lists the tracked items due today: a bare month-day equal to today ("check-today"), or a
DELETE date on or before today ("delete-past"). A bare date that already went by is not due
here (the checker cannot see it); 'runbook quiet' and 'runbook prune' report those.`,
    reads: [RUNBOOK_FORMAT],
    example: [
      `runbook due ${SAMPLE_RUNBOOK_FILE} --tz Europe/Berlin`,
      `  ${SAMPLE_RUNBOOK_FILE}:9: check-today 10-20: - Webhook retries. Lift when 0 for 48 h (check 10-20)`,
    ],
    exits: [[EXIT.ok, 'listed (also when nothing is due)'], USAGE_ERROR, FAILURE],
  },
  prune: {
    usage: 'FILE [--write] [--offline] [--repo OWNER/NAME] [--env-allow NAMES]',
    what: `Plans the prune a checklist starts with: tracked items whose DELETE date is past, and items
whose pull-request trigger fired ("lift when #12 merges": merged, or closed without merge),
are removed; items whose check dates all went by are listed for review. Pull-request states
come from the gh CLI (--repo names the repository for bare #N; --offline skips gh). --write
rewrites FILE atomically and refuses when FILE changed meanwhile. --env-allow NAMES passes gh only
those environment variables (hardened mode, see docs/environment.md).`,
    reads: [RUNBOOK_FORMAT],
    example: [`runbook prune ${SAMPLE_RUNBOOK_FILE} --repo acme/web`, `runbook prune ${SAMPLE_RUNBOOK_FILE} --repo acme/web --write`],
    exits: [
      [EXIT.ok, 'planned (and written with --write)'],
      [EXIT.rejected, 'FILE changed while pruning; nothing written'],
      USAGE_ERROR,
      FAILURE,
    ],
  },
  tick: {
    usage: '--runbook FILE --status FILE [--gate NAME|PATH] [--dry-run] [--env-allow NAMES]',
    what: `Decides one checklist tick: whether the server creates a heartbeat-checklist task for the
lead now, and prints the task (its prompt holds the system status and the runbook). No task
when checklists are disabled, there is no lead, the interval (30 min) has not passed since the
last one, the runbook holds only headers, comments and empty list items (skip: runbook-empty;
no gate runs), or a checklist task is still open.
A gate can then call the tick quiet: HEARTBEAT_CHECKLIST_GATE_SCRIPT=heartbeat-rules-gate (no
model) or a command PATH (state JSON on stdin, {"quiet","reason","summary"} on stdout); in the
default shadow mode the task is still created and tagged; HEARTBEAT_CHECKLIST_GATE_MODE=enforce
skips quiet ticks. --gate overrides the variable. --dry-run previews the gate's verdict only.
A runbook that 'runbook check' rejects is refused with the same errors. --env-allow NAMES passes
the gate command only those environment variables (see docs/environment.md).`,
    reads: [RUNBOOK_FORMAT, STATUS_FORMAT],
    example: [
      `runbook tick --runbook ${SAMPLE_RUNBOOK_FILE} --status ${SAMPLE_STATUS_FILE}`,
      `  create heartbeat-checklist for lead [checklist, auto-generated] priority 60`,
    ],
    exits: [
      [EXIT.ok, 'decided (create or skip; the first word says which)'],
      [EXIT.usage, 'usage error, an invalid status file, or a runbook that check rejects'],
      FAILURE,
    ],
  },
  quiet: {
    usage: '--runbook FILE --status FILE [--schedule-health FILE] [--failure-audit FILE]',
    what: `The quiet check a lead runs first on a checklist task. Quiet only when every failed, stalled or
reboot-interrupted task was already named by the previous checklist's output, no mention is
unanswered, no tracked item is at or past its date (a check date that went by counts on every
later day), and the two health scripts report nothing the previous checklist did not name.
Quiet prints exactly one line to complete the task with:
  Quiet. Same as <previous task id>: <N> failures (triaged), schedule-health <healthy>/<total>, controls ok.
Otherwise it prints why not. The script results default to what the status file implies
(schedules with 3+ runs and over 20% failed; failed tasks of the last day); pass the JSON the
schedule-health and task-failure-audit scripts printed to use theirs.`,
    reads: [RUNBOOK_FORMAT, STATUS_FORMAT],
    example: [
      `runbook quiet --runbook ${SAMPLE_RUNBOOK_FILE} --status ${SAMPLE_STATUS_FILE}`,
      `  not quiet: tracked-item-due`,
      `  - line 9 (Watch Items) is past its check date (10-15); prune it or write its new date`,
    ],
    exits: [
      [EXIT.ok, 'quiet (the one line is on stdout)'],
      [EXIT.rejected, 'not quiet: continue with the full checklist'],
      [EXIT.usage, 'usage error, an invalid status or script file, or a runbook that check rejects'],
      FAILURE,
    ],
  },
  'boot-triage': {
    usage: '--status FILE [--runbook FILE]',
    what: `Decides the task the server creates 90 seconds after a restart: a boot-triage task only when
this boot cut off work (reboot-sweep failures after serverStartedAt), or left real failures,
orphaned pending/offered tasks on offline workers, superseded tasks with no resume child, or
work stuck on offline agents. A clean boot creates none. Without serverStartedAt in the status,
the last 60 minutes stand in for this boot (a warning says so).`,
    reads: [STATUS_FORMAT],
    example: [`runbook boot-triage --status ${SAMPLE_STATUS_FILE}`, `  skip: clean-boot`],
    exits: [[EXIT.ok, 'decided (create or skip)'], USAGE_ERROR, FAILURE],
  },
  'gate-report': {
    usage: 'LOG [--threshold 0.95] [--min-samples 20]',
    what: `Compares the gate's shadow verdicts with what the lead actually did, to decide whether enforce
mode is safe: agreement, and how often "quiet" was right (precision) and found (recall).`,
    reads: [
      `LOG is JSON Lines; each line carries a checklist task's id and its verdict, its outcome, or both:
  {"taskId": "t1", "verdict": "quiet"}        the gate's call (quiet, wake or error)
  {"taskId": "t1", "outcome": "work"}         the lead's call (quiet or work), or instead
  {"taskId": "t1", "output": "Quiet. Same as t0: ..."}   what the task completed with
Lines joined by taskId; lines that are not such objects are skipped with a note on stderr.`,
    ],
    example: [`runbook gate-report gate.jsonl --min-samples 20`],
    exits: [[EXIT.ok, 'reported'], USAGE_ERROR, FAILURE],
  },
} satisfies Readonly<Record<string, RunbookPage>>;

/** A `heartbeat-kit runbook` subcommand. */
export type RunbookSubcommand = keyof typeof PAGES;

/** Every subcommand, in the order the help lists them. */
export const RUNBOOK_SUBCOMMANDS = Object.keys(PAGES) as readonly RunbookSubcommand[];

/** The declaration of `runbook SUB`: its page, the common flags and `flags`. */
export function runbookSpec<const F extends FlagSpecs>(sub: RunbookSubcommand, flags: F): CommandSpec<typeof COMMON_FLAGS & F> {
  const page: RunbookPage = PAGES[sub];
  return {
    name: `runbook ${sub}`,
    usage: page.usage,
    description: page.what,
    flags: { ...COMMON_FLAGS, ...flags },
    // Counted by the body after the flags, so a bad --now is named before a missing FILE (and the
    // refusal says which file, as the subcommand's own words).
    positionals: { max: Number.POSITIVE_INFINITY, fix: "see the subcommand's --help" },
    notes: [...page.reads, COMMON].join('\n\n'),
    examples: page.example,
    exitCodes: page.exits,
    // The page lists the common options in words and the subcommand's own in its prose.
    omitHelpLine: true,
    helpLayout: 'list',
  };
}
