import type { PriorityClass } from '../domain/categories.js';
import type { CategoryTable } from '../domain/category-table.js';
import type { HeartbeatConfig } from '../config/heartbeat-config-schema.js';
import type { TokenEstimator } from '../messages/token-estimate.js';
import { heldWhy, type Sink } from '../ports/sink.js';
import { redactSecrets } from '../text/sanitize.js';
import { markDelivered, type CycleDecision } from './evaluate-cycle.js';
import type { HeartbeatState } from './heartbeat-state.js';
import { DEFAULT_ROUTE, splitByRoute, type RouteName } from './route-split.js';
import { sinkDeliveryHeld, updateSinkBreaker, type SinkAttempt, type SinkBreakerEvent } from './sink-breaker.js';

/** A route of its own for one priority class (`--route Immediate=webhook:…`, HEARTBEAT.md `## Delivery`). */
export interface DeliveryRoute {
  readonly priority: PriorityClass;
  readonly sink: Sink;
}

/** What one route did this cycle: its own message id, outcome and breaker. */
export interface RouteDelivery {
  readonly route: RouteName;
  /** The route's sink as the operator knows it (`webhook`, `file`, …). */
  readonly sink: string;
  readonly delivery: 'delivered' | 'failed' | 'held';
  readonly messageId: string;
  readonly findings: number;
  readonly resolved: number;
  /** The failure (redacted), the breaker's held line, or the sink's reason for holding it. */
  readonly error?: string;
  /** The route's breaker tripped, recovered or changed this cycle. */
  readonly events?: readonly SinkBreakerEvent[];
}

/** What {@link deliverRoutes} needs besides the decision. */
export interface RouteDeliveryContext {
  readonly config: HeartbeatConfig;
  readonly timeZone: string;
  readonly now: Date;
  readonly categories?: CategoryTable;
  readonly estimateTokens?: TokenEstimator;
  /** The sink of every priority without a route of its own. */
  readonly defaultSink: Sink;
}

function breakerOf(state: HeartbeatState, route: RouteName): HeartbeatState['sinkBreaker'] {
  return route === DEFAULT_ROUTE ? state.sinkBreaker : state.routeBreakers?.[route];
}

function withBreaker(state: HeartbeatState, route: RouteName, breaker: HeartbeatState['sinkBreaker']): HeartbeatState {
  const next: HeartbeatState = { ...state };
  if (route === DEFAULT_ROUTE) {
    if (breaker === undefined) delete next.sinkBreaker;
    else next.sinkBreaker = breaker;
    return next;
  }
  const routeBreakers = { ...(state.routeBreakers ?? {}) };
  if (breaker === undefined) delete routeBreakers[route];
  else routeBreakers[route] = breaker;
  if (Object.keys(routeBreakers).length === 0) delete next.routeBreakers;
  else next.routeBreakers = routeBreakers;
  return next;
}

/**
 * Delivers a decision's report split by route: each route gets its own message (own id), its own
 * sink with its own retries, its own circuit breaker, and is marked delivered on its own. The
 * routes are delivered one after the other but independently: a route that fails or is held back
 * never holds another back, and its findings stay unreported for the next cycle.
 */
export async function deliverRoutes(
  decision: CycleDecision,
  previousState: HeartbeatState,
  evaluated: HeartbeatState,
  routes: readonly DeliveryRoute[],
  context: RouteDeliveryContext,
): Promise<{ state: HeartbeatState; routes: RouteDelivery[]; warnings: string[] }> {
  const sinks = new Map<RouteName, Sink>(routes.map((r) => [r.priority, r.sink]));
  sinks.set(DEFAULT_ROUTE, context.defaultSink);
  const parts = splitByRoute(decision, new Set(routes.map((r) => r.priority)), {
    timeZone: context.timeZone,
    budgetTokens: context.config.actionableBudgetTokens,
    reportsSent: previousState.reportsSent,
    ...(context.categories === undefined ? {} : { categories: context.categories }),
    ...(context.estimateTokens === undefined ? {} : { estimateTokens: context.estimateTokens }),
  });
  const breakerContext = { cycle: decision.cycle, now: context.now, timeZone: context.timeZone, settings: context.config.breaker };
  let state = evaluated;
  const out: RouteDelivery[] = [];
  const warnings: string[] = [];
  for (const part of parts) {
    const sink = sinks.get(part.route) ?? context.defaultSink;
    const name = `${sink.name ?? 'sink'} (route ${part.route})`;
    const before = breakerOf(previousState, part.route);
    const base = {
      route: part.route,
      sink: sink.name ?? 'sink',
      messageId: part.message.id ?? '',
      findings: part.reportable.length,
      resolved: part.resolved.length,
    };
    const held = sinkDeliveryHeld(before, decision.cycle, context.config.breaker);
    let attempt: SinkAttempt = { kind: 'not-tried' };
    let result: RouteDelivery;
    if (held !== undefined) {
      warnings.push(held.line);
      result = { ...base, delivery: 'held', error: held.line };
    } else {
      const sent = await sink.deliver(part.message);
      const sinkHeld = sent.isOk() ? heldWhy(sent.value) : undefined;
      if (sinkHeld !== undefined) {
        // The sink held it (a busy pane): unreported and offered again, and no failure for the breaker.
        const why = redactSecrets(sinkHeld);
        warnings.push(
          `delivery to route ${part.route} held by ${sink.name ?? 'the sink'}: ${why}; its findings stay unreported and are offered again next cycle`,
        );
        result = { ...base, delivery: 'held', error: why };
      } else if (sent.isOk()) {
        attempt = { kind: 'delivered' };
        state = markDelivered(state, decision, context.now, part);
        result = { ...base, delivery: 'delivered' };
      } else {
        const message = redactSecrets(sent.error.message);
        attempt = { kind: 'failed', code: redactSecrets(sent.error.code ?? sent.error.message), message };
        warnings.push(`delivery to route ${part.route} failed: ${message}; its findings stay unreported and will be retried`);
        result = { ...base, delivery: 'failed', error: message };
      }
    }
    const report = updateSinkBreaker(before, name, attempt, breakerContext);
    state = withBreaker(state, part.route, report.breaker);
    for (const event of report.events) warnings.push(event.line);
    out.push(report.events.length > 0 ? { ...result, events: report.events } : result);
  }
  return { state, routes: out, warnings };
}
