// The declaration of `heartbeat-kit loop`, apart from the command so loop.ts stays about the loop.
import type { CommandSpec } from '../cli-kernel/index.js';
import { EXIT } from '../exit-codes.js';
import { HEARTBEAT_FLAGS } from './heartbeat-flags.js';

/** `heartbeat-kit loop` as the command kernel reads it (parsing, `--help`, docs/reference/cli.md). */
export const LOOP_SPEC = {
  name: 'loop',
  usage: '[options]',
  description: `Runs the heartbeat loop of spec 000: HEARTBEAT_ONLINE, a first cycle at once, then one
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
cycle now) or all (the newest, up to the cap). See docs/scheduling.md.`,
  flags: {
    cwd: HEARTBEAT_FLAGS['cwd'],
    config: HEARTBEAT_FLAGS['config'],
    state: HEARTBEAT_FLAGS['state'],
    interval: { type: 'string', value: 'DURATION', help: `cycle interval: 10m, 1h30m, or seconds (default: the config's, 600)` },
    jitter: {
      type: 'string',
      value: 'DURATION',
      help: `spread slots by a stable offset in [0, DURATION) derived from DIR
(30s, 5m, or seconds)`,
    },
    'catch-up': {
      type: 'string',
      value: 'POLICY',
      help: `skip | latest-once | all (default: HEARTBEAT.md Catch-up, else
latest-once)`,
    },
    'catch-up-cap': {
      type: 'string',
      value: 'N',
      help: `at most N cycles per catch-up (default: HEARTBEAT.md Catch-up
cap, else 3)`,
    },
    now: {
      type: 'string',
      value: 'ISO',
      help: `rehearse: start the loop's clock at this instant (it then runs at
real speed) to try a restart or a night without waiting for it.
A rehearsal writes nothing a real run reads: its state and receipts
stay in memory, it takes no cycle lock and leaves replies queued`,
    },
    'metrics-textfile': {
      type: 'string',
      value: 'PATH',
      help: `after every slot, replace PATH (must end in .prom) with the heartbeat's
figures in node_exporter's textfile format (docs/metrics.md); a
rehearsal writes none`,
    },
    'metrics-listen': {
      type: 'string',
      value: 'HOST:PORT',
      help: `serve the same figures at http://HOST:PORT/metrics while the loop
runs (port 0: any free port; the address is said on stderr). Only
loopback hosts (127.0.0.1, ::1, localhost) unless --metrics-listen-public`,
    },
    'metrics-listen-public': {
      type: 'boolean',
      help: `let --metrics-listen take a non-loopback address (on purpose: anyone
who reaches it reads the scanner and finding figures)`,
    },
    'operator-activity-file': HEARTBEAT_FLAGS['operator-activity-file'],
    sink: {
      type: 'string',
      value: 'SPEC',
      help: `stdout (default) | file:PATH | webhook:URL | command:CMD |
inbox:DIR (kept for 'inbox drain') |
tmux:SESSION[:WINDOW.PANE] (an idle agent pane; docs/tmux-sink.md)`,
    },
    route: {
      type: 'string',
      value: 'PRIORITY=SINK',
      multiple: true,
      help: `routing by priority (repeatable): Immediate, Advisory or Normal
reports go to SINK with their own message id, retries, breaker and
receipt entry (replaces HEARTBEAT.md ## Delivery's line; read at start)`,
    },
    'sink-auth-env': HEARTBEAT_FLAGS['sink-auth-env'],
    'sink-same-origin-redirects': HEARTBEAT_FLAGS['sink-same-origin-redirects'],
    ping: HEARTBEAT_FLAGS['ping'],
    'ping-flavour': HEARTBEAT_FLAGS['ping-flavour'],
    'tmux-socket': HEARTBEAT_FLAGS['tmux-socket'],
    'env-allow': HEARTBEAT_FLAGS['env-allow'],
    json: { type: 'boolean', help: `print one JSON object per cycle and per message` },
  },
  exitCodes: [
    [EXIT.ok, 'stopped cleanly'],
    [EXIT.usage, 'usage or config error (or DIR is not in a git repository)'],
    [EXIT.failure, 'stopped because the state file was written by a newer heartbeat-kit (left untouched; the reason is on stderr)'],
  ],
  helpColumn: 31,
} as const satisfies CommandSpec;
