/** Where time comes from. Pure code never calls `Date.now()`; it is handed a clock or an instant. */
export interface Clock {
  readonly now: () => Date;
}

/**
 * Waiting, as a port so the loop can run on a fake clock. `sleep` resolves after `ms`, or early
 * (without rejecting) when `signal` aborts.
 */
export interface Sleep {
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}
