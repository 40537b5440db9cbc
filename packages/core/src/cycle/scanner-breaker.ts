import { z } from 'zod';
import { createFinding, fingerprintOf, type Finding } from '../domain/finding.js';
import { OUTSIDE_ACTIVE_HOURS_REASON, type ScanResult, type ScannerName } from '../domain/scan-result.js';
import { formatLocalTimestamp } from '../messages/local-time.js';
import { sanitizeForMessage } from '../text/sanitize.js';
import { scanProblems } from './scan-problems.js';
import { breakerHoldsBack, isBreakerTripped, stepBreaker, type BreakerObservation, type BreakerSettings } from './breaker-decision.js';

export type { BreakerSettings } from './breaker-decision.js';

/** Code of a scanner the circuit breaker did not run this cycle (its skip is a `warning` problem). */
export const BREAKER_SKIP_CODE = 'SCANNER_BREAKER_OPEN';

/** Category of the one Advisory finding a tripped breaker raises. */
export const SCANNER_FAILING = 'SCANNER_FAILING';

/** At most this many breakers are kept (one per scanner that is failing). */
export const MAX_BREAKERS = 64;

const MAX_FAILURES = 1_000_000_000;

/**
 * Schema of one scanner's breaker in the state. It exists only while the scanner fails the same
 * way (`code`); a clean run removes it.
 */
export const scannerBreakerSchema = z.object({
  /** The failure's code(s), `+`-joined: the same code is "failing the same way". */
  code: z.string().min(1).max(200),
  /** The latest failure's message and fix (already sanitised by `scanProblems`). */
  message: z.string().max(400),
  fix: z.string().max(400),
  /** When the streak began (epoch ms). */
  sinceMs: z.number().int().nonnegative(),
  /** Consecutive cycles the scanner ran and failed this way (cycles it was not run do not count). */
  failures: z.number().int().positive().max(MAX_FAILURES),
  /** It looked at nothing (skipped, failed, timed out), so its runs may be backed off; a degraded one never is. */
  skippable: z.boolean(),
  /** Cycles between runs while tripped (2, 4, … up to the cap); 0 while not tripped. */
  backoff: z.number().int().nonnegative().max(100),
  /** The first cycle it runs again while tripped. */
  nextRunCycle: z.number().int().nonnegative(),
  /** Its SCANNER_FAILING advisory was delivered: it is not raised again for this streak. */
  advised: z.boolean(),
});

/** One scanner's circuit breaker, as kept in the state. */
export type ScannerBreaker = z.infer<typeof scannerBreakerSchema>;

/** A change of a breaker that is said once, on stderr in text mode and under `breaker` in JSON. */
export interface BreakerEvent {
  /** `tripped`: N failing cycles in a row; `recovered`: it ran cleanly; `changed`: the streak ended without a clean run. */
  readonly kind: 'tripped' | 'recovered' | 'changed';
  readonly scanner: ScannerName;
  readonly code: string;
  readonly failures: number;
  readonly since: string;
  /** One line for the operator. */
  readonly line: string;
}

/** What {@link updateBreakers} decided for one cycle. */
export interface BreakerUpdate {
  readonly breakers: Record<string, ScannerBreaker>;
  /** SCANNER_FAILING advisories of tripped breakers whose advisory was not delivered yet. */
  readonly findings: Finding[];
  readonly events: BreakerEvent[];
}

/** What the cycle needs besides the results to update the breakers. */
export interface BreakerContext {
  /** The number of the cycle being evaluated. */
  readonly cycle: number;
  readonly now: Date;
  readonly timeZone: string;
  readonly settings: BreakerSettings;
}

function isTripped(entry: ScannerBreaker, settings: BreakerSettings): boolean {
  return isBreakerTripped(entry, settings);
}

function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${n % 10 === 1 ? 'st' : n % 10 === 2 ? 'nd' : n % 10 === 3 ? 'rd' : 'th'}`;
}

function every(n: number): string {
  return n <= 1 ? 'every cycle' : `every ${ordinal(n)} cycle`;
}

/** `09:10` on the same local day as now, else `2026-02-18 09:10`. */
function sinceText(sinceMs: number, context: BreakerContext): string {
  const since = formatLocalTimestamp(new Date(sinceMs), context.timeZone);
  const today = formatLocalTimestamp(context.now, context.timeZone);
  return since.slice(0, 10) === today.slice(0, 10) ? since.slice(11, 16) : `${since.slice(0, 10)} ${since.slice(11, 16)}`;
}

function safeName(scanner: ScannerName): string {
  return sanitizeForMessage(scanner, { maxLength: 60 });
}

/**
 * The scanners the breaker does not run this cycle, as the skip results the cycle reports in
 * their place: tripped, looking at nothing when they fail, and not yet due for their next try.
 * A back-off is never longer than the cap, whatever the stored state says.
 */
export function breakerSkips(
  breakers: Readonly<Record<string, ScannerBreaker>> | undefined,
  cycle: number,
  settings: BreakerSettings,
): Map<ScannerName, Extract<ScanResult, { status: 'skipped' }>> {
  const skips = new Map<ScannerName, Extract<ScanResult, { status: 'skipped' }>>();
  if (breakers === undefined) return skips;
  for (const [scanner, entry] of Object.entries(breakers)) {
    if (!entry.skippable || !breakerHoldsBack(entry, cycle, settings)) continue;
    skips.set(scanner, {
      scanner,
      status: 'skipped',
      reason: `not run this cycle: its circuit breaker is open after ${entry.failures} failing cycles in a row (${entry.code}: ${entry.message}); next try at cycle ${entry.nextRunCycle}`,
      durationMs: 0,
      fix: entry.fix,
      configured: true,
      code: BREAKER_SKIP_CODE,
    });
  }
  return skips;
}

type Outcome =
  | { readonly kind: 'hold' }
  | { readonly kind: 'fail'; readonly code: string; readonly message: string; readonly fix: string; readonly skippable: boolean }
  | { readonly kind: 'clean' }
  | { readonly kind: 'other'; readonly message: string };

/**
 * How one result counts: a `warning` problem (a failure, a timeout, a skip of something set up,
 * a degraded run) is a failure; a skip by design (outside active hours, by the breaker) or a
 * cut-off by a signal says nothing; a notice (nothing set up) ends a streak without being a fix.
 */
function outcomeOf(result: ScanResult): Outcome {
  if (result.status === 'skipped' && (result.code === BREAKER_SKIP_CODE || result.reason === OUTSIDE_ACTIVE_HOURS_REASON))
    return { kind: 'hold' };
  const problems = scanProblems([result]);
  if (problems.some((p) => p.kind === 'cut-off')) return { kind: 'hold' };
  const counted = problems.filter((p) => p.severity === 'warning');
  const first = counted[0];
  if (first !== undefined) {
    const code = [...new Set(counted.map((p) => p.code))].sort().join('+').slice(0, 200);
    return { kind: 'fail', code, message: first.message, fix: first.fix, skippable: result.status !== 'ok' };
  }
  const notice = problems[0];
  return notice === undefined ? { kind: 'clean' } : { kind: 'other', message: notice.message };
}

function advisory(scanner: ScannerName, entry: ScannerBreaker, context: BreakerContext): Finding {
  const name = safeName(scanner);
  const since = sinceText(entry.sinceMs, context);
  const retry =
    entry.skippable && context.settings.backoffCap > 1
      ? `; tried again every 2nd cycle, backing off to ${every(context.settings.backoffCap)}`
      : '';
  return createFinding({
    category: SCANNER_FAILING,
    priority: 'Advisory',
    subject: `${scanner}:${entry.code}:${entry.sinceMs}`,
    line: `SCANNER_FAILING: ${name} — ${entry.message} since ${since}, ${entry.failures} cycles${retry}`,
    action: `Fix ${name}: ${entry.fix}`,
    short: `${name} failing`,
    details: {
      scanner,
      code: entry.code,
      message: entry.message,
      fix: entry.fix,
      since: new Date(entry.sinceMs).toISOString(),
      failures: entry.failures,
    },
    // The failure count grows every cycle; it is not a change worth a report of its own.
    content: { scanner, code: entry.code, message: entry.message, since: entry.sinceMs },
  });
}

function advisoryFingerprint(scanner: ScannerName, entry: ScannerBreaker): string {
  return fingerprintOf(SCANNER_FAILING, `${scanner}:${entry.code}:${entry.sinceMs}`);
}

function event(
  kind: BreakerEvent['kind'],
  scanner: ScannerName,
  entry: ScannerBreaker,
  context: BreakerContext,
  now?: string,
): BreakerEvent {
  const name = safeName(scanner);
  const streak = `${entry.failures} failing cycle${entry.failures === 1 ? '' : 's'} in a row (${entry.code} since ${sinceText(entry.sinceMs, context)})`;
  const line =
    kind === 'tripped'
      ? `${name}: circuit breaker open after ${streak}; raised SCANNER_FAILING once; ${entry.skippable ? `it runs ${every(entry.backoff)} now, backing off to ${every(context.settings.backoffCap)}` : 'it still runs every cycle (it looks at part of what it watches)'}`
      : kind === 'recovered'
        ? `${name} recovered: it ran cleanly after ${streak}; circuit breaker closed, it runs every cycle again`
        : `${name} no longer fails with ${entry.code} after ${streak}${now === undefined ? '' : `; now: ${now}`}; circuit breaker closed, it runs every cycle again`;
  return { kind, scanner, code: entry.code, failures: entry.failures, since: new Date(entry.sinceMs).toISOString(), line };
}

/**
 * Updates every scanner's circuit breaker from this cycle's results. A scanner failing the same
 * way `after` cycles in a row trips: one SCANNER_FAILING advisory (offered until delivered — it
 * is delivered when `reported` holds its fingerprint) and, when it looked at nothing, runs every
 * 2nd, 4th, … cycle up to the cap. A clean run closes it with one `recovered` line. Pure: the
 * cycle evaluator calls it, so replays reproduce it.
 */
export function updateBreakers(
  previous: Readonly<Record<string, ScannerBreaker>> | undefined,
  reported: Readonly<Record<string, number>>,
  results: readonly ScanResult[],
  context: BreakerContext,
): BreakerUpdate {
  const { settings, cycle } = context;
  const breakers: Record<string, ScannerBreaker> = {};
  const findings: Finding[] = [];
  const events: BreakerEvent[] = [];
  if (settings.after === 0) return { breakers, findings, events };
  const nowMs = context.now.getTime();
  const done = new Set<ScannerName>();
  for (const result of results) {
    const scanner = result.scanner;
    if (done.has(scanner) || done.size >= MAX_BREAKERS) continue;
    done.add(scanner);
    const before = previous !== undefined && Object.hasOwn(previous, scanner) ? previous[scanner] : undefined;
    const outcome = outcomeOf(result);
    const observation: BreakerObservation =
      outcome.kind === 'fail' ? { kind: 'fail', code: outcome.code, backsOff: outcome.skippable } : outcome;
    const step = stepBreaker(before, observation, { cycle, nowMs }, settings);
    if (step.ended !== undefined && before !== undefined) {
      const ended = { ...before, ...step.ended.previous };
      const now = outcome.kind === 'fail' ? `${outcome.code}: ${outcome.message}` : outcome.kind === 'other' ? outcome.message : undefined;
      events.push(event(step.ended.kind, scanner, ended, context, now));
    }
    let entry: ScannerBreaker | undefined;
    if (step.streak === undefined) entry = undefined;
    else if (outcome.kind !== 'fail') entry = before;
    else {
      entry = {
        ...step.streak,
        message: outcome.message,
        fix: outcome.fix,
        skippable: outcome.skippable,
        advised: step.continued && before !== undefined ? before.advised : false,
      };
      if (step.trippedNow) events.push(event('tripped', scanner, entry, context));
    }
    if (entry === undefined) continue;
    if (!entry.advised && Object.hasOwn(reported, advisoryFingerprint(scanner, entry))) entry = { ...entry, advised: true };
    breakers[scanner] = entry;
    if (isTripped(entry, settings) && !entry.advised) findings.push(advisory(scanner, entry, context));
  }
  return { breakers, findings, events };
}
