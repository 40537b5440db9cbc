import type { StopReason } from './stop-reasons.js';

/** What step 11 looks at. `remaining` = the sorted inbox of step 2 minus issues worked this beat. */
export interface NextStepInput {
  readonly elapsedSec: number;
  readonly ceilingSec: number;
  readonly worked: number;
  readonly maxIssues: number;
  readonly remaining: number;
}

/** Step 11: continue with the next issue, or stop with a reason. */
export type NextStep =
  | { readonly kind: 'continue' }
  | { readonly kind: 'stop'; readonly reason: Extract<StopReason, 'time_ceiling' | 'issue_budget' | 'complete'> };

/** Step 11 (reference §14): the ceiling wins over the budget when both are hit at once. */
export function decideNextStep(input: NextStepInput): NextStep {
  if (input.remaining <= 0) return { kind: 'stop', reason: 'complete' };
  if (input.elapsedSec >= input.ceilingSec) return { kind: 'stop', reason: 'time_ceiling' };
  if (input.worked >= input.maxIssues) return { kind: 'stop', reason: 'issue_budget' };
  return { kind: 'continue' };
}
