import { z } from 'zod';
import { findingContentHash, type Finding } from '../domain/finding.js';
import type { ScanResult } from '../domain/scan-result.js';
import { ackActive, ackMatches, type Ack } from './ack-book.js';

/** The most fingerprints the state remembers for acks (bounded like every other state record). */
export const MAX_ACK_MEMORY = 2_000;

/**
 * What the state remembers about a finding an ack held: which ack, the content it acknowledged,
 * the scanner that reports it, whether a completed scan of that scanner no longer found it
 * (`cleared`, for snoozes) and whether the ack has ended for it (`ended`: it is reported again).
 */
export const ackMemoryEntrySchema = z.object({
  ack: z.string().min(1).max(100),
  hash: z.string().regex(/^[0-9a-f]{1,64}$/),
  scanner: z.string().min(1).max(200).optional(),
  cleared: z.literal(true).optional(),
  ended: z.enum(['changed', 'came-back']).optional(),
});

/** See {@link ackMemoryEntrySchema}. */
export type AckMemoryEntry = z.infer<typeof ackMemoryEntrySchema>;

/** Fingerprint → what the state remembers of the ack that held it. */
export type AckMemory = Readonly<Record<string, AckMemoryEntry>>;

/** Why an ack stopped holding a finding: its content changed, or (a snooze) it cleared and came back. */
export type AckEndReason = 'changed' | 'came-back';

/** A finding an ack holds back this cycle. */
export interface AckHeldFinding {
  readonly finding: Finding;
  readonly ack: Ack;
}

/** A finding whose ack ended this cycle: reported at once, whatever its repeat schedule. */
export interface AckEndedFinding {
  readonly finding: Finding;
  readonly ack: Ack;
  readonly reason: AckEndReason;
}

/** What the acks decided for one cycle's findings. */
export interface AckDecision {
  /** Findings no ack holds (the cycle's other rules decide them), in input order. */
  readonly pass: readonly Finding[];
  readonly held: readonly AckHeldFinding[];
  /** Subset of `pass` whose ack ended this cycle. */
  readonly ended: readonly AckEndedFinding[];
  /** The memory to keep for the next cycle. */
  readonly memory: AckMemory;
}

/** The ack that holds a finding: a fingerprint ack before a category ack, then the newest. */
function ackFor(acks: readonly Ack[], finding: Finding): Ack | undefined {
  let best: Ack | undefined;
  for (const ack of acks) {
    if (!ackMatches(ack, finding)) continue;
    if (best === undefined) best = ack;
    else {
      const rank = (a: Ack): number => (a.match.kind === 'fingerprint' ? 1 : 0);
      if (rank(ack) > rank(best) || (rank(ack) === rank(best) && ack.at > best.at)) best = ack;
    }
  }
  return best;
}

/**
 * Decides which findings the operator's acks hold back at `now`. Pure. An ack holds a finding
 * while it is unexpired and the finding's content is the content acknowledged (the hash pinned
 * when the ack was written, else the one first held); changed content ends the ack for that
 * finding and it is reported at once. A snooze also ends when the finding came back after a
 * completed scan (status ok) of the scanner that reports it no longer found it. An expired or
 * removed ack holds nothing and its memory is dropped.
 */
export function decideAcks(input: {
  readonly findings: readonly Finding[];
  readonly acks: readonly Ack[];
  readonly memory: AckMemory | undefined;
  readonly results: readonly ScanResult[];
  readonly now: Date;
}): AckDecision {
  const active = input.acks.filter((a) => ackActive(a, input.now));
  const activeIds = new Set(active.map((a) => a.id));
  const previous = input.memory ?? {};
  const scannerOf = new Map<string, string>();
  const foundBy = new Map<string, Set<string>>();
  for (const result of input.results) {
    if (result.status !== 'ok') continue;
    const found = new Set(result.findings.map((f) => f.fingerprint));
    foundBy.set(result.scanner, found);
    for (const fingerprint of found) if (!scannerOf.has(fingerprint)) scannerOf.set(fingerprint, result.scanner);
  }
  const memory: Record<string, AckMemoryEntry> = {};
  const pass: Finding[] = [];
  const held: AckHeldFinding[] = [];
  const ended: AckEndedFinding[] = [];
  const present = new Set<string>();
  for (const finding of input.findings) {
    present.add(finding.fingerprint);
    const ack = ackFor(active, finding);
    if (ack === undefined) {
      pass.push(finding);
      continue;
    }
    const own = Object.hasOwn(previous, finding.fingerprint) ? previous[finding.fingerprint] : undefined;
    const mem = own?.ack === ack.id ? own : undefined;
    const hash = findingContentHash(finding);
    const baseline =
      (ack.hashes !== undefined && Object.hasOwn(ack.hashes, finding.fingerprint) ? ack.hashes[finding.fingerprint] : undefined) ??
      mem?.hash ??
      hash;
    const scanner = scannerOf.get(finding.fingerprint) ?? mem?.scanner;
    const base: AckMemoryEntry = { ack: ack.id, hash: baseline, ...(scanner === undefined ? {} : { scanner }) };
    if (mem?.ended !== undefined) {
      memory[finding.fingerprint] = { ...base, ended: mem.ended };
      pass.push(finding);
    } else if (baseline !== hash) {
      memory[finding.fingerprint] = { ...base, ended: 'changed' };
      pass.push(finding);
      ended.push({ finding, ack, reason: 'changed' });
    } else if (ack.snooze && mem?.cleared === true) {
      memory[finding.fingerprint] = { ...base, ended: 'came-back' };
      pass.push(finding);
      ended.push({ finding, ack, reason: 'came-back' });
    } else {
      memory[finding.fingerprint] = base;
      held.push({ finding, ack });
    }
  }
  // A held finding gone from a completed scan of its scanner has cleared (a failed, skipped or
  // timed-out scan says nothing: it was not looked at). Memory of expired or removed acks goes.
  for (const [fingerprint, entry] of Object.entries(previous)) {
    if (present.has(fingerprint) || !activeIds.has(entry.ack)) continue;
    // An ended ack stays ended for this finding while the ack lasts: it never holds it again.
    if (entry.ended !== undefined) {
      memory[fingerprint] = entry;
      continue;
    }
    const scan = entry.scanner === undefined ? undefined : foundBy.get(entry.scanner);
    memory[fingerprint] = scan !== undefined && !scan.has(fingerprint) ? { ...entry, cleared: true } : entry;
  }
  const kept = Object.entries(memory);
  return { pass, held, ended, memory: kept.length <= MAX_ACK_MEMORY ? memory : Object.fromEntries(kept.slice(0, MAX_ACK_MEMORY)) };
}
