import type { HeartbeatConfig } from '../config/heartbeat-config-schema.js';
import type { CycleObserver } from '../ports/cycle-observer.js';
import { observedDeps, observeOutcome } from './observe-cycle.js';
import type { Clock, Sleep } from '../ports/clock.js';
import type { OperatorActivity } from '../ports/operator-activity.js';
import type { Scanner } from '../ports/scanner.js';
import type { Sink } from '../ports/sink.js';
import type { StateStore } from '../ports/state-store.js';
import type { ReplyInbox } from '../ports/reply-inbox.js';
import type { AckStore } from '../operator/ack-store.js';
import type { Ack } from '../operator/ack-book.js';
import { settledInboxIds } from '../inbox/inbox-entries.js';
import type { TokenEstimator } from '../messages/token-estimate.js';
import type { CategoryTable } from '../domain/category-table.js';
import type { ScanResult } from '../domain/scan-result.js';
import type { CycleDecision } from './cycle-decision.js';
import { scanAndEvaluate } from './cycle-step.js';
import { encodeHeartbeatState, type HeartbeatState } from './heartbeat-state.js';
import { loadCycleState, type StateRefusal } from './load-cycle-state.js';
import { deliverToSink, type SinkDelivery } from './deliver-to-sink.js';
import type { ScanProblem } from './scan-problems.js';
import type { SlotPause } from '../operator/pause-decision.js';
import { redactSecrets } from '../text/sanitize.js';
import type { SinkBreakerReport } from './sink-breaker.js';
import { deliverRoutes, type DeliveryRoute, type RouteDelivery } from './deliver-routes.js';

export type { StateRefusal } from './load-cycle-state.js';

/** The ports one cycle runs on. */
export interface CycleDeps {
  readonly clock: Clock;
  readonly sleep: Sleep;
  readonly stateStore: StateStore;
  readonly sink: Sink;
  readonly scanners: readonly Scanner[];
  /** Absent = operator activity unknown (counts as idle). */
  readonly operatorActivity?: OperatorActivity;
  /**
   * Where a consuming scanner (GChat) made what it read durable. The cycle removes an entry only
   * after the state it saved records it as reported or undelivered, so a kill at any point loses
   * no reply (see docs/failure-modes.md for the at-least-once choice).
   */
  readonly inbox?: ReplyInbox;
  /**
   * Routes by priority: a priority class listed here goes to its own sink (own message, id,
   * retries and breaker); the others go to `sink`. Absent or empty = one message to `sink`.
   */
  readonly routes?: readonly DeliveryRoute[];
  /**
   * The operator's acks (`heartbeat-kit ack`), read once per cycle: an ack written while the
   * cycle runs is in this cycle's decision or the next one's, never half. Absent = no acks.
   */
  readonly ackStore?: AckStore;
  /**
   * An optional observer (tracing, `@heartbeat-kit/otel`): the cycle, each scanner and each
   * delivery run inside it, with the decision as attributes. Absent = nothing observed.
   */
  readonly observer?: CycleObserver;
}

/** The settings of one cycle. */
export interface CycleSettings {
  readonly config: HeartbeatConfig;
  /** Resolved IANA zone for active hours and timestamps. */
  readonly timeZone: string;
  /** Evaluate as at this instant instead of the clock's now. */
  readonly now?: Date;
  /** Overrides the operator-activity port (e.g. `--operator-last-active`). */
  readonly operatorLastActiveAt?: Date;
  readonly concurrency?: number;
  readonly scannerTimeoutMs?: number;
  readonly estimateTokens?: TokenEstimator;
  /** The categories' rules (an embedder's own from `defineCategories`); default `OPEN_CATEGORIES`. */
  readonly categories?: CategoryTable;
  /**
   * Decide only: scan and evaluate, but deliver nothing and save no state, so an operator can ask
   * "what would you tell me now?" without marking findings as reported or advancing the cycle.
   */
  readonly dryRun?: boolean;
  /** An operator pause this slot honours in part (see `decidePause`); a whole-slot pause never calls runCycle. */
  readonly pause?: SlotPause | undefined;
}

/** What one cycle did, including what went wrong around it. */
export interface CycleOutcome {
  readonly decision: CycleDecision;
  readonly scanResults: readonly ScanResult[];
  /** The state the cycle started from (for recording and replay). */
  readonly previousState: HeartbeatState;
  readonly state: HeartbeatState;
  /**
   * `none` for a quiet cycle. A failed delivery leaves the findings unreported. `held`: the sink's
   * circuit breaker is open and this cycle did not try it; the findings stay unreported and are
   * offered again. `dry-run`: a message was decided but deliberately not sent (and no state was saved).
   */
  readonly delivery: 'none' | 'delivered' | 'failed' | 'held' | 'dry-run';
  /**
   * Why the delivery was `held` (the breaker's line, or the sink's own reason: a busy tmux pane) or
   * `failed` (the redacted error): what `history` and `--json` say next to "nobody was told".
   */
  readonly deliveryWhy?: string;
  /**
   * The sink's circuit breaker, when it has something to say this cycle: the delivery was held
   * back, it tripped (with the SINK_FAILING advisory for the operator's channel: the sink cannot
   * carry it), recovered or changed. Absent otherwise.
   */
  readonly sinkBreaker?: SinkBreakerReport;
  /** State-load warnings, operator-activity failures, delivery and save errors. */
  readonly warnings: readonly string[];
  /** Set when the new state could not be saved. */
  readonly stateError?: string;
  readonly operatorLastActiveAt: Date | undefined;
  /** Set for a dry run: nothing was delivered or saved, whatever the decision. */
  readonly dryRun?: true;
  /**
   * Set when the cycle did not run because its stored state must not be touched (written by a
   * newer version, or damaged and no copy could be kept): nothing was scanned, sent or saved.
   */
  readonly refused?: StateRefusal;
  /** What the scanners could not look at (said on stderr in text mode, listed in JSON). */
  readonly problems: readonly ScanProblem[];
  /** With routes: what each route with something to say did (absent without routes or with nothing to send). */
  readonly routes?: readonly RouteDelivery[];
}

function refusedOutcome(refused: StateRefusal, state: HeartbeatState, now: Date, warnings: string[]): CycleOutcome {
  const decision: CycleDecision = {
    cycle: state.cycle,
    at: now.toISOString(),
    status: 'ok',
    insideActiveHours: false,
    operatorIdle: false,
    reportable: [],
    categories: [],
    suppressed: [],
    held: [],
    unconfirmed: [],
    scanners: [],
    warnings: [],
    estimatedTokens: 0,
    message: null,
    costAlert: null,
  };
  return {
    decision,
    scanResults: [],
    previousState: state,
    state,
    delivery: 'none',
    warnings,
    operatorLastActiveAt: undefined,
    refused,
    problems: [],
  };
}

/**
 * Runs one heartbeat cycle over ports: load state, scan, evaluate, deliver, remember. Never
 * rejects; every failure ends up in the outcome's warnings.
 *
 * @example
 * ```ts
 * import { DEFAULT_HEARTBEAT_CONFIG, runCycle } from '@heartbeat-kit/core';
 * import { createFileStateStore, createProcessRunner, createStdoutSink, nodeSleep, systemClock } from '@heartbeat-kit/core/node';
 * import { createDefaultScanners } from '@heartbeat-kit/scanners';
 * import { nodeFileExists } from '@heartbeat-kit/scanners/node';
 *
 * const cwd = process.cwd();
 * const outcome = await runCycle(
 *   {
 *     clock: systemClock,
 *     sleep: nodeSleep,
 *     stateStore: createFileStateStore({ path: `${cwd}/.git/heartbeat-kit/state.json` }),
 *     sink: createStdoutSink(), // prints the report; a quiet cycle delivers nothing
 *     scanners: createDefaultScanners({ runner: createProcessRunner(), cwd, fileExists: nodeFileExists }),
 *   },
 *   { config: DEFAULT_HEARTBEAT_CONFIG, timeZone: 'UTC' },
 * );
 * if (outcome.decision.status === 'ok') console.log('HEARTBEAT_OK');
 * ```
 */
export async function runCycle(deps: CycleDeps, settings: CycleSettings): Promise<CycleOutcome> {
  const observer = deps.observer;
  if (observer === undefined) return runObservedCycle(deps, settings);
  return observer.cycle(async (step) => {
    const outcome = await runObservedCycle(observedDeps(deps, observer), settings);
    observeOutcome(step, outcome);
    return outcome;
  });
}

/** The operator's acks for this cycle; unread acks hold nothing, with a warning. */
async function loadAcks(ackStore: AckStore | undefined, warnings: string[]): Promise<readonly Ack[] | undefined> {
  if (ackStore === undefined) return undefined;
  const loadedAcks = await ackStore.load();
  if (loadedAcks.isOk()) {
    warnings.push(...loadedAcks.value.warnings);
    return loadedAcks.value.book.acks;
  }
  // Unread acks hold nothing: the cycle reports what it finds rather than hide it on a guess.
  warnings.push(`could not read the acks: ${loadedAcks.error.message}; no ack holds anything this cycle`);
  return undefined;
}

/** What a delivery left: the state to save and what to say about it. */
type Delivered = Omit<SinkDelivery, 'warnings'> & { readonly routes?: readonly RouteDelivery[] };

/** Each route on its own: one failing never holds another back (deliver-routes.ts). */
async function deliverByRoutes(
  deps: CycleDeps,
  settings: CycleSettings,
  step: { readonly decision: CycleDecision; readonly previousState: HeartbeatState; readonly state: HeartbeatState; readonly now: Date },
  warnings: string[],
): Promise<Delivered> {
  const { decision } = step;
  const result = await deliverRoutes(decision, step.previousState, step.state, deps.routes ?? [], {
    config: settings.config,
    timeZone: settings.timeZone,
    now: step.now,
    defaultSink: deps.sink,
    ...(settings.categories === undefined ? {} : { categories: settings.categories }),
    ...(settings.estimateTokens === undefined ? {} : { estimateTokens: settings.estimateTokens }),
  });
  warnings.push(...result.warnings);
  const outcomes = new Set(result.routes.map((r) => r.delivery));
  const delivery = outcomes.has('failed') ? 'failed' : outcomes.has('held') ? 'held' : 'delivered';
  const deliveryWhy = result.routes.find((r) => r.delivery === delivery)?.error;
  if (decision.costAlert !== null) {
    const sent = await deps.sink.deliver(decision.costAlert);
    if (sent.isErr()) warnings.push(`cost alert delivery failed: ${redactSecrets(sent.error.message)}`);
  }
  return { state: result.state, delivery, deliveryWhy, sinkBreaker: { events: [] }, routes: result.routes };
}

/** Only once the state is saved does it own what the inbox held; before, a kill must find it there. */
async function settleInbox(
  inbox: ReplyInbox,
  scanResults: readonly ScanResult[],
  state: HeartbeatState,
  warnings: string[],
): Promise<void> {
  const evaluated = new Set(scanResults.flatMap((r) => (r.status === 'ok' ? r.findings.map((f) => f.fingerprint) : [])));
  const settled = await inbox.list().andThen((listed) => inbox.remove(settledInboxIds(listed.entries, evaluated, state)));
  if (settled.isErr())
    warnings.push(
      `${settled.error.message}; its replies stay there and are offered again (the dedup window holds back those already reported)`,
    );
}

async function runObservedCycle(deps: CycleDeps, settings: CycleSettings): Promise<CycleOutcome> {
  const now = settings.now ?? deps.clock.now();
  const loaded = await loadCycleState(deps.stateStore, { dryRun: settings.dryRun === true });
  const warnings = [...loaded.warnings];
  if (loaded.kind === 'refused') return refusedOutcome(loaded.refused, loaded.state, now, warnings);
  const previousState = loaded.state;
  const acks = await loadAcks(deps.ackStore, warnings);
  const step = await scanAndEvaluate(deps, {
    state: previousState,
    config: settings.config,
    timeZone: settings.timeZone,
    now,
    ...(settings.operatorLastActiveAt === undefined ? {} : { operatorLastActiveAt: settings.operatorLastActiveAt }),
    ...(settings.concurrency === undefined ? {} : { concurrency: settings.concurrency }),
    ...(settings.scannerTimeoutMs === undefined ? {} : { scannerTimeoutMs: settings.scannerTimeoutMs }),
    ...(settings.estimateTokens ? { estimateTokens: settings.estimateTokens } : {}),
    ...(settings.categories === undefined ? {} : { categories: settings.categories }),
    ...(acks === undefined ? {} : { acks }),
    ...(settings.pause === undefined ? {} : { pause: settings.pause }),
  });
  warnings.push(...step.warnings);
  const { decision, nextState, scanResults, operatorLastActiveAt } = step;

  const base0 = { decision, scanResults, previousState, operatorLastActiveAt, problems: step.problems };
  if (settings.dryRun === true) {
    // Nothing leaves the process and nothing is remembered: the stored state stays the one loaded.
    return { ...base0, state: previousState, delivery: decision.message === null ? 'none' : 'dry-run', warnings, dryRun: true };
  }
  let delivered: Delivered;
  if ((deps.routes ?? []).length > 0 && decision.message !== null) {
    delivered = await deliverByRoutes(deps, settings, { decision, previousState, state: nextState, now }, warnings);
  } else {
    const single = await deliverToSink(deps.sink, decision, nextState, {
      config: settings.config,
      timeZone: settings.timeZone,
      now,
      previousState,
    });
    warnings.push(...single.warnings);
    delivered = single;
  }
  const { state, delivery, deliveryWhy, sinkBreaker, routes } = delivered;
  const saved = await deps.stateStore.save(encodeHeartbeatState(state));
  const saidSink = sinkBreaker.held !== undefined || sinkBreaker.advisory !== undefined || sinkBreaker.events.length > 0;
  const base = {
    ...base0,
    state,
    delivery,
    ...(deliveryWhy === undefined ? {} : { deliveryWhy }),
    warnings,
    ...(saidSink ? { sinkBreaker } : {}),
    ...(routes === undefined ? {} : { routes }),
  };
  if (saved.isErr()) {
    warnings.push(`could not save state: ${saved.error.message}`);
    return { ...base, stateError: saved.error.message };
  }
  if (deps.inbox !== undefined) await settleInbox(deps.inbox, scanResults, state, warnings);
  return base;
}
