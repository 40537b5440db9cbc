/** The longest repeat interval HEARTBEAT.md may set (30 days). */
export const MAX_REPEAT_INTERVAL_MS = 30 * 86_400_000;

/** At most this many intervals in one repeat schedule. */
export const MAX_REPEAT_STEPS = 10;
