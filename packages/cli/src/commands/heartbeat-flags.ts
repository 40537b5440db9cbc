// The help of the flags `cycle` and `loop` share (their parsing table is wiring/cycle-options.ts).
import type { FlagSpec } from '../cli-kernel/index.js';

/** The flags `cycle` and `loop` declare alike, by long name. */
export const HEARTBEAT_FLAGS = {
  cwd: { type: 'string', value: 'DIR', help: `a directory of the project's git repository (default: current directory)` },
  config: {
    type: 'string',
    value: 'FILE',
    help: `heartbeat config (default: the nearest .claude/HEARTBEAT.md from DIR
up to the repository root; none = defaults)`,
  },
  state: {
    type: 'string',
    value: 'FILE',
    help: `cross-cycle state (default: heartbeat-kit/state.json in the repository's
common git directory, shared by all worktrees; never in the working tree)`,
  },
  'operator-activity-file': {
    type: 'string',
    value: 'F',
    help: `take the operator's last message time from F's modification time
(default: $HEARTBEAT_OPERATOR_ACTIVITY_FILE when set)`,
  },
  'sink-auth-env': {
    type: 'string',
    value: 'NAME',
    help: `send $NAME as the webhook's Authorization header (never put
credentials in the URL: such URLs are refused)`,
  },
  'sink-same-origin-redirects': {
    type: 'boolean',
    help: `follow the webhook's 307/308 redirects within its own origin
(scheme, host, port). Default: none; a redirect fails the delivery,
naming its Location. Another origin or https → http: never`,
  },
  ping: {
    type: 'string',
    value: 'URL',
    help: `ping an off-host monitor when each slot starts and ends (Healthchecks.io:
/start, the URL on success, /fail or /EXIT otherwise, ?rid= the slot's
id; cronitor:URL for Cronitor telemetry). Replaces HEARTBEAT.md
Delivery → Ping. 5 s per ping; a failed ping is a stderr warning and
a receipt field, never a failed cycle. Dry runs never ping (docs/pings.md)`,
  },
  'ping-flavour': { type: 'string', value: 'NAME', help: `healthchecks (default) | cronitor: the protocol of --ping's URL` },
  'tmux-socket': { type: 'string', value: 'NAME', help: `use the tmux server on socket NAME (tmux -L NAME)` },
  'env-allow': {
    type: 'string',
    value: 'NAMES',
    help: `hardened mode: tools get only PATH, HOME, USER, LANG, TMPDIR,
TMUX_TMPDIR and these comma-separated names (PREFIX* = prefix;
replaces HEARTBEAT.md Environment → Allow); see docs/environment.md`,
  },
} as const satisfies Record<string, FlagSpec>;
