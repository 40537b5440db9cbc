/**
 * The option tables of `cycle` and `loop`, in `node:util` parseArgs form. A module of their own,
 * importing nothing: the cycle prefetch reads `cycle`'s argv with the very table the command
 * uses while Node is still loading the command (its chunk must stay small: no zod, no core index).
 */

/** The options `cycle` and `loop` share. */
export const HEARTBEAT_OPTIONS = {
  cwd: { type: 'string' },
  config: { type: 'string' },
  state: { type: 'string' },
  'operator-activity-file': { type: 'string' },
  sink: { type: 'string' },
  route: { type: 'string', multiple: true },
  'sink-auth-env': { type: 'string' },
  'sink-same-origin-redirects': { type: 'boolean' },
  'tmux-socket': { type: 'string' },
  'env-allow': { type: 'string' },
  'metrics-textfile': { type: 'string' },
  ping: { type: 'string' },
  'ping-flavour': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The options of `heartbeat-kit cycle`. */
export const CYCLE_OPTIONS = {
  ...HEARTBEAT_OPTIONS,
  now: { type: 'string' },
  'operator-last-active': { type: 'string' },
  record: { type: 'string' },
  cron: { type: 'string' },
  'dry-run': { type: 'boolean' },
} as const;
