import { z } from 'zod';
import type { Finding } from '../domain/finding.js';
import type { JsonValue } from '../domain/json.js';

/** Version of the ack document (`<state>.acks.json`) this library writes. */
export const ACK_BOOK_VERSION = 1;

/** The longest note an ack may carry (characters). */
export const MAX_ACK_NOTE_CHARS = 500;

/** The most acks one heartbeat keeps: an ack book is the operator's, not a log. */
export const MAX_ACKS = 500;

const contentHash = z.string().regex(/^[0-9a-f]{1,64}$/);

/**
 * What an ack holds back: one fingerprint (`CATEGORY:SUBJECT`, also what a finding id resolves to)
 * or every finding of a category.
 */
export const ackMatchSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('fingerprint'), fingerprint: z.string().min(1).max(1000) }),
  z.object({ kind: z.literal('category'), category: z.string().min(1).max(200) }),
]);

/** What an ack holds back (see {@link ackMatchSchema}). */
export type AckMatch = z.infer<typeof ackMatchSchema>;

/** Schema of one stored ack. */
export const ackSchema = z.object({
  /** `ack-` and a hash: what `unack` and `--json` name it by. */
  id: z.string().regex(/^ack-[0-9a-f]{1,64}$/),
  /** The selector as the operator typed it. */
  selector: z.string().min(1).max(1000),
  match: ackMatchSchema,
  /**
   * Fingerprint → the content hash the operator acknowledged (what the last state knew when the
   * ack was written). Content that differs ends the ack for that finding.
   */
  hashes: z.record(z.string(), contentHash).optional(),
  note: z.string().min(1).max(MAX_ACK_NOTE_CHARS),
  /** Who wrote it (the user name, or `--by`). */
  by: z.string().max(200),
  /** When it was written (ISO instant). */
  at: z.iso.datetime(),
  /** When it stops holding (ISO instant); absent = until the finding changes (or clears, for a snooze). */
  until: z.iso.datetime().optional(),
  /** A snooze also ends when the finding clears and comes back. */
  snooze: z.boolean(),
});

/** One operator acknowledgement: who, when, why, until when, and what it holds back. */
export type Ack = z.infer<typeof ackSchema>;

/** The stored acks of one heartbeat. */
export interface AckBook {
  readonly version: typeof ACK_BOOK_VERSION;
  readonly acks: readonly Ack[];
}

/** An ack book with no acks. */
export function emptyAckBook(): AckBook {
  return { version: ACK_BOOK_VERSION, acks: [] };
}

/** What {@link decodeAckBook} made of a stored document: the acks that fit, and a warning per one that did not. */
export interface DecodedAckBook {
  readonly book: AckBook;
  readonly warnings: readonly string[];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads a stored ack document. Entries that do not fit are dropped with a warning each (one bad
 * ack must not cost the others); no document is an empty book.
 */
export function decodeAckBook(stored: JsonValue | undefined): DecodedAckBook {
  if (stored === undefined) return { book: emptyAckBook(), warnings: [] };
  if (!isPlainObject(stored) || !Array.isArray(stored.acks))
    return { book: emptyAckBook(), warnings: ['the ack file is not an object with an "acks" list; no ack holds anything'] };
  if (stored.version !== ACK_BOOK_VERSION)
    return {
      book: emptyAckBook(),
      warnings: [`the ack file has version ${JSON.stringify(stored.version)}, not ${ACK_BOOK_VERSION}; no ack holds anything`],
    };
  const acks: Ack[] = [];
  const warnings: string[] = [];
  for (const [index, item] of stored.acks.entries()) {
    const parsed = ackSchema.safeParse(item);
    if (!parsed.success) warnings.push(`ack ${index} does not fit (${parsed.error.issues[0]?.message ?? 'invalid'}); it holds nothing`);
    else if (acks.length >= MAX_ACKS) warnings.push(`ack ${index}: more than ${MAX_ACKS} acks; it holds nothing`);
    else acks.push(parsed.data);
  }
  return { book: { version: ACK_BOOK_VERSION, acks }, warnings };
}

/** The ack book as a plain JSON document for an `AckStore`. */
export function encodeAckBook(book: AckBook): JsonValue {
  return JSON.parse(JSON.stringify(book)) as JsonValue;
}

/** Whether an ack's selector covers a finding. */
export function ackMatches(ack: Ack, finding: Pick<Finding, 'fingerprint' | 'category'>): boolean {
  return ack.match.kind === 'fingerprint' ? ack.match.fingerprint === finding.fingerprint : ack.match.category === finding.category;
}

/** Whether an ack still holds at `now`: it has no end, or its end is still ahead. */
export function ackActive(ack: Ack, now: Date): boolean {
  return ack.until === undefined || now.getTime() < Date.parse(ack.until);
}
