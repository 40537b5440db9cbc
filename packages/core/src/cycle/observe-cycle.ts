// Wires an optional CycleObserver around a cycle's scanners and sinks, and sets the decision on the cycle's step.
import { ResultAsync } from 'neverthrow';
import type { CycleObserver, ObservedStep } from '../ports/cycle-observer.js';
import type { Scanner } from '../ports/scanner.js';
import type { Sink } from '../ports/sink.js';
import { redactSecrets } from '../text/sanitize.js';
import type { CycleDecision } from './evaluate-cycle.js';

// Structural views of run-cycle's deps and outcome, so this module does not import run-cycle
// (which imports it): no import circle.
interface ObservableDeps {
  readonly scanners: readonly Scanner[];
  readonly sink: Sink;
  readonly routes?: readonly { readonly sink: Sink }[] | undefined;
}
interface ObservableOutcome {
  readonly decision: CycleDecision;
  readonly delivery: string;
  readonly dryRun?: true;
  readonly stateError?: string;
  readonly refused?: { readonly reason: string };
}

/** A scanner whose every scan runs inside the observer's `scanner` step, its result as attributes. */
function observedScanner(scanner: Scanner, observer: CycleObserver): Scanner {
  return {
    ...scanner,
    scan: (context) =>
      observer.scanner(scanner.name, async (step) => {
        const result = await scanner.scan(context);
        const findings = result.status === 'ok' ? result.findings.length : 0;
        step.set({ 'heartbeat.scanner': scanner.name, 'heartbeat.scanner.status': result.status, 'heartbeat.scanner.findings': findings });
        if (result.status === 'error' || result.status === 'timeout') step.fail(`${scanner.name} ${result.status}`);
        return result;
      }),
  };
}

/** A sink whose every delivery runs inside the observer's `delivery` step. */
function observedSink(sink: Sink, observer: CycleObserver): Sink {
  const name = sink.name ?? 'sink';
  return {
    ...sink,
    deliver: (message) =>
      new ResultAsync(
        observer.delivery(name, async (step: ObservedStep) => {
          const sent = await sink.deliver(message);
          step.set({
            'heartbeat.sink': name,
            'heartbeat.message.kind': message.kind,
            ...(message.id === undefined ? {} : { 'heartbeat.message.id': message.id }),
          });
          if (sent.isErr()) step.fail(redactSecrets(sent.error.message));
          return sent;
        }),
      ),
  };
}

/** The deps with every scanner and sink observed. */
export function observedDeps<D extends ObservableDeps>(deps: D, observer: CycleObserver): D {
  return {
    ...deps,
    scanners: deps.scanners.map((s) => observedScanner(s, observer)),
    sink: observedSink(deps.sink, observer),
    ...(deps.routes === undefined ? {} : { routes: deps.routes.map((r) => ({ ...r, sink: observedSink(r.sink, observer) })) }),
  };
}

/** The cycle's decision as attributes of its step. */
export function observeOutcome(step: ObservedStep, outcome: ObservableOutcome): void {
  const d = outcome.decision;
  step.set({
    'heartbeat.cycle': d.cycle,
    'heartbeat.status': outcome.refused === undefined ? d.status : 'refused',
    'heartbeat.delivery': outcome.delivery,
    'heartbeat.findings': d.reportable.length,
    'heartbeat.categories': [...d.categories],
    'heartbeat.suppressed': d.suppressed.length,
    'heartbeat.held': d.held.length,
    'heartbeat.inside_active_hours': d.insideActiveHours,
    'heartbeat.operator_idle': d.operatorIdle,
    'heartbeat.estimated_tokens': d.estimatedTokens,
    ...(d.message?.id === undefined ? {} : { 'heartbeat.message.id': d.message.id }),
    ...(outcome.dryRun === true ? { 'heartbeat.dry_run': true } : {}),
  });
  if (outcome.delivery === 'failed') step.fail('delivery failed');
  else if (outcome.stateError !== undefined) step.fail('state not saved');
  else if (outcome.refused !== undefined) step.fail(outcome.refused.reason);
}
