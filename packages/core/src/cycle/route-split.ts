import type { PriorityClass } from '../domain/categories.js';
import type { CategoryTable } from '../domain/category-table.js';
import type { Finding } from '../domain/finding.js';
import { stableMessageId } from '../messages/message-id.js';
import { renderWorkFound } from '../messages/render-messages.js';
import type { TokenEstimator } from '../messages/token-estimate.js';
import type { OutboundMessage } from '../ports/sink.js';
import type { CycleDecision } from './evaluate-cycle.js';
import type { ResolvedNotice } from './recovery-notices.js';

/** Name of the route that carries every priority without a route of its own. */
export const DEFAULT_ROUTE = 'default';

/** A route's name: a priority class with a route of its own, or {@link DEFAULT_ROUTE}. */
export type RouteName = PriorityClass | typeof DEFAULT_ROUTE;

/** One route's share of a cycle's report: its findings, its `RESOLVED:` lines and its own message (own id). */
export interface RoutedPart {
  readonly route: RouteName;
  readonly reportable: readonly Finding[];
  readonly resolved: readonly ResolvedNotice[];
  readonly message: OutboundMessage;
}

/** What rendering a route's message needs besides the decision. */
export interface RouteRenderContext {
  readonly timeZone: string;
  readonly budgetTokens: number;
  readonly reportsSent: number;
  readonly categories?: CategoryTable;
  readonly estimateTokens?: TokenEstimator;
}

/**
 * Splits a decision's report by priority: each routed priority class gets its own message (own
 * id, own `RESOLVED:` lines for its findings' recoveries), everything else goes to the default
 * route. Routes with nothing to say get no part. Pure.
 */
export function splitByRoute(decision: CycleDecision, routed: ReadonlySet<PriorityClass>, context: RouteRenderContext): RoutedPart[] {
  if (decision.message === null) return [];
  const routeOf = (priority: PriorityClass): RouteName => (routed.has(priority) ? priority : DEFAULT_ROUTE);
  const order: RouteName[] = ['Immediate', 'Advisory', 'Normal', DEFAULT_ROUTE];
  const parts: RoutedPart[] = [];
  for (const route of order) {
    const reportable = decision.reportable.filter((f) => routeOf(f.priority) === route);
    const resolved = (decision.resolved ?? []).filter((n) => routeOf(n.priority) === route);
    if (reportable.length === 0 && resolved.length === 0) continue;
    const rendered = renderWorkFound({
      findings: reportable,
      resolved,
      cycle: decision.cycle,
      at: new Date(decision.at),
      timeZone: context.timeZone,
      budgetTokens: context.budgetTokens,
      ...(context.categories === undefined ? {} : { categories: context.categories }),
      ...(context.estimateTokens === undefined ? {} : { estimateTokens: context.estimateTokens }),
    });
    // The route's name joins the id: two routes never share a message id, even with the same findings.
    const id = stableMessageId(rendered.message.kind, reportable, context.reportsSent, [
      `route:${route}`,
      ...resolved.map((n) => n.fingerprint),
    ]);
    parts.push({ route, reportable, resolved, message: { ...rendered.message, id } });
  }
  return parts;
}
