/**
 * The `--help` text of `heartbeat-kit fleet` and of each subcommand: what it does, its options,
 * its output and exit codes. docs/reference/cli.md is generated from these.
 */
import { MIN_FLEET_INTERVAL_MS } from '@heartbeat-kit/bullmq';
import type { Subcommand } from './args.js';

const COMMON = `Common options:
  --redis URL        redis://127.0.0.1:6379 (default), redis://:PASSWORD@HOST:PORT,
                     unix:///path/redis.sock[?password=PASSWORD] or redis+unix://…
                     (or set HEARTBEAT_KIT_REDIS); several comma-separated
                     redis:// nodes (redis://H1:7000,redis://H2:7001) mean a Redis Cluster
  --redis-cluster    treat --redis as a seed node of a Redis Cluster even when it names one
  --prefix NAME      key prefix of the fleet in Redis (default: hbk)
  --json             print JSON
  -h, --help         show this help`;

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

/** Help text of each `heartbeat-kit fleet` subcommand (`fleet <subcommand> --help`). */
export const FLEET_SUBCOMMAND_HELP: Readonly<Record<Subcommand, string>> = {
  worker: `Usage: heartbeat-kit fleet worker [--redis URL] [--concurrency N] [options]

Processes the fleet's slots, cycles and outbox until SIGINT/SIGTERM. Start one per core or host.

Options:
  --concurrency N    jobs per queue at once (default 4)
  --sink SPEC        stdout (default) | file:PATH (JSONL with heartbeat and message id) |
                     webhook:URL | command:CMD | tmux:SESSION[:WINDOW.PANE] (a held
                     message stays in the outbox and is retried)
  --fake-scanners    scan with in-memory fake scanners instead of the projects (tests, benchmarks)
  --lock-ttl D       lease of a heartbeat lock (30s, 2m, or seconds), renewed while a cycle runs (default 30)
  --min-replica-acks N
                     replicas that must confirm each new lock fence (Redis WAIT) before a cycle runs
                     (default 0). 1 on a Redis Cluster with a replica per master: a failover then
                     never hands out a fence a cycle already acted on; a master without a replica
                     takes no locks until one is back
  --metrics-textfile PATH
                     write this worker's figures (jobs, cycles, findings, messages, durations,
                     schedule lag, queue depths) to PATH (*.prom, node_exporter's textfile format),
                     replaced atomically after every job and every 15 s; one file per worker
  --metrics-listen HOST:PORT
                     serve the same figures at http://HOST:PORT/metrics (loopback only; port 0:
                     any free port, said on stderr). See docs/metrics.md, "Fleet workers"
  --metrics-listen-public
                     let --metrics-listen take a non-loopback address (the figures name categories)
${COMMON}

With --json the worker prints each event (cycle, skip, failed, stale-write, delivered, delivery-failed,
sink-breaker) as one JSON line on stderr; messages still go to --sink.

Sink circuit breaker, per heartbeat (its HEARTBEAT.md Breaker after / Breaker back-off cap): deliveries
failing the same way (HTTP 503, exit 1, …) in that many of the heartbeat's cycles in a row print one
SINK_FAILING advisory on stderr; its messages then stay in the outbox and are tried only every 2nd, 4th,
… cycle up to the cap (its receipts say delivery held), never dropped; the first delivery that works
prints one recovered line and the held messages go out.

Started while Redis is down, the worker waits for it: retries after 1 s, 2 s, 4 s … up to 30 s
apart, each retry on stderr, for up to 10 min (then exit 3); Ctrl-C stops the wait. A Redis that
refuses the password exits 3 at once with the fix.

Exit codes: 0 stopped by SIGINT/SIGTERM, 2 usage error, 3 Redis unreachable or credentials refused.
`,
  add: `Usage: heartbeat-kit fleet add ID (--cwd DIR | --scanners fake) [--interval D] [options]

Registers heartbeat ID (letters, digits, '.', '_', '-'; no '__') and schedules it.

Options:
  --cwd DIR          project to scan with the real scanners and its .claude/HEARTBEAT.md
  --scanners fake    in-memory fake scanners instead of a project
  --scan-ms N        fake scanners: how long a scan takes (default 0)
  --report-every N   fake scanners: a new finding every N slots (default 5; 0 = quiet)
  --interval D       time between slots: 10m, 1h, or seconds (default 600, minimum ${MIN_FLEET_INTERVAL_MS / 1000})
${COMMON}
`,
  list: `Usage: heartbeat-kit fleet list [options]

Lists the registered heartbeats.

${COMMON}
`,
  remove: `Usage: heartbeat-kit fleet remove ID [options]

Unregisters heartbeat ID and removes its schedule. Its state stays in Redis.

${COMMON}
`,
  history: `Usage: heartbeat-kit fleet history ID [--since WHEN] [options]

Lists heartbeat ID's receipts, oldest first: every slot ends in one record, 'ran' (cycle number,
HEARTBEAT_OK or report, delivery 'queued' when the outbox holds the report) or 'skipped' with its
reason (overlapping: an earlier slot still ran; down: no worker committed it; config-error).
Kept in Redis per heartbeat, bounded to the last 200 records and 7 days.

Options:
  --since WHEN       only receipts at or after WHEN: an ISO instant or a duration back from
                     now such as 24h or 90m
  --now ISO          judge ages as at this instant
${COMMON}

With --json prints {"receipts": [...], "warnings": [...]}.
`,
  liveness: `Usage: heartbeat-kit fleet liveness ID [--max-age DURATION] [options]

Watches one fleet heartbeat as 'check-liveness' watches a loop: exits 0 when its newest 'ran'
receipt is at most --max-age old, else 1 with the reason (no worker commits its slots, every
recent slot was skipped and why, or it never ran). For a cron monitor or a Kubernetes probe
beside the workers.

Options:
  --max-age DURATION how old the last run may be, e.g. 30m or 2h (default: 3 × its interval)
  --now ISO          judge as at this instant
${COMMON}

With --json prints {"live": …, "reason"?, "message", "lastRan"?}. While an operator pause is in
force ('heartbeat-kit fleet pause') the answer is "ID paused until …: note" and the exit is 0 (a
pause is not a death; one with no end older than 24 h also warns on stderr); --json then prints
{"live": true, "paused": {…}, "message", "notes"}.

Exit codes: 0 alive (or paused), 1 not alive (reason on stdout), 2 usage error, 3 Redis unreachable or failed.
`,
  status: `Usage: heartbeat-kit fleet status [options]

Per heartbeat: last cycle, next slot, lag of the last cycle behind its slot, last report, and
an operator pause in force ('fleet pause') on the line below (--json: its "pause").

${COMMON}
`,
  ack: `Usage: heartbeat-kit fleet ack ID SELECTOR --note TEXT [--for DURATION | --until ISO] [--snooze] [options]
       heartbeat-kit fleet ack ID --list [options]

Acknowledges a finding of heartbeat ID, as 'heartbeat-kit ack' does for one project: the worker's
slots do not report it while it is unchanged and the ack has not ended; changed content ends the
ack and is reported at once. SELECTOR is a finding id (hbf-…), a fingerprint (CATEGORY:SUBJECT)
or a CATEGORY, known to the heartbeat's state in Redis or to the category table. Kept in Redis at
<prefix>:hb:ID:acks, read once per slot.

Options:
  --note TEXT        why (required, 1–500 characters)
  --for DURATION     the ack ends after this long, e.g. 4h (a bare number is hours)
  --until ISO        the ack ends at this instant (must be after now)
  --snooze           also end it when the finding clears and comes back
  --by NAME          who acknowledges (default: $USER)
  --list             list heartbeat ID's acks instead
  --now ISO          rehearse as at this instant: print the ack it would write, write nothing
${COMMON}

Exit codes: 0 acknowledged (or listed), 2 usage error (no note, a note over 500 characters, an
unknown heartbeat or selector, a bad duration, an --until not after now; nothing is written),
3 Redis failed.
`,
  unack: `Usage: heartbeat-kit fleet unack ID SELECTOR [options]

Removes heartbeat ID's acks that SELECTOR names: an ack id (ack-…) or the selector, fingerprint
or category an ack was written with.

${COMMON}

Exit codes: 0 removed, 2 no ack matches SELECTOR (nothing is written), 3 Redis failed.
`,
  pause: `Usage: heartbeat-kit fleet pause ID --note TEXT [--for DURATION | --until ISO] [options]

Pauses heartbeat ID as 'heartbeat-kit pause' does for one project, without stopping its schedule:
every slot in the pause writes a 'paused' receipt with the note instead of running ('fleet history'
lists them) and delivers nothing. Kept in Redis at {<prefix>:hb:ID}:pause and read once per slot
under the heartbeat's lock: a slot honours all of a pause or none of it. A new pause replaces the old.

Options:
  --note TEXT        why, in one line (required, 1–500 characters): shown in every paused receipt
  --for DURATION     end the pause after this long, e.g. 2h or 90m (a bare number is hours)
  --until ISO        end the pause at this instant (must be later than now)
                     (neither: the pause lasts until 'heartbeat-kit fleet resume ID')
  --scanner NAME     pause only this scanner (repeatable): the others run, and each ran receipt
                     names the pause
  --except-critical  slots still run but report only P0/P1 (Immediate) findings, orchestrator
                     failures and GChat replies
  --now ISO          rehearse as at this instant: print the pause it would write, write nothing
${COMMON}

Exit codes: 0 paused, 2 usage error (no note, a bad --for/--until/--scanner, an unknown heartbeat;
nothing is written), 3 Redis failed.
`,
  resume: `Usage: heartbeat-kit fleet resume ID [options]

Ends heartbeat ID's pause (see 'heartbeat-kit fleet pause'): its next slot runs as usual. Resuming
when nothing is paused is not an error; a damaged pause is removed too.

${COMMON}

Exit codes: 0 resumed (or nothing was paused), 2 usage error, 3 Redis failed.
`,
};
