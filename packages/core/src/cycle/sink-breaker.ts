import { z } from 'zod';
import { createFinding, type Finding } from '../domain/finding.js';
import { formatLocalTimestamp } from '../time/local-timestamp.js';
import { sanitizeForMessage } from '../text/sanitize.js';
import { breakerHoldsBack, stepBreaker, type BreakerSettings, type BreakerStreak } from './breaker-decision.js';

/** Category of the one Advisory finding a tripped sink breaker raises. */
export const SINK_FAILING = 'SINK_FAILING';

/** Code of a delivery the sink breaker held back (said in the cycle's warnings and `--json`). */
export const SINK_BREAKER_OPEN = 'SINK_BREAKER_OPEN';

/**
 * Schema of the sink's circuit breaker in the state. It exists only while deliveries fail the
 * same way (`code`); a delivery that works removes it.
 */
export const sinkBreakerSchema = z.object({
  /** The sink's name as the operator knows it (`webhook`, `command`, …). */
  sink: z.string().min(1).max(60),
  /** How deliveries fail (`HTTP 503`, `exit 1`, …): the same code is "failing the same way". */
  code: z.string().min(1).max(200),
  /** The latest failure's message (already redacted by the sink). */
  message: z.string().max(400),
  sinceMs: z.number().int().nonnegative(),
  failures: z.number().int().positive().max(1_000_000_000),
  backoff: z.number().int().nonnegative().max(100),
  /** The first cycle a delivery is tried again while tripped. */
  nextRunCycle: z.number().int().nonnegative(),
});

/** The sink's circuit breaker, as kept in the state. */
export type SinkBreaker = z.infer<typeof sinkBreakerSchema>;

/** What happened to this cycle's delivery, as the sink breaker counts it. */
export type SinkAttempt =
  /** Nothing to deliver, or held back by the breaker: says nothing. */
  | { readonly kind: 'not-tried' }
  | { readonly kind: 'delivered' }
  | { readonly kind: 'failed'; readonly code: string; readonly message: string };

/** What the sink breaker says this cycle (absent fields: nothing to say). */
export interface SinkBreakerReport {
  /** The breaker after this cycle (absent while the sink works). */
  readonly breaker?: SinkBreaker;
  /** Set when this cycle's report was not tried: held back, it stays undelivered. */
  readonly held?: { readonly nextRunCycle: number; readonly line: string };
  /** Set once, the cycle the breaker trips: the SINK_FAILING advisory for the operator's channel. */
  readonly advisory?: Finding;
  /** Said once each: `tripped`, `recovered` (a delivery worked again) or `changed` (it fails another way now). */
  readonly events: readonly SinkBreakerEvent[];
}

/** A change of the sink breaker, said once (stderr in text mode, `sink.events` in JSON). */
export interface SinkBreakerEvent {
  readonly kind: 'tripped' | 'recovered' | 'changed';
  /** One line for the operator. */
  readonly line: string;
}

/** What the sink breaker needs besides the attempt. */
export interface SinkBreakerContext {
  readonly cycle: number;
  readonly now: Date;
  readonly timeZone: string;
  readonly settings: BreakerSettings;
}

function sinceText(sinceMs: number, context: SinkBreakerContext): string {
  const since = formatLocalTimestamp(new Date(sinceMs), context.timeZone);
  const today = formatLocalTimestamp(context.now, context.timeZone);
  return since.slice(0, 10) === today.slice(0, 10) ? since.slice(11, 16) : `${since.slice(0, 10)} ${since.slice(11, 16)}`;
}

function safe(text: string, maxLength: number): string {
  return sanitizeForMessage(text, { maxLength });
}

function every(n: number): string {
  if (n <= 1) return 'every cycle';
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : n % 10 === 1 ? 'st' : n % 10 === 2 ? 'nd' : n % 10 === 3 ? 'rd' : 'th';
  return `every ${n}${suffix} cycle`;
}

function streakText(entry: SinkBreaker, context: SinkBreakerContext): string {
  return `${entry.failures} failed deliver${entry.failures === 1 ? 'y' : 'ies'} in a row (${safe(entry.code, 60)} since ${sinceText(entry.sinceMs, context)})`;
}

/**
 * Whether the sink breaker holds this cycle's delivery back: tripped and not yet at its next
 * try. The report is then not tried and stays undelivered (retried at the next try).
 */
export function sinkDeliveryHeld(
  breaker: SinkBreaker | undefined,
  cycle: number,
  settings: BreakerSettings,
): { readonly nextRunCycle: number; readonly line: string } | undefined {
  if (breaker === undefined || !breakerHoldsBack(breaker, cycle, settings)) return undefined;
  const name = safe(breaker.sink, 60);
  return {
    nextRunCycle: breaker.nextRunCycle,
    line: `${SINK_BREAKER_OPEN}: ${name} not tried this cycle: its circuit breaker is open after ${breaker.failures} failed deliveries in a row (${safe(breaker.code, 60)}: ${safe(breaker.message, 200)}); the report stays undelivered and is tried again at cycle ${breaker.nextRunCycle}`,
  };
}

function advisory(entry: SinkBreaker, context: SinkBreakerContext): Finding {
  const name = safe(entry.sink, 60);
  const since = sinceText(entry.sinceMs, context);
  const retry =
    context.settings.backoffCap > 1
      ? `tried again every 2nd cycle, backing off to ${every(context.settings.backoffCap)}`
      : 'tried every cycle';
  return createFinding({
    category: SINK_FAILING,
    priority: 'Advisory',
    subject: `${entry.sink}:${entry.code}:${entry.sinceMs}`,
    line: `SINK_FAILING: ${name} — ${safe(entry.code, 60)} since ${since}, ${entry.failures} cycles; reports stay undelivered and are ${retry}`,
    action: `Fix the ${name} sink (${safe(entry.message, 200)}); the undelivered reports are sent once a delivery works`,
    short: `${name} sink failing`,
    details: {
      sink: entry.sink,
      code: entry.code,
      message: entry.message,
      since: new Date(entry.sinceMs).toISOString(),
      failures: entry.failures,
    },
    content: { sink: entry.sink, code: entry.code, since: entry.sinceMs },
  });
}

/**
 * Updates the sink's circuit breaker from this cycle's delivery. Deliveries failing the same way
 * `after` cycles in a row trip it: one SINK_FAILING advisory (returned once, for the caller to put
 * on the operator's channel, since the sink itself cannot carry it) and a `tripped` line; then a
 * report is tried only every 2nd, 4th, … cycle up to the cap (held back in between, never
 * dropped). The first delivery that works closes it with one `recovered` line. Pure.
 */
export function updateSinkBreaker(
  previous: SinkBreaker | undefined,
  sink: string,
  attempt: SinkAttempt,
  context: SinkBreakerContext,
): SinkBreakerReport {
  const { settings, cycle } = context;
  const before = previous !== undefined && previous.sink === sink ? previous : undefined;
  const step = stepBreaker(
    before,
    attempt.kind === 'not-tried'
      ? { kind: 'hold' }
      : attempt.kind === 'delivered'
        ? { kind: 'clean' }
        : { kind: 'fail', code: attempt.code.slice(0, 200) || 'failed', backsOff: true },
    { cycle, nowMs: context.now.getTime() },
    settings,
  );
  const streak: BreakerStreak | undefined = step.streak;
  const breaker: SinkBreaker | undefined =
    streak === undefined
      ? undefined
      : attempt.kind === 'failed'
        ? { ...streak, sink: sink.slice(0, 60) || 'sink', message: attempt.message.slice(0, 400) }
        : before;
  const events: SinkBreakerEvent[] = [];
  if (step.ended !== undefined && before !== undefined) {
    const name = safe(sink, 60);
    events.push(
      step.ended.kind === 'recovered'
        ? {
            kind: 'recovered',
            line: `${name} sink recovered: a delivery worked after ${streakText(before, context)}; circuit breaker closed, reports are delivered every cycle again`,
          }
        : {
            kind: 'changed',
            line: `${name} sink no longer fails with ${safe(before.code, 60)} after ${streakText(before, context)}; now: ${breaker === undefined ? 'unknown' : `${safe(breaker.code, 60)}: ${safe(breaker.message, 200)}`}`,
          },
    );
  }
  let found: Finding | undefined;
  if (step.trippedNow && breaker !== undefined) {
    found = advisory(breaker, context);
    events.push({
      kind: 'tripped',
      line: `${safe(sink, 60)} sink: circuit breaker open after ${streakText(breaker, context)}; raised SINK_FAILING once; reports stay undelivered and are tried ${every(breaker.backoff)} now, backing off to ${every(settings.backoffCap)}`,
    });
  }
  return {
    ...(breaker === undefined ? {} : { breaker }),
    ...(found === undefined ? {} : { advisory: found }),
    events,
  };
}
