import type { Finding } from '../domain/finding.js';
import type { MessageKind } from '../ports/sink.js';

// cyrb53: a small, well-mixed 53-bit string hash. Pure code cannot use node:crypto, and an
// idempotency key needs stability and spread, not cryptographic strength.
function cyrb53(text: string, seed: number): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/**
 * A stable id for a report, so a receiver can drop duplicates: the same findings offered again
 * (a retried attempt, the next cycle retrying an undelivered report) get the same id, because it
 * depends only on the kind, the sorted fingerprints and how many reports were delivered before
 * (`reportsSent`, which grows only on a confirmed delivery, so a later re-report of the same
 * findings is a new message with a new id).
 */
export function stableMessageId(kind: MessageKind, findings: readonly Finding[], reportsSent: number): string {
  const key = `${kind}\u0000${reportsSent}\u0000${[...new Set(findings.map((f) => f.fingerprint))].sort().join('\u0000')}`;
  return `hb-${cyrb53(key, 1).toString(16).padStart(14, '0')}${cyrb53(key, 2).toString(16).padStart(14, '0')}`;
}
