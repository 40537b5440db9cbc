import { sanitizeForMessage, scanOk, type ScanResult } from '@heartbeat-kit/core';
import { type BreakerSettings, breakerSkips, type ScannerBreaker, updateBreakers } from '@heartbeat-kit/core/host';
import { DEFAULT_DISPATCH_BREAKER } from '../config/woterclip-config.js';

/** The name the dispatch breaker is kept under in core's breaker decision. */
const DISPATCH = 'dispatch';

/** How one agent dispatch of a beat went, as the breaker counts it. */
export type DispatchVerdict =
  { readonly ok: true } | { readonly ok: false; readonly kind: 'failed' | 'unparseable'; readonly message: string; readonly issue: number };

/** What the breaker decided at the end of a beat. */
export interface DispatchBreakerUpdate {
  /** The breaker after this beat; absent when closed. */
  readonly breaker?: ScannerBreaker;
  /** One line to say now: the advisory when it trips, the recovery line when it closes. */
  readonly line?: string;
  readonly event?: 'tripped' | 'recovered' | 'changed';
}

const clean = (text: string, max: number): string => sanitizeForMessage(text, { maxLength: max });
const hhmm = (ms: number): string => new Date(ms).toISOString().slice(0, 16).replace('T', ' ') + ' UTC';

function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${n % 10 === 1 ? 'st' : n % 10 === 2 ? 'nd' : n % 10 === 3 ? 'rd' : 'th'}`;
}

/**
 * The beat's dispatches as one result for core's breaker decision: any dispatch that returned an
 * outcome is a clean run; otherwise the first failure is the beat's failure, and its kind and
 * message are "the same way" (a different exit code is a different failure).
 */
function asScanResult(verdicts: readonly DispatchVerdict[]): ScanResult | undefined {
  if (verdicts.length === 0) return undefined;
  if (verdicts.some((v) => v.ok)) return scanOk(DISPATCH, {});
  const first = verdicts.find((v): v is Extract<DispatchVerdict, { ok: false }> => !v.ok);
  if (first === undefined) return undefined;
  const message = clean(first.message, 200);
  return {
    scanner: DISPATCH,
    status: 'skipped',
    // A status other than ok makes the failure "looked at nothing", so core backs it off.
    reason: message,
    configured: true,
    code: `DISPATCH_${first.kind.toUpperCase()}: ${message}`.slice(0, 200),
    fix: 'run the dispatch command of .woterclip/config.yaml by hand, fix it, then remove agent-blocked from the issues it blocked',
    durationMs: 0,
  };
}

/**
 * Is the agent dispatch held back this beat? Core's breaker decision: tripped after `after`
 * identical failing beats, it runs again only every 2nd, 4th, … beat up to the cap. Returns the
 * line to print, or undefined when the beat may dispatch.
 */
export function dispatchHeldBack(
  breaker: ScannerBreaker | undefined,
  beat: number,
  settings: BreakerSettings = DEFAULT_DISPATCH_BREAKER,
): string | undefined {
  if (breaker === undefined) return undefined;
  const held = breakerSkips({ [DISPATCH]: breaker }, beat, settings).get(DISPATCH);
  if (held === undefined) return undefined;
  return `dispatch breaker open: the agent dispatch failed ${breaker.failures} beats in a row (${clean(breaker.message, 200)}, since ${hhmm(breaker.sinceMs)}); beat #${beat} works no issue, next try at beat #${breaker.nextRunCycle}.`;
}

/**
 * Updates the dispatch breaker from one beat's dispatches with core's breaker decision
 * (`updateBreakers`), and words what changed for WoterClip: one `DISPATCH_FAILING` advisory
 * when it trips, one line when the dispatch works again. A beat that dispatched nothing leaves
 * it as it was. Pure.
 */
export function updateDispatchBreaker(
  previous: ScannerBreaker | undefined,
  verdicts: readonly DispatchVerdict[],
  context: { readonly beat: number; readonly now: Date; readonly settings?: BreakerSettings; readonly blocked?: readonly number[] },
): DispatchBreakerUpdate {
  const settings = context.settings ?? DEFAULT_DISPATCH_BREAKER;
  const result = asScanResult(verdicts);
  if (result === undefined) return previous === undefined ? {} : { breaker: previous };
  const update = updateBreakers(previous === undefined ? undefined : { [DISPATCH]: previous }, {}, [result], {
    cycle: context.beat,
    now: context.now,
    timeZone: 'UTC',
    settings,
  });
  const entry = update.breakers[DISPATCH];
  const event = update.events.find((e) => e.scanner === DISPATCH);
  if (entry !== undefined && update.findings.length > 0) {
    // The advisory is said once per streak: `advised` is kept in the breaker the receipt carries.
    const blocked = context.blocked === undefined || context.blocked.length === 0 ? '' : ` (last blocked: #${context.blocked.join(', #')})`;
    const line = `DISPATCH_FAILING: the agent dispatch failed the same way ${entry.failures} beats in a row — ${clean(entry.message, 200)} — since ${hhmm(entry.sinceMs)}${blocked}; dispatch is held back: next try at beat #${entry.nextRunCycle}, backing off to every ${ordinal(settings.backoffCap)} beat. Fix: ${entry.fix}.`;
    return { breaker: { ...entry, advised: true }, line, event: 'tripped' };
  }
  if (event !== undefined && previous !== undefined && (event.kind === 'recovered' || event.kind === 'changed')) {
    const line =
      event.kind === 'recovered'
        ? `dispatch recovered: the agent dispatch worked after ${previous.failures} failing beats (${clean(previous.message, 200)} since ${hhmm(previous.sinceMs)}); dispatching every beat again.`
        : `dispatch no longer fails with "${clean(previous.message, 200)}" after ${previous.failures} failing beats; breaker closed.`;
    return { ...(entry === undefined ? {} : { breaker: entry }), line, event: event.kind };
  }
  return entry === undefined ? {} : { breaker: entry };
}
