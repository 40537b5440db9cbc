import type { ResultAsync } from 'neverthrow';
import type { Outcome } from '../dispatch/outcome.js';

/** What a persona dispatch is asked to do. */
export interface DispatchRequest {
  readonly persona: string;
  /** The persona's `runtime.model`: the loop's dispatch parameter. */
  readonly model: string;
  readonly thinkingEffort: string;
  readonly maxTurns: number;
  /** The full prompt, composed in the reference's order. */
  readonly prompt: string;
}

/** The model that did the work: the configured one, or the fallback that replaced it. */
export interface ModelUsed {
  readonly configured: string;
  readonly actual: string;
  readonly fallback: boolean;
}

/** A dispatch that returned a parseable outcome. */
export interface DispatchReport {
  readonly outcome: Outcome;
  readonly model: ModelUsed;
}

/**
 * A dispatch that must be reported as blocked: it failed after work may have begun, returned
 * nothing, or returned no parseable status. `raw` is attached to the blocked comment.
 */
export interface DispatchFailure {
  readonly kind: 'failed' | 'unparseable';
  readonly message: string;
  readonly raw: string;
  readonly model: ModelUsed;
}

/**
 * Runs one persona's work and returns its outcome. "Refused at invocation" is the adapter's to
 * handle (fall back, disclose in `model`); anything else that goes wrong is a `DispatchFailure`.
 */
export interface Dispatcher {
  readonly dispatch: (request: DispatchRequest) => ResultAsync<DispatchReport, DispatchFailure>;
}
