// The declaration of `heartbeat-kit cycle`: its flags, its help prose and its exit codes.
import type { CommandSpec } from '../../cli-kernel/index.js';
import { EXIT } from '../../exit-codes.js';
import { HEARTBEAT_FLAGS } from '../heartbeat-flags.js';

/** `heartbeat-kit cycle` as the command kernel reads it (parsing, `--help`, docs/reference/cli.md). */
export const CYCLE_SPEC = {
  name: 'cycle',
  usage: '[options]',
  description: `Runs one heartbeat cycle over a project: scans beads, tmux orchestrators, git worktrees,
stale tasks, idle orchestrators, GChat replies and pipelines, then prints exactly
HEARTBEAT_OK when nothing is reportable, else one WORK_FOUND message.`,
  flags: {
    cwd: HEARTBEAT_FLAGS['cwd'],
    config: HEARTBEAT_FLAGS['config'],
    state: HEARTBEAT_FLAGS['state'],
    now: {
      type: 'string',
      value: 'ISO',
      help: `rehearse the cycle as at this instant: implies --dry-run (delivers
nothing, writes no state, receipt, lock or prefetch plan), so a
rehearsal of later today never closes that slot for real runs`,
    },
    'operator-last-active': { type: 'string', value: 'ISO', help: `when the operator last sent a message (default: unknown = idle)` },
    'operator-activity-file': HEARTBEAT_FLAGS['operator-activity-file'],
    sink: {
      type: 'string',
      value: 'SPEC',
      help: `stdout (default) | file:PATH (JSONL) | webhook:URL | command:CMD |
inbox:DIR (kept for 'inbox drain') |
tmux:SESSION[:WINDOW.PANE] (types into an idle agent pane, else
holds; HEARTBEAT_TMUX_IDLE_SECONDS, HEARTBEAT_TMUX_PROMPT;
docs/tmux-sink.md)`,
    },
    route: {
      type: 'string',
      value: 'PRIORITY=SINK',
      multiple: true,
      help: `routing by priority (repeatable): the report's PRIORITY class
(Immediate, Advisory, Normal; default = --sink) goes to SINK, with
its own message id, retries, breaker and receipt entry; replaces
that class's line of HEARTBEAT.md ## Delivery. A failing route never
holds another back (exit 3 when any route failed)`,
    },
    'sink-auth-env': HEARTBEAT_FLAGS['sink-auth-env'],
    'sink-same-origin-redirects': HEARTBEAT_FLAGS['sink-same-origin-redirects'],
    ping: HEARTBEAT_FLAGS['ping'],
    'ping-flavour': HEARTBEAT_FLAGS['ping-flavour'],
    'tmux-socket': HEARTBEAT_FLAGS['tmux-socket'],
    'env-allow': HEARTBEAT_FLAGS['env-allow'],
    cron: {
      type: 'string',
      value: 'EXPR',
      help: `the cron expression that starts this cycle (read in the active
hours' zone): the receipt closes the expression's slot, and its
slots since the last receipt that no cycle closed are recorded
as skipped (down), so 'history' and 'check-liveness' see them`,
    },
    record: { type: 'string', value: 'FILE', help: `append this cycle's inputs and decision to FILE (for 'heartbeat-kit replay')` },
    'dry-run': {
      type: 'boolean',
      help: `decide only: print what would be sent (whatever --sink says), deliver
nothing, save no state, take no lock, write no receipt or prefetch
plan (a rehearsal: a later real run sees nothing of it)`,
    },
    'metrics-textfile': {
      type: 'string',
      value: 'PATH',
      help: `after the slot, replace PATH (must end in .prom) with the heartbeat's
figures in node_exporter's textfile format: counters from the receipts
(so one-shot cycles still only count up), gauges of this cycle; see
docs/metrics.md. Not written by a dry run`,
    },
    json: { type: 'boolean', help: `print one JSON object instead of the message` },
  },
  notes: `Whatever a scanner could not look at is said on stderr, one line per problem, every cycle
(\`heartbeat-kit: gchat skipped: <why>; fix: <what to do>\`; \`warning:\` when it is something
you set up or a failure); stdout stays exactly HEARTBEAT_OK. --json lists them under "problems".
Outside active hours one more line names the scanners that did not run by design
(\`heartbeat-kit: outside active hours (08:00–22:00 UTC): skipped git, …\`); --json has them
under "scanners" with the note "outside active hours". When a scanner that is set up did not
look, a last line says what the cycle covered (\`heartbeat-kit: looked at: gchat; not looked at:
beads, git, …\`); --json has it always, under "coverage" ({ "lookedAt", "notLookedAt", "notSetUp", "notDue" }).
Checks (HEARTBEAT.md ## Checks) run after the built-ins; one whose every: skips this cycle is
named under "notDue" and on a line of its own (\`heartbeat-kit: not due this cycle …\`).

Circuit breaker: a scanner failing the same way N cycles in a row (HEARTBEAT.md Heartbeat →
Breaker after, default 3; off = never) is reported once as a SCANNER_FAILING advisory, then
runs every 2nd, 4th, … cycle up to Breaker back-off cap (default 8). A cycle that does not run
it says so among the problems (SCANNER_BREAKER_OPEN, with the next try); one line says when it
trips and one when it recovers (--json: "breaker"). A scanner that still looks at part of what
it watches (a warning from a run) is reported but never skipped. The sink has one too: a
report failing to deliver the same way N cycles in a row prints one SINK_FAILING advisory on
stdout (stderr with --sink stdout), then the sink is tried every 2nd, 4th, … cycle; a cycle in
between keeps its report undelivered for later, says SINK_BREAKER_OPEN on stderr (--json:
"delivery": "held", "sinkBreaker") and exits 3. A tmux sink holds a report itself while its
pane is busy or has a half-typed line: "delivery": "held" with "deliveryWhy", not a failure for
the breaker, offered again next cycle, exit 3 (nobody was told); history shows the why.

Stopping (spec 000: "do not interrupt mid-scan"): a first SIGINT or SIGTERM lets the cycle finish
(each scanner gives up after 30 s), deliver its report and exit with its own code; stderr says so
and how to stop now. A second signal cuts the scan off: the tools are killed, what was scanned is
still evaluated, saved and reported, stderr names the scanners cut off (\`partial cycle: …\`) and
the exit is 130 or 143. Tools killed by a signal to their process group leave the cycle partial too.

Recovery and inhibition: when a delivered Immediate finding (an orchestrator crash) clears, the
next message carries one \`RESOLVED: …\` line (a cycle with only recoveries prints a short report,
not HEARTBEAT_OK; --json: "resolved"). A failing source hides what depends on it: with no tmux
server one TMUX_DOWN replaces the ORCH_FAILURE of every session; with bd failing nothing bead-
derived is reported or resolved that cycle (--json: "inhibited"). See docs/operations.md.

Paused ('heartbeat-kit pause'): a slot inside the pause writes a 'paused' receipt with the note,
scans nothing, prints nothing on stdout (stderr says "paused until …: note") and exits 0 (--json:
{"status": "paused", "pause"}). A pause of some scanners (--scanner) runs the others and says the
paused ones were not looked at; --except-critical runs every scanner but reports only Immediate
findings, orchestrator failures and GChat replies. A pause file that cannot be read is ignored
with a warning: the slot runs.

Every invocation leaves one receipt beside the state (ran, paused, or skipped with the reason);
'heartbeat-kit history' lists them and 'heartbeat-kit check-liveness' judges them.

While Node loads the command, the bin already runs git rev-parse and the read-only listings the
last cycle's scanners asked for first (bd ready, bd list, tmux list-sessions, git worktree list),
from the plan that cycle left in the repository's common git directory
(heartbeat-kit/prefetch-<uid>/cycle-prefetch-*.json, a cache: delete it any time). The plan only
names which of these listings to start; each command is built by the bin itself. A scanner only
ever gets a run of exactly the command it asks for; runs nobody asks for are killed. No plan is
used after the config file changed, once the active hours it was written in are over, while a
scanner breaker is open, or with --env-allow. A plan that is not owned by you, that others can
write (or its directory), that is a link, or that is not exactly a plan runs nothing: one
warning names the file and the fix. --json: "prefetch": {"started", "claimed"}.`,
  exitCodes: [
    [EXIT.ok, 'cycle ran (quiet or reported)'],
    [EXIT.usage, 'usage or config error (or DIR is not in a git repository)'],
    [
      EXIT.failure,
      "delivery failed or held back by the sink's breaker, state, lock, record or receipt failure (also: a state file written by a newer heartbeat-kit, which is left untouched; or a signal from elsewhere killed a tool, leaving the cycle partial)",
    ],
    [EXIT.skipped, 'skipped: another live cycle holds the cycle lock (who and why on stderr)'],
    [EXIT.interrupted, 'cut off by a second Ctrl-C (SIGINT)'],
    [
      EXIT.terminated,
      'cut off by a second SIGTERM (what was scanned is still evaluated and saved). After a single SIGINT or SIGTERM the cycle finishes and exits with one of the codes above',
    ],
  ],
  helpColumn: 31,
} as const satisfies CommandSpec;
