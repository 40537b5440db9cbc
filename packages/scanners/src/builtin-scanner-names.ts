/**
 * Names of the seven built-in scanners: the original heartbeat's scan targets (spec 000), in its
 * order. A check may not take one: the CLI passes them to `parseHeartbeatConfig` as `scanners`.
 */
export const BUILTIN_SCANNERS = ['beads', 'orchestrators', 'git', 'stale-tasks', 'idle-orchestrators', 'gchat', 'pipelines'] as const;

/** One of the built-in scanners' names. */
export type BuiltinScannerName = (typeof BUILTIN_SCANNERS)[number];
