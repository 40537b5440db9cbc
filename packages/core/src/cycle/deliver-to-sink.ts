import type { HeartbeatConfig } from '../config/heartbeat-config-schema.js';
import { heldWhy, type Sink } from '../ports/sink.js';
import { redactSecrets } from '../text/sanitize.js';
import type { CycleDecision } from './cycle-decision.js';
import type { HeartbeatState } from './heartbeat-state.js';
import { markDelivered } from './mark-delivered.js';
import { sinkDeliveryHeld, updateSinkBreaker, type SinkAttempt, type SinkBreakerReport } from './sink-breaker.js';

/** How a cycle's message fared with its sink. */
export type SinkDeliveryKind = 'none' | 'delivered' | 'failed' | 'held';

/** What one delivery to the cycle's sink did, and the state with its outcome and the sink's breaker. */
export interface SinkDelivery {
  readonly state: HeartbeatState;
  readonly delivery: SinkDeliveryKind;
  readonly deliveryWhy?: string | undefined;
  readonly sinkBreaker: SinkBreakerReport;
  readonly warnings: readonly string[];
}

/** The cycle a delivery belongs to: its settings and the state it started from. */
export interface SinkDeliveryContext {
  readonly config: HeartbeatConfig;
  readonly timeZone: string;
  readonly now: Date;
  readonly previousState: HeartbeatState;
}

type Attempted = Pick<SinkDelivery, 'delivery' | 'deliveryWhy'> & { readonly attempt: SinkAttempt; readonly warning?: string };

async function sendMessage(sink: Sink, message: NonNullable<CycleDecision['message']>): Promise<Attempted> {
  const sent = await sink.deliver(message);
  const sinkHeld = sent.isOk() ? heldWhy(sent.value) : undefined;
  if (sinkHeld !== undefined) {
    // Held by the sink itself (a busy pane): not a failure, so the breaker is left as it was.
    const deliveryWhy = redactSecrets(sinkHeld);
    const warning = `delivery held by ${sink.name ?? 'the sink'}: ${deliveryWhy}; the findings stay unreported and are offered again next cycle`;
    return { delivery: 'held', deliveryWhy, attempt: { kind: 'not-tried' }, warning };
  }
  if (sent.isOk()) return { delivery: 'delivered', attempt: { kind: 'delivered' } };
  const why = redactSecrets(sent.error.message);
  const attempt: SinkAttempt = { kind: 'failed', code: redactSecrets(sent.error.code ?? sent.error.message), message: why };
  const warning = `delivery failed: ${why}; the findings stay unreported and will be retried`;
  return { delivery: 'failed', deliveryWhy: why, attempt, warning };
}

/**
 * Delivers the decision's message (and its cost alert) to the one sink, through the sink's circuit
 * breaker: a sink failing the same way N cycles in a row is tried only every 2nd, 4th, … cycle; in
 * between the report is held back, unreported, and offered again (sink-breaker.ts).
 */
export async function deliverToSink(
  sink: Sink,
  decision: CycleDecision,
  state: HeartbeatState,
  context: SinkDeliveryContext,
): Promise<SinkDelivery> {
  const { config, previousState } = context;
  const warnings: string[] = [];
  const breakerContext = { cycle: decision.cycle, now: context.now, timeZone: context.timeZone, settings: config.breaker };
  const held = decision.message === null ? undefined : sinkDeliveryHeld(previousState.sinkBreaker, decision.cycle, config.breaker);
  let attempted: Attempted = { delivery: 'none', attempt: { kind: 'not-tried' } };
  let next = state;
  if (held !== undefined) {
    attempted = { delivery: 'held', deliveryWhy: held.line, attempt: { kind: 'not-tried' }, warning: held.line };
  } else if (decision.message !== null) {
    attempted = await sendMessage(sink, decision.message);
    if (attempted.delivery === 'delivered') next = markDelivered(next, decision, context.now);
  }
  if (attempted.warning !== undefined) warnings.push(attempted.warning);
  if (decision.costAlert !== null && held === undefined) {
    const sent = await sink.deliver(decision.costAlert);
    if (sent.isErr()) warnings.push(`cost alert delivery failed: ${redactSecrets(sent.error.message)}`);
    else if (heldWhy(sent.value) !== undefined) warnings.push(`cost alert held: ${redactSecrets(heldWhy(sent.value) ?? '')}`);
  }
  const sinkReport = updateSinkBreaker(previousState.sinkBreaker, sink.name ?? 'sink', attempted.attempt, breakerContext);
  next = { ...next };
  if (sinkReport.breaker === undefined) delete next.sinkBreaker;
  else next.sinkBreaker = sinkReport.breaker;
  return {
    state: next,
    delivery: attempted.delivery,
    ...(attempted.deliveryWhy === undefined ? {} : { deliveryWhy: attempted.deliveryWhy }),
    sinkBreaker: held === undefined ? sinkReport : { ...sinkReport, held },
    warnings,
  };
}
