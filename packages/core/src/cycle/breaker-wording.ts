import { createFinding, type Finding } from '../domain/finding.js';
import type { ScannerName } from '../domain/scan-result.js';
import { sanitizeForMessage } from '../text/sanitize.js';
import { formatLocalTimestamp } from '../time/local-timestamp.js';
import { SCANNER_FAILING, type BreakerContext, type BreakerEvent, type ScannerBreaker } from './scanner-breaker-record.js';

// What the scanner breakers say: the one SCANNER_FAILING advisory of a group of scanners failing
// for one cause, and the lines of a trip, a recovery or a change of cause.

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

/** The advisory subject of a scanner's own streak: what every advisory was named by before grouping. */
export function ownSubject(scanner: ScannerName, entry: ScannerBreaker): string {
  return `${scanner}:${entry.code}:${entry.sinceMs}`.slice(0, 700);
}

/** Scanners sharing one SCANNER_FAILING advisory this cycle, in the cycle's scanner order. */
export interface Group {
  readonly subject: string;
  readonly members: { readonly scanner: ScannerName; entry: ScannerBreaker; readonly trippedNow: boolean }[];
}

function names(scanners: readonly ScannerName[]): string {
  return scanners.map(safeName).join(', ');
}

export function advisory(group: Group, context: BreakerContext): Finding {
  const scanners = group.members.map((m) => m.scanner);
  const lead = group.members[0]!.entry;
  const name = names(scanners);
  const sinceMs = Math.min(...group.members.map((m) => m.entry.sinceMs));
  const failures = Math.max(...group.members.map((m) => m.entry.failures));
  // One scanner: its own message (as before grouping); several: the cause they share.
  const message = scanners.length === 1 ? lead.message : (lead.cause ?? lead.message);
  const retry =
    group.members.some((m) => m.entry.skippable) && context.settings.backoffCap > 1
      ? `; tried again every 2nd cycle, backing off to ${every(context.settings.backoffCap)}`
      : '';
  return createFinding({
    category: SCANNER_FAILING,
    priority: 'Advisory',
    subject: group.subject,
    line: `SCANNER_FAILING: ${name} — ${message} since ${sinceText(sinceMs, context)}, ${failures} cycles${retry}`,
    action: `Fix ${name}: ${lead.fix}`,
    short: `${name} failing`,
    details: {
      scanner: scanners[0]!,
      scanners,
      code: lead.code,
      message,
      fix: lead.fix,
      since: new Date(sinceMs).toISOString(),
      failures,
    },
    // The failure count grows every cycle; it is not a change worth a report of its own.
    content: { scanners, code: lead.code, message, since: sinceMs },
  });
}

export function event(
  kind: BreakerEvent['kind'],
  scanners: readonly ScannerName[],
  entry: ScannerBreaker,
  context: BreakerContext,
  extra: { readonly now?: string; readonly joined?: readonly ScannerName[] } = {},
): BreakerEvent {
  const name = names(scanners);
  const one = scanners.length === 1;
  const streak = `${entry.failures} failing cycle${entry.failures === 1 ? '' : 's'} in a row (${entry.code} since ${sinceText(entry.sinceMs, context)})`;
  const runs = one ? 'it runs' : 'they run';
  const raised =
    extra.joined === undefined || extra.joined.length === 0
      ? 'raised SCANNER_FAILING once'
      : `same cause as ${names(extra.joined)}: shares its SCANNER_FAILING advisory`;
  const line =
    kind === 'tripped'
      ? `${name}: circuit breaker open after ${streak}; ${raised}; ${entry.skippable ? `${runs} ${every(entry.backoff)} now, backing off to ${every(context.settings.backoffCap)}` : `${one ? 'it still runs' : 'they still run'} every cycle (${one ? 'it looks' : 'they look'} at part of what ${one ? 'it watches' : 'they watch'})`}`
      : kind === 'recovered'
        ? `${name} recovered: ${one ? 'it' : 'they'} ran cleanly after ${streak}; circuit breaker closed, ${runs} every cycle again`
        : `${name} no longer ${one ? 'fails' : 'fail'} with ${entry.code} after ${streak}${extra.now === undefined ? '' : `; now: ${extra.now}`}; circuit breaker closed, ${runs} every cycle again`;
  return {
    kind,
    scanner: scanners[0]!,
    scanners,
    code: entry.code,
    failures: entry.failures,
    since: new Date(entry.sinceMs).toISOString(),
    line,
  };
}
