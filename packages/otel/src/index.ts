/**
 * Optional OpenTelemetry tracing for heartbeat-kit: a {@link CycleObserver} that opens a span for
 * the cycle, each scanner and each delivery (the decision as attributes), and a command runner that
 * opens one per command under the scanner that ran it. Depends only on `@opentelemetry/api`: the
 * application registers its own SDK and exporter; without one every span is a no-op. Nothing loads
 * this package unless the application imports it.
 */
import { SpanStatusCode, trace, type Attributes, type Span, type Tracer } from '@opentelemetry/api';
import type { CommandRunner, CycleObserver, ObservedStep } from '@heartbeat-kit/core';

/** The tracer name (and instrumentation scope) of heartbeat-kit's spans. */
export const HEARTBEAT_TRACER_NAME = '@heartbeat-kit/otel';

function defaultTracer(): Tracer {
  return trace.getTracer(HEARTBEAT_TRACER_NAME);
}

function stepOf(span: Span): ObservedStep {
  return {
    set: (attributes) => span.setAttributes(attributes as Attributes),
    fail: (message) => span.setStatus({ code: SpanStatusCode.ERROR, message }),
  };
}

/**
 * The observer to put in `runCycle`'s deps (`{ ...deps, observer: createOtelCycleObserver() }`):
 * spans `heartbeat.cycle` → `heartbeat.scanner <name>` / `heartbeat.deliver <sink>`, each the active
 * span while its step runs, so the commands a scanner runs nest under it.
 */
export function createOtelCycleObserver(tracer: Tracer = defaultTracer()): CycleObserver {
  const step = <T>(name: string, attributes: Attributes, run: (step: ObservedStep) => Promise<T>): Promise<T> =>
    tracer.startActiveSpan(name, { attributes }, async (span) => {
      try {
        return await run(stepOf(span));
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'thrown' });
        throw error;
      } finally {
        span.end();
      }
    });
  return {
    cycle: (run) => step('heartbeat.cycle', {}, run),
    scanner: (name, run) => step(`heartbeat.scanner ${name}`, { 'heartbeat.scanner': name }, run),
    delivery: (sink, run) => step(`heartbeat.deliver ${sink}`, { 'heartbeat.sink': sink }, run),
  };
}

/**
 * A command runner that opens a `heartbeat.command <program>` span per command, under the active
 * span (the scanner's). It records the program's name, the tool profile, the exit code or the
 * failure's kind — never the arguments, the environment or the output, which may hold secrets.
 */
export function tracedCommandRunner(runner: CommandRunner, tracer: Tracer = defaultTracer()): CommandRunner {
  return {
    run: (request, signal) => {
      const program = request.file.split('/').pop() ?? request.file;
      const span = tracer.startSpan(`heartbeat.command ${program}`, {
        attributes: { 'process.executable.name': program, 'heartbeat.command.profile': request.profile ?? 'command' },
      });
      return runner
        .run(request, signal)
        .map((output) => {
          span.setAttribute('process.exit.code', output.exitCode);
          if (output.exitCode !== 0) span.setStatus({ code: SpanStatusCode.ERROR, message: `exit ${output.exitCode}` });
          span.end();
          return output;
        })
        .mapErr((error) => {
          span.setAttribute('heartbeat.command.error', error.kind);
          span.setStatus({ code: SpanStatusCode.ERROR, message: error.kind });
          span.end();
          return error;
        });
    },
  };
}
