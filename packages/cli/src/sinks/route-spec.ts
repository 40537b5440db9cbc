import { err, ok, type Result } from 'neverthrow';
import type { HeartbeatConfig, PriorityClass, Sink } from '@heartbeat-kit/core';
import type { DeliveryRoute } from '@heartbeat-kit/core/host';
import { parseSinkSpec, type SinkSpec } from './sink-spec.js';

/** One route by priority: where a class's report goes (`--route Immediate=webhook:…`, HEARTBEAT.md `## Delivery`). */
export interface RouteSpec {
  readonly priority: PriorityClass;
  readonly sink: SinkSpec;
}

/** The routes of an invocation: one per routed class, and the default sink (`--sink`, `--route default=`, `Default:`). */
export interface ResolvedRoutes {
  readonly routes: readonly RouteSpec[];
  readonly defaultSink: SinkSpec;
}

const NAMES: Readonly<Record<string, PriorityClass | 'default'>> = {
  immediate: 'Immediate',
  advisory: 'Advisory',
  normal: 'Normal',
  default: 'default',
};

const FIX =
  'Fix: --route Immediate=webhook:https://host/path (PRIORITY is Immediate, Advisory, Normal or default; SINK as --sink takes it)';

/** Parses one `--route PRIORITY=SINK` value; the error names the flag and the fix. */
export function parseRouteFlag(value: string): Result<{ priority: PriorityClass | 'default'; sink: SinkSpec }, string> {
  const eq = value.indexOf('=');
  const name = eq === -1 ? undefined : NAMES[value.slice(0, eq).trim().toLowerCase()];
  if (eq === -1 || name === undefined) return err(`--route "${value}" is not PRIORITY=SINK. ${FIX}.`);
  const sink = parseSinkSpec(value.slice(eq + 1).trim());
  if (sink.isErr()) return err(`--route ${value.slice(0, eq)}=…: ${sink.error.message.replace(/--sink/g, 'SINK')}`);
  return ok({ priority: name, sink: sink.value });
}

/**
 * Combines the routes of HEARTBEAT.md `## Delivery` with the `--route` flags (a flag replaces the
 * line of its class) and `--sink`. Errors name the flag or the file and key, and the fix.
 */
export function resolveRoutes(input: {
  readonly flags: readonly string[];
  readonly sinkFlag: SinkSpec | undefined;
  readonly delivery: HeartbeatConfig['delivery'];
  readonly file: string;
}): Result<ResolvedRoutes, string> {
  const chosen = new Map<PriorityClass | 'default', SinkSpec>();
  for (const [key, value] of Object.entries(input.delivery)) {
    if (value === undefined) continue;
    const sink = parseSinkSpec(value);
    const name = NAMES[key]!;
    if (sink.isErr())
      return err(`${input.file}: Delivery → ${key.charAt(0).toUpperCase()}${key.slice(1)}: ${sink.error.message.replace(/--sink /g, '')}`);
    chosen.set(name, sink.value);
  }
  const fromFlags = new Set<string>();
  for (const flag of input.flags) {
    const parsed = parseRouteFlag(flag);
    if (parsed.isErr()) return err(parsed.error);
    if (fromFlags.has(parsed.value.priority))
      return err(`--route ${parsed.value.priority} is given twice. Fix: one --route per priority class.`);
    fromFlags.add(parsed.value.priority);
    chosen.set(parsed.value.priority, parsed.value.sink);
  }
  if (input.sinkFlag !== undefined && fromFlags.has('default'))
    return err('--route default=… and --sink both name the default sink. Fix: keep one of them.');
  const defaultSink = input.sinkFlag ?? chosen.get('default') ?? { kind: 'stdout' };
  const routes: RouteSpec[] = [];
  for (const priority of ['Immediate', 'Advisory', 'Normal'] as const) {
    const sink = chosen.get(priority);
    if (sink !== undefined) routes.push({ priority, sink });
  }
  return ok({ routes, defaultSink });
}

/**
 * With `--json` the JSON on stdout is the delivery: a route to stdout gets `replacement` instead
 * (nothing, or the loop's JSON line), so no message is printed twice or mixed into the JSON.
 */
export function replaceStdoutRoutes(
  built: readonly DeliveryRoute[] | undefined,
  specs: readonly RouteSpec[],
  replacement: Sink | undefined,
): readonly DeliveryRoute[] | undefined {
  if (built === undefined || replacement === undefined) return built;
  return built.map((route) =>
    specs.find((spec) => spec.priority === route.priority)?.sink.kind === 'stdout'
      ? { priority: route.priority, sink: replacement }
      : route,
  );
}
