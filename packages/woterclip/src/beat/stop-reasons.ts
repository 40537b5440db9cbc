/**
 * The closed set of reasons a WoterClip beat stops (reference §6). Every recorded beat line
 * carries exactly one; `lock_conflict` is defined but records nothing.
 */
export const STOP_REASONS = [
  'complete',
  'queue_empty',
  'issue_budget',
  'time_ceiling',
  'blocked_exit',
  'quiet_hours',
  'lock_conflict',
] as const;

/** One of {@link STOP_REASONS}. */
export type StopReason = (typeof STOP_REASONS)[number];

/** What the kit does at an exit with a given stop reason. */
export interface StopReasonInfo {
  /** One line for humans and docs. */
  readonly description: string;
  /** The line the beat prints as it stops. */
  readonly message: string;
  /** Whether the exit appends a beat line to the JSONL log. */
  readonly recordsBeatLine: boolean;
  /** Whether the beat owns the lock at this exit and so applies the ownership rule (re-read, delete only if ours). */
  readonly appliesOwnershipRule: boolean;
}

// `satisfies` checks every entry against the closed set while keeping the literal types.
const TABLE = {
  complete: {
    description: 'Worked every eligible issue; nothing left.',
    message: 'Queue exhausted. Heartbeat complete.',
    recordsBeatLine: true,
    appliesOwnershipRule: true,
  },
  queue_empty: {
    description: 'No eligible issue at pick-up; no work done.',
    message: 'No issues in queue. Heartbeat complete.',
    recordsBeatLine: true,
    appliesOwnershipRule: true,
  },
  issue_budget: {
    description: 'Reached max_issues_per_heartbeat with issues still eligible.',
    message: 'Issue budget reached. Remaining issues wait for the next heartbeat.',
    recordsBeatLine: true,
    appliesOwnershipRule: true,
  },
  time_ceiling: {
    description: 'Reached the time ceiling with issues still eligible (wins when the budget is hit at the same time).',
    message: 'Time ceiling reached. Remaining issues wait for the next heartbeat.',
    recordsBeatLine: true,
    appliesOwnershipRule: true,
  },
  blocked_exit: {
    description: 'gh is unavailable or unauthenticated, or gh failed mid-work.',
    message: 'GitHub is unavailable or unauthenticated. Run `gh auth login`, then start the next heartbeat.',
    recordsBeatLine: true,
    appliesOwnershipRule: true,
  },
  quiet_hours: {
    description: 'Quiet hours are active with behavior "skip".',
    message: 'Quiet hours active. Skipping.',
    recordsBeatLine: true,
    appliesOwnershipRule: true,
  },
  lock_conflict: {
    description: 'Another beat holds a live lock; this beat touched nothing.',
    message: 'Previous heartbeat still active. Skipping.',
    recordsBeatLine: false,
    appliesOwnershipRule: false,
  },
} as const satisfies Record<StopReason, StopReasonInfo>;

/**
 * The total mapping from stop reason to behaviour. `satisfies Record<StopReason, …>` (and the
 * exported annotation) make a new reason fail to compile until it is mapped here.
 * The process exit code of each stop is the CLI's business (`beatExitCode` in the CLI's exit-code
 * table), not this package's.
 */
export const STOP_REASON_TABLE: Readonly<Record<StopReason, StopReasonInfo>> = TABLE;

const STOP_REASON_SET: ReadonlySet<string> = new Set(STOP_REASONS);

/** Narrows an untrusted value (a log line field, a CLI flag) to a {@link StopReason}. */
export function isStopReason(value: unknown): value is StopReason {
  return typeof value === 'string' && STOP_REASON_SET.has(value);
}

/** The behaviour of a stop reason. */
export function stopReasonInfo(reason: StopReason): StopReasonInfo {
  return STOP_REASON_TABLE[reason];
}
