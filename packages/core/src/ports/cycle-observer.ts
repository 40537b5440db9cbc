/**
 * An optional observer of a cycle (for tracing): each step runs inside a call of the observer, so
 * an adapter can open a span around it (and make it the active one for what runs inside, such as
 * a scanner's commands). Pure: core only calls these functions; absent, nothing is observed.
 */

/** Values an observer may attach to a step (OpenTelemetry attribute values). */
export type ObservedValue = string | number | boolean | readonly string[];

/** What a step tells its observer while it runs. */
export interface ObservedStep {
  /** Attaches attributes (the step's decision, status, counts). */
  readonly set: (attributes: Readonly<Record<string, ObservedValue>>) => void;
  /** Marks the step as failed, with a message already redacted. */
  readonly fail: (message: string) => void;
}

/** Runs each step of a cycle inside the observer: the whole cycle, each scanner, each delivery. */
export interface CycleObserver {
  readonly cycle: <T>(run: (step: ObservedStep) => Promise<T>) => Promise<T>;
  readonly scanner: <T>(name: string, run: (step: ObservedStep) => Promise<T>) => Promise<T>;
  readonly delivery: <T>(sink: string, run: (step: ObservedStep) => Promise<T>) => Promise<T>;
}
