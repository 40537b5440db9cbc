import type { HeartbeatConfig } from '../config/heartbeat-config-schema.js';
import { isWithinActiveHours } from '../active-hours/active-hours.js';
import type { ScanResult } from '../domain/scan-result.js';
import type { CategoryTable } from '../domain/category-table.js';
import type { TokenEstimator } from '../messages/token-estimate.js';
import type { Clock, Sleep } from '../ports/clock.js';
import type { OperatorActivity } from '../ports/operator-activity.js';
import type { Scanner } from '../ports/scanner.js';
import type { Ack } from '../operator/ack-book.js';
import { evaluateCycle, type CycleDecision } from './evaluate-cycle.js';
import type { HeartbeatState } from './heartbeat-state.js';
import { runScanners } from './run-scanners.js';
import { breakerSkips } from './scanner-breaker.js';
import { scanProblems, type ScanProblem } from './scan-problems.js';
import { keepCriticalFindings, pausedScannerSkips, type SlotPause } from '../operator/pause-decision.js';

/** The ports {@link scanAndEvaluate} runs on. */
export interface CycleStepDeps {
  readonly clock: Clock;
  readonly sleep: Sleep;
  readonly scanners: readonly Scanner[];
  /** Absent = operator activity unknown (counts as idle). */
  readonly operatorActivity?: OperatorActivity;
}

/** What one {@link scanAndEvaluate} step evaluates: the loaded state and the cycle's settings. */
export interface CycleStepInput {
  /** The state the cycle starts from (its breakers decide which scanners are skipped). */
  readonly state: HeartbeatState;
  readonly config: HeartbeatConfig;
  /** Resolved IANA zone for active hours and timestamps. */
  readonly timeZone: string;
  readonly now: Date;
  /** Overrides the operator-activity port (e.g. `--operator-last-active`). */
  readonly operatorLastActiveAt?: Date;
  readonly concurrency?: number;
  readonly scannerTimeoutMs?: number;
  readonly estimateTokens?: TokenEstimator;
  /** The categories' rules; default `OPEN_CATEGORIES` (see `defineCategories`). */
  readonly categories?: CategoryTable;
  /** The operator's acks, read once for this cycle (see `decideAcks`). */
  readonly acks?: readonly Ack[];
  /** An operator pause this slot honours in part: scanners not run, or critical findings only (see `decidePause`). */
  readonly pause?: SlotPause | undefined;
}

/** What the step decided; delivering the message and saving `nextState` are the caller's. */
export interface CycleStep {
  readonly decision: CycleDecision;
  readonly nextState: HeartbeatState;
  readonly scanResults: readonly ScanResult[];
  readonly problems: readonly ScanProblem[];
  readonly operatorLastActiveAt: Date | undefined;
  /** Operator-activity failures: never dropped, the caller reports them with its other warnings. */
  readonly warnings: readonly string[];
}

/**
 * The part of a heartbeat cycle every runner shares (`runCycle`, the fleet worker): read operator
 * activity, run the scanners except those whose circuit breaker is open, evaluate. It delivers
 * nothing and saves nothing, because runners differ there (inline sink vs. a durable outbox).
 * Never rejects.
 */
export async function scanAndEvaluate(deps: CycleStepDeps, input: CycleStepInput): Promise<CycleStep> {
  const warnings: string[] = [];
  const { now, config, timeZone, state } = input;
  let operatorLastActiveAt = input.operatorLastActiveAt;
  if (operatorLastActiveAt === undefined && deps.operatorActivity !== undefined) {
    const activity = await deps.operatorActivity.lastActiveAt();
    if (activity.isOk()) operatorLastActiveAt = activity.value;
    else warnings.push(`operator activity unknown: ${activity.error.message}`);
  }

  const insideActiveHours = isWithinActiveHours(now, { ...config.activeHours, timeZone });
  // A paused scanner is skipped like one whose breaker is open: the pause, not the breaker, says why.
  const skip = new Map([...breakerSkips(state.breakers, state.cycle + 1, config.breaker), ...pausedScannerSkips(input.pause)]);
  const scanned = await runScanners(deps.scanners, {
    clock: deps.clock,
    sleep: deps.sleep,
    now,
    config,
    insideActiveHours,
    skip,
    // Each stateful scanner gets its own slice of the previous state.
    ...(state.scannerSlices === undefined ? {} : { slices: state.scannerSlices }),
    ...(input.concurrency === undefined ? {} : { concurrency: input.concurrency }),
    ...(input.scannerTimeoutMs === undefined ? {} : { timeoutMs: input.scannerTimeoutMs }),
  });

  // `--except-critical`: everything is looked at, only what must wake someone is reported.
  const scanResults = keepCriticalFindings(scanned, input.pause, input.categories);
  const { decision, nextState } = evaluateCycle(state, scanResults, {
    now,
    config,
    timeZone,
    insideActiveHours,
    operatorLastActiveAt,
    ...(input.estimateTokens ? { estimateTokens: input.estimateTokens } : {}),
    ...(input.categories === undefined ? {} : { categories: input.categories }),
    ...(input.acks === undefined ? {} : { acks: input.acks }),
  });
  return { decision, nextState, scanResults, problems: scanProblems(scanResults), operatorLastActiveAt, warnings };
}
