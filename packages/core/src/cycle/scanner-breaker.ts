import { fingerprintOf, type Finding } from '../domain/finding.js';
import { NOT_DUE_SKIP_CODE, OUTSIDE_ACTIVE_HOURS_REASON, type ScanResult, type ScannerName } from '../domain/scan-result.js';
import { scanProblems } from './scan-problems.js';
import { breakerHoldsBack, isBreakerTripped, stepBreaker, type BreakerObservation, type BreakerSettings } from './breaker-decision.js';
import { PAUSED_SCANNER_CODE } from '../operator/pause-decision.js';

import { advisory, event, ownSubject, type Group } from './breaker-wording.js';
import {
  BREAKER_SKIP_CODE,
  MAX_BREAKERS,
  SCANNER_FAILING,
  type BreakerContext,
  type BreakerEvent,
  type BreakerUpdate,
  type ScannerBreaker,
} from './scanner-breaker-record.js';

export type { BreakerSettings } from './breaker-decision.js';
export {
  BREAKER_SKIP_CODE,
  MAX_BREAKERS,
  SCANNER_FAILING,
  scannerBreakerSchema,
  type BreakerContext,
  type BreakerEvent,
  type BreakerUpdate,
  type ScannerBreaker,
} from './scanner-breaker-record.js';

function isTripped(entry: ScannerBreaker, settings: BreakerSettings): boolean {
  return isBreakerTripped(entry, settings);
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
  | {
      readonly kind: 'fail';
      readonly code: string;
      readonly message: string;
      readonly fix: string;
      readonly cause: string | undefined;
      readonly skippable: boolean;
    }
  | { readonly kind: 'clean' }
  | { readonly kind: 'other'; readonly message: string };

/**
 * How one result counts: a `warning` problem (a failure, a timeout, a skip of something set up,
 * a degraded run) is a failure; a skip by design (outside active hours, by the breaker, by an operator pause) or a
 * cut-off by a signal says nothing; a notice (nothing set up) ends a streak without being a fix.
 */
function outcomeOf(result: ScanResult): Outcome {
  if (
    result.status === 'skipped' &&
    (result.code === BREAKER_SKIP_CODE ||
      result.code === NOT_DUE_SKIP_CODE ||
      result.code === PAUSED_SCANNER_CODE ||
      result.reason === OUTSIDE_ACTIVE_HOURS_REASON)
  )
    return { kind: 'hold' };
  const problems = scanProblems([result]);
  if (problems.some((p) => p.kind === 'cut-off')) return { kind: 'hold' };
  const counted = problems.filter((p) => p.severity === 'warning');
  const first = counted[0];
  if (first !== undefined) {
    const code = [...new Set(counted.map((p) => p.code))].sort().join('+').slice(0, 200);
    return { kind: 'fail', code, message: first.message, fix: first.fix, cause: first.cause, skippable: result.status !== 'ok' };
  }
  const notice = problems[0];
  return notice === undefined ? { kind: 'clean' } : { kind: 'other', message: notice.message };
}

/** What makes two failures "the same cause": the code, the cause (the message by default) and the fix. */
function causeKey(entry: ScannerBreaker): string {
  return JSON.stringify([entry.code, entry.cause ?? entry.message, entry.fix]);
}

/**
 * Puts the tripped breakers into groups, one per cause. A breaker keeps its group for its streak
 * (a drifting message does not split it off); one that trips joins the group of a breaker failing
 * with the same code, cause and fix, taking its back-off so they are held back and tried as one,
 * or else opens a group with those tripping with it.
 */
function groupTripped(
  kept: readonly { readonly scanner: ScannerName; entry: ScannerBreaker; readonly trippedNow: boolean }[],
  context: BreakerContext,
): Group[] {
  const bySubject = new Map<string, Group>();
  const newcomers: (typeof kept)[number][] = [];
  for (const member of kept) {
    if (!isTripped(member.entry, context.settings)) continue;
    if (member.entry.group === undefined) {
      newcomers.push(member);
      continue;
    }
    const group = bySubject.get(member.entry.group);
    if (group === undefined) bySubject.set(member.entry.group, { subject: member.entry.group, members: [{ ...member }] });
    else group.members.push({ ...member });
  }
  const byKey = new Map<string, Group>();
  for (const group of bySubject.values()) {
    for (const m of group.members) if (!byKey.has(causeKey(m.entry))) byKey.set(causeKey(m.entry), group);
  }
  for (const member of newcomers) {
    const key = causeKey(member.entry);
    const group = byKey.get(key);
    if (group !== undefined) {
      const lead = group.members.find((m) => !m.trippedNow && m.entry.skippable === member.entry.skippable);
      const entry =
        lead === undefined
          ? { ...member.entry, group: group.subject }
          : {
              ...member.entry,
              group: group.subject,
              backoff: lead.entry.backoff,
              nextRunCycle: Math.max(lead.entry.nextRunCycle, context.cycle + 1),
            };
      group.members.push({ ...member, entry });
      continue;
    }
    const own = ownSubject(member.scanner, member.entry);
    let subject = own;
    // Taken only if a scanner left a group it named and failed again at the same instant: still one subject per group.
    for (let n = 2; bySubject.has(subject); n++) subject = `${own.slice(0, 680)}#${n}`;
    const created: Group = { subject, members: [{ ...member, entry: { ...member.entry, group: subject } }] };
    bySubject.set(subject, created);
    byKey.set(key, created);
  }
  // Within a group, members keep the cycle's scanner order.
  const order = new Map(kept.map((m, i) => [m.scanner, i]));
  const groups = [...bySubject.values()];
  for (const group of groups) group.members.sort((a, b) => order.get(a.scanner)! - order.get(b.scanner)!);
  return groups.sort((a, b) => order.get(a.members[0]!.scanner)! - order.get(b.members[0]!.scanner)!);
}

/**
 * Updates every scanner's circuit breaker from this cycle's results. A scanner failing the same
 * way `after` cycles in a row trips and, when it looked at nothing, runs every 2nd, 4th, … cycle
 * up to the cap. Tripped scanners failing for one cause (same code, cause and fix: one bd failure
 * stops every bd-backed scanner) share ONE SCANNER_FAILING advisory naming them all, offered
 * until delivered (it is delivered when `reported` holds its fingerprint) and then never again for
 * the streak; one that trips later with that cause joins it. Trips, recoveries and changes are
 * said once per group, naming the scanners they happened to. Pure: the cycle evaluator calls it,
 * so replays reproduce it.
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
  const kept: { readonly scanner: ScannerName; entry: ScannerBreaker; readonly trippedNow: boolean }[] = [];
  // Streaks that ended this cycle, said once per (kind, advisory, what it does now).
  const ended = new Map<string, { kind: 'recovered' | 'changed'; scanners: ScannerName[]; entry: ScannerBreaker; now?: string }>();
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
      const entry = { ...before, ...step.ended.previous };
      const now = outcome.kind === 'fail' ? `${outcome.code}: ${outcome.message}` : outcome.kind === 'other' ? outcome.message : undefined;
      const key = JSON.stringify([step.ended.kind, before.group ?? ownSubject(scanner, before), now ?? null]);
      const same = ended.get(key);
      if (same === undefined) ended.set(key, { kind: step.ended.kind, scanners: [scanner], entry, ...(now === undefined ? {} : { now }) });
      else same.scanners.push(scanner);
    }
    let entry: ScannerBreaker | undefined;
    if (step.streak === undefined) entry = undefined;
    else if (outcome.kind !== 'fail') entry = before;
    else {
      const continued = step.continued && before !== undefined;
      // A tripped streak from before grouping keeps the advisory it was raised under.
      const group = continued && isTripped(before, settings) ? (before.group ?? ownSubject(scanner, before)) : undefined;
      entry = {
        ...step.streak,
        message: outcome.message,
        fix: outcome.fix,
        skippable: outcome.skippable,
        advised: continued ? before.advised : false,
        ...(outcome.cause === undefined || outcome.cause === outcome.message ? {} : { cause: outcome.cause.slice(0, 400) }),
        ...(group === undefined ? {} : { group }),
      };
    }
    if (entry === undefined) continue;
    kept.push({ scanner, entry, trippedNow: step.trippedNow && outcome.kind === 'fail' });
  }
  for (const e of ended.values()) events.push(event(e.kind, e.scanners, e.entry, context, e.now === undefined ? {} : { now: e.now }));

  for (const group of groupTripped(kept, context)) {
    const fingerprint = fingerprintOf(SCANNER_FAILING, group.subject);
    const advised = Object.hasOwn(reported, fingerprint) || group.members.some((m) => !m.trippedNow && m.entry.advised);
    for (const m of group.members) m.entry = { ...m.entry, advised };
    const tripping = group.members.filter((m) => m.trippedNow);
    if (tripping.length > 0) {
      const joined = group.members.filter((m) => !m.trippedNow).map((m) => m.scanner);
      events.push(
        event(
          'tripped',
          tripping.map((m) => m.scanner),
          tripping[0]!.entry,
          context,
          { joined },
        ),
      );
    }
    if (!advised) findings.push(advisory(group, context));
    for (const m of group.members) breakers[m.scanner] = m.entry;
  }
  // Untripped streaks (still counting) are kept as they are, in the cycle's scanner order.
  for (const m of kept) if (!Object.hasOwn(breakers, m.scanner)) breakers[m.scanner] = m.entry;
  return { breakers: Object.fromEntries(kept.map((m) => [m.scanner, breakers[m.scanner]!])), findings, events };
}
