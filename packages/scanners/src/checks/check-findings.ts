import { createFinding, type Finding, sanitizeForMessage } from '@heartbeat-kit/core';
import { checkCategoryOf, type CheckSpec } from '@heartbeat-kit/core/host';
import type { parseCheckOutput } from './parse-check-output.js';

// A check's findings: built from the lines it printed, then held back until seen in enough runs in a row.

/** Most fingerprints one check remembers a streak for. */
const MAX_STREAKS = 200;

/** A finding that has not been seen in enough runs in a row yet (`confirm:`). */
export interface UnconfirmedCheckFinding {
  readonly finding: Finding;
  readonly seenRuns: number;
  readonly neededRuns: number;
}

/** The finding of one line a check printed: its category, priority and text, sanitised like every tool's. */
export function checkFinding(check: CheckSpec, line: ReturnType<typeof parseCheckOutput> & { kind: 'findings' }, index: number): Finding {
  const item = line.findings[index]!;
  const text = sanitizeForMessage(item.line, { maxLength: 500 });
  const short = sanitizeForMessage(item.short ?? item.line, { maxLength: 80 });
  return createFinding({
    category: checkCategoryOf(check),
    priority: item.priority ?? check.priority,
    subject: item.subject,
    line: text,
    action: sanitizeForMessage(item.action ?? `Look into check ${check.name}: ${item.line}`, { maxLength: 300 }),
    short,
    details: { check: check.name, subject: sanitizeForMessage(item.subject, { maxLength: 200 }), line: text },
    content: item.content ?? text,
  });
}

/** Hysteresis over the check's own runs: `confirm: N` runs in a row (a check may run less often than every cycle). */
export function confirmFindings(
  findings: readonly Finding[],
  confirm: number,
  previousStreaks: Readonly<Record<string, number>>,
): { streaks: Record<string, number>; confirmed: Finding[]; unconfirmed: UnconfirmedCheckFinding[] } {
  const streaks: Record<string, number> = {};
  const confirmed: Finding[] = [];
  const unconfirmed: UnconfirmedCheckFinding[] = [];
  for (const finding of findings) {
    if (Object.hasOwn(streaks, finding.fingerprint)) continue;
    const seen = Math.min(
      confirm,
      (Object.hasOwn(previousStreaks, finding.fingerprint) ? (previousStreaks[finding.fingerprint] ?? 0) : 0) + 1,
    );
    if (Object.keys(streaks).length < MAX_STREAKS) streaks[finding.fingerprint] = seen;
    if (seen >= confirm) confirmed.push(finding);
    else unconfirmed.push({ finding, seenRuns: seen, neededRuns: confirm });
  }
  return { streaks, confirmed, unconfirmed };
}
