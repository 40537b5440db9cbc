// The help text of `heartbeat-kit loop`, apart from the command so loop.ts stays about the loop.

/** Help text of `heartbeat-kit loop`. */
export const LOOP_HELP = `Usage: heartbeat-kit loop [options]

Runs the heartbeat loop of spec 000: HEARTBEAT_ONLINE, a first cycle at once, then one
cycle per slot of the wall-clock grid (multiples of the interval since the epoch, plus the
--jitter offset), so a restart keeps the grid. HEARTBEAT.md is re-read before every cycle.
Quiet cycles print nothing.

Stopping (spec 000: "do not interrupt mid-scan"): a first SIGINT or SIGTERM starts no new cycle;
the scan in flight finishes (each scanner gives up after 30 s) and delivers its report, then the
loop sends HEARTBEAT_SHUTDOWN and exits 0; stderr says so and how to stop now. Between cycles it
stops at once. A second signal cuts the scan off: HEARTBEAT_SHUTDOWN counts that cycle as
partial, naming the scanners (also on stderr), as it does a cycle whose tools a signal to their
process group killed. Under systemd use KillMode=mixed, so that only heartbeat-kit gets SIGTERM,
and a TimeoutStopSec longer than a scan and its delivery (examples/cron-and-systemd).

Every slot leaves one receipt beside the state ('heartbeat-kit history'). A slot inside an
operator pause ('heartbeat-kit pause') writes a 'paused' receipt with the note and runs nothing
(--json: {"type": "paused"}); the pause is read at every slot, so 'resume' needs no restart. Whatever a scanner
could not look at is one stderr line per problem in every slot (see 'heartbeat-kit cycle --help').
The newest receipt is where a restart resumes: restarted mid-interval it waits for the next
slot (no burst); slots missed while it was down, while the machine slept or the clock jumped
(told apart by comparing the wall clock with the monotonic one) or while a cycle overran are
recorded, and the catch-up policy picks which run now: skip (none), latest-once (default: one
cycle now) or all (the newest, up to the cap). See docs/scheduling.md.

Options:
  --cwd DIR                    a directory of the project's git repository (default: current directory)
  --config FILE                heartbeat config (default: the nearest .claude/HEARTBEAT.md from DIR
                               up to the repository root; none = defaults)
  --state FILE                 cross-cycle state (default: heartbeat-kit/state.json in the repository's
                               common git directory, shared by all worktrees; never in the working tree)
  --interval DURATION          cycle interval: 10m, 1h30m, or seconds (default: the config's, 600)
  --jitter DURATION            spread slots by a stable offset in [0, DURATION) derived from DIR
                               (30s, 5m, or seconds)
  --catch-up POLICY            skip | latest-once | all (default: HEARTBEAT.md Catch-up, else
                               latest-once)
  --catch-up-cap N             at most N cycles per catch-up (default: HEARTBEAT.md Catch-up
                               cap, else 3)
  --now ISO                    rehearse: start the loop's clock at this instant (it then runs at
                               real speed) to try a restart or a night without waiting for it.
                               A rehearsal writes nothing a real run reads: its state and receipts
                               stay in memory, it takes no cycle lock and leaves replies queued
  --metrics-textfile PATH      after every slot, replace PATH (must end in .prom) with the heartbeat's
                               figures in node_exporter's textfile format (docs/metrics.md); a
                               rehearsal writes none
  --metrics-listen HOST:PORT   serve the same figures at http://HOST:PORT/metrics while the loop
                               runs (port 0: any free port; the address is said on stderr). Only
                               loopback hosts (127.0.0.1, ::1, localhost) unless --metrics-listen-public
  --metrics-listen-public      let --metrics-listen take a non-loopback address (on purpose: anyone
                               who reaches it reads the scanner and finding figures)
  --operator-activity-file F   take the operator's last message time from F's modification time
                               (default: $HEARTBEAT_OPERATOR_ACTIVITY_FILE when set)
  --sink SPEC                  stdout (default) | file:PATH | webhook:URL | command:CMD |
                               inbox:DIR (kept for 'inbox drain') |
                               tmux:SESSION[:WINDOW.PANE] (an idle agent pane; docs/tmux-sink.md)
  --route PRIORITY=SINK        routing by priority (repeatable): Immediate, Advisory or Normal
                               reports go to SINK with their own message id, retries, breaker and
                               receipt entry (replaces HEARTBEAT.md ## Delivery's line; read at start)
  --sink-auth-env NAME         send $NAME as the webhook's Authorization header (never put
                               credentials in the URL: such URLs are refused)
  --sink-same-origin-redirects follow the webhook's 307/308 redirects within its own origin
                               (scheme, host, port). Default: none; a redirect fails the delivery,
                               naming its Location. Another origin or https → http: never
  --ping URL                   ping an off-host monitor when each slot starts and ends (Healthchecks.io:
                               /start, the URL on success, /fail or /EXIT otherwise, ?rid= the slot's
                               id; cronitor:URL for Cronitor telemetry). Replaces HEARTBEAT.md
                               Delivery → Ping. 5 s per ping; a failed ping is a stderr warning and
                               a receipt field, never a failed cycle. Dry runs never ping (docs/pings.md)
  --ping-flavour NAME          healthchecks (default) | cronitor: the protocol of --ping's URL
  --tmux-socket NAME           use the tmux server on socket NAME (tmux -L NAME)
  --env-allow NAMES            hardened mode: tools get only PATH, HOME, USER, LANG, TMPDIR,
                               TMUX_TMPDIR and these comma-separated names (PREFIX* = prefix;
                               replaces HEARTBEAT.md Environment → Allow); see docs/environment.md
  --json                       print one JSON object per cycle and per message
  -h, --help                   show this help

Exit codes: 0 stopped cleanly, 2 usage or config error (or DIR is not in a git repository), 3
stopped because the state file was written by a newer heartbeat-kit (left untouched; the reason
is on stderr).
`;
