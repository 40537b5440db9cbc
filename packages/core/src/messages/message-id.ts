import { findingContentHash, type Finding } from '../domain/finding.js';
import type { MessageKind } from '../ports/sink.js';
import { stableHash } from '../text/stable-hash.js';

/**
 * A stable id for a report, so a receiver can drop duplicates: the same findings offered again
 * (a retried attempt, the next cycle retrying an undelivered report) get the same id, because it
 * depends only on the kind, the sorted fingerprints with their content hashes and how many
 * reports were delivered before (`reportsSent`, which grows only on a confirmed delivery, so a
 * later re-report of the same findings is a new message with a new id), and `extra` (the resolved
 * fingerprints, a route's name) when given. A finding whose content
 * changed before a retry makes a new id, so a receiver never drops the changed report as a duplicate.
 */
export function stableMessageId(
  kind: MessageKind,
  findings: readonly Finding[],
  reportsSent: number,
  extra: readonly string[] = [],
): string {
  const base = `${kind}\u0000${reportsSent}\u0000${[...new Set(findings.map((f) => `${f.fingerprint}\u0001${findingContentHash(f)}`))].sort().join('\u0000')}`;
  // `extra` (resolved fingerprints, a route's name) joins the key only when present: ids without it are unchanged.
  const key = extra.length === 0 ? base : `${base}\u0002${[...extra].sort().join('\u0000')}`;
  return `hb-${stableHash(key)}`;
}

/**
 * The stable id of one finding as it now stands: `hbf-` and a hash of its fingerprint and its
 * content hash (see `findingContentHash`). It depends on nothing else — not on the other findings
 * of the message, the cycle, the time or how often it was sent — so a receiver sees the same
 * finding under the same id in every message until what it says changes.
 */
export function stableFindingId(finding: Finding): string {
  return `hbf-${stableHash(`${finding.fingerprint}\u0001${findingContentHash(finding)}`)}`;
}
