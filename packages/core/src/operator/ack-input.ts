import { err, ok, type Result } from 'neverthrow';
import type { CategoryTable } from '../domain/category-table.js';
import { stableHash } from '../text/stable-hash.js';
import type { HeartbeatState } from '../cycle/heartbeat-state.js';
import { findingContentHash } from '../domain/finding.js';
import { ACK_BOOK_VERSION, MAX_ACK_NOTE_CHARS, MAX_ACKS, type Ack, type AckBook, type AckMatch } from './ack-book.js';

/** Why an ack could not be written: the flag (or argument) at fault and a sentence ending in the fix. */
export interface AckInputError {
  readonly flag: string;
  readonly message: string;
}

const fail = (flag: string, message: string): Result<never, AckInputError> => err({ flag, message });

/** A note as an ack keeps it: required (not only blanks), at most {@link MAX_ACK_NOTE_CHARS} characters. */
export function validateAckNote(note: string | undefined): Result<string, AckInputError> {
  const text = note?.trim() ?? '';
  if (text === '')
    return fail('--note', `--note is required and must not be empty. Fix: say why, e.g. --note "known: rebasing feature-x tonight".`);
  const length = [...text].length;
  if (length > MAX_ACK_NOTE_CHARS)
    return fail(
      '--note',
      `--note has ${length} characters, more than ${MAX_ACK_NOTE_CHARS}. Fix: shorten it to ${MAX_ACK_NOTE_CHARS} characters or fewer (link to details instead).`,
    );
  return ok(text);
}

/** When an ack ends: `--for` from `now`, `--until` as given (must be ahead), or never (neither). */
export function ackEnd(input: {
  readonly forMs?: number | undefined;
  readonly until?: Date | undefined;
  readonly now: Date;
}): Result<string | undefined, AckInputError> {
  if (input.forMs !== undefined && input.until !== undefined)
    return fail('--for', '--for and --until both say when the ack ends. Fix: give one of them.');
  if (input.forMs !== undefined) return ok(new Date(input.now.getTime() + input.forMs).toISOString());
  if (input.until === undefined) return ok(undefined);
  if (input.until.getTime() <= input.now.getTime())
    return fail(
      '--until',
      `--until ${input.until.toISOString()} is not after now (${input.now.toISOString()}). Fix: give a later instant, or --for 4h.`,
    );
  return ok(input.until.toISOString());
}

/** A finding the last state knows: its fingerprint and, when it was delivered, the content hash it had. */
export interface KnownFinding {
  readonly fingerprint: string;
  readonly hash?: string;
}

/**
 * The findings the last state knows: delivered ones (with their content hash), ones seen by the
 * last cycle, undelivered one-shots and those an ack held.
 */
export function knownFindingsOf(state: HeartbeatState): readonly KnownFinding[] {
  const known = new Map<string, string | undefined>();
  const add = (fingerprint: string, hash?: string): void => {
    if (hash !== undefined || !known.has(fingerprint)) known.set(fingerprint, hash ?? known.get(fingerprint));
  };
  for (const fingerprint of Object.keys(state.seen)) add(fingerprint);
  for (const fingerprint of Object.keys(state.reported)) add(fingerprint, state.reportedContent[fingerprint]?.hash);
  for (const finding of state.undelivered ?? []) add(finding.fingerprint, findingContentHash(finding));
  for (const [fingerprint, entry] of Object.entries(state.acked ?? {})) add(fingerprint, entry.hash);
  return [...known].map(([fingerprint, hash]) => (hash === undefined ? { fingerprint } : { fingerprint, hash }));
}

/** The id a report gives a finding with this fingerprint and content hash (same as `stableFindingId`). */
function findingIdOf(fingerprint: string, hash: string): string {
  return `hbf-${stableHash(`${fingerprint}\u0001${hash}`)}`;
}

const categoryOf = (fingerprint: string): string => fingerprint.slice(0, Math.max(0, fingerprint.indexOf(':')));

/** What a selector resolved to: what the ack holds and the content hashes it pins. */
export interface ResolvedSelector {
  readonly match: AckMatch;
  readonly hashes: Readonly<Record<string, string>>;
}

/**
 * Reads an ack selector: a finding id (`hbf-…`, as reports and `--json` print it), a fingerprint
 * or `CATEGORY:SUBJECT`, or a bare `CATEGORY`. Known means: a finding the last state knows, or a
 * category of the category table (or of a known finding). Anything else is an error with the fix.
 */
export function resolveAckSelector(
  selector: string,
  known: readonly KnownFinding[],
  table: CategoryTable,
): Result<ResolvedSelector, AckInputError> {
  const text = selector.trim();
  const hashesOf = (keep: (k: KnownFinding) => boolean): Record<string, string> =>
    Object.fromEntries(known.filter((k) => keep(k) && k.hash !== undefined).map((k) => [k.fingerprint, k.hash as string]));
  const knownCategories = new Set(known.map((k) => categoryOf(k.fingerprint)));
  const categoryKnown = (category: string): boolean => table.info(category) !== undefined || knownCategories.has(category);
  const fix = `Fix: use a finding id or fingerprint from 'heartbeat-kit cycle --json', or CATEGORY[:SUBJECT] with a known category (e.g. GIT_STALE:feature-x).`;
  if (text === '') return fail('SELECTOR', `the selector is empty. ${fix}`);
  if (/^hbf-[0-9a-f]+$/.test(text)) {
    const found = known.find((k) => k.hash !== undefined && findingIdOf(k.fingerprint, k.hash) === text);
    if (found?.hash === undefined)
      return fail('SELECTOR', `${text} is not the id of a finding the last cycle knows (ids change when a finding's content does). ${fix}`);
    return ok({ match: { kind: 'fingerprint', fingerprint: found.fingerprint }, hashes: { [found.fingerprint]: found.hash } });
  }
  const colon = text.indexOf(':');
  if (colon < 0) {
    if (!categoryKnown(text)) return fail('SELECTOR', `${JSON.stringify(text)} is neither a known category nor a finding. ${fix}`);
    return ok({ match: { kind: 'category', category: text }, hashes: hashesOf((k) => categoryOf(k.fingerprint) === text) });
  }
  const category = text.slice(0, colon);
  if (colon === text.length - 1 || category === '')
    return fail('SELECTOR', `${JSON.stringify(text)} has an empty category or subject. ${fix}`);
  if (!known.some((k) => k.fingerprint === text) && !categoryKnown(category))
    return fail(
      'SELECTOR',
      `${JSON.stringify(text)} matches no known finding and ${JSON.stringify(category)} is not a known category. ${fix}`,
    );
  return ok({ match: { kind: 'fingerprint', fingerprint: text }, hashes: hashesOf((k) => k.fingerprint === text) });
}

/** Everything a new ack says, already validated. */
export interface NewAck {
  readonly selector: string;
  readonly resolved: ResolvedSelector;
  readonly note: string;
  readonly by: string;
  readonly at: Date;
  readonly until?: string | undefined;
  readonly snooze: boolean;
}

/**
 * The book with one more ack. An ack with the same selector replaces the older one (a re-ack
 * renews the note and the end), so `unack SELECTOR` has one thing to remove.
 */
export function addAck(book: AckBook, input: NewAck): Result<{ book: AckBook; ack: Ack }, AckInputError> {
  const ack: Ack = {
    id: `ack-${stableHash(`${input.selector}\u0000${input.at.toISOString()}\u0000${input.note}`).slice(0, 16)}`,
    selector: input.selector,
    match: input.resolved.match,
    ...(Object.keys(input.resolved.hashes).length === 0 ? {} : { hashes: { ...input.resolved.hashes } }),
    note: input.note,
    by: input.by,
    at: input.at.toISOString(),
    ...(input.until === undefined ? {} : { until: input.until }),
    snooze: input.snooze,
  };
  const others = book.acks.filter((a) => !sameTarget(a.match, ack.match));
  if (others.length >= MAX_ACKS)
    return fail('SELECTOR', `there are already ${MAX_ACKS} acks. Fix: remove some with 'heartbeat-kit unack SELECTOR'.`);
  return ok({ book: { version: ACK_BOOK_VERSION, acks: [...others, ack] }, ack });
}

function sameTarget(a: AckMatch, b: AckMatch): boolean {
  return a.kind === 'fingerprint'
    ? b.kind === 'fingerprint' && a.fingerprint === b.fingerprint
    : b.kind === 'category' && a.category === b.category;
}

/**
 * The book without the acks a selector names: an ack id (`ack-…`), or the selector an ack was
 * written with (also its fingerprint or category). None removed is an error naming the fix.
 */
export function removeAcks(book: AckBook, selector: string): Result<{ book: AckBook; removed: readonly Ack[] }, AckInputError> {
  const text = selector.trim();
  const hit = (a: Ack): boolean =>
    a.id === text || a.selector === text || (a.match.kind === 'fingerprint' ? a.match.fingerprint === text : a.match.category === text);
  const removed = book.acks.filter(hit);
  if (removed.length === 0)
    return fail('SELECTOR', `no ack matches ${JSON.stringify(text)}. Fix: see 'heartbeat-kit ack --list' for the acks and their ids.`);
  return ok({ book: { version: ACK_BOOK_VERSION, acks: book.acks.filter((a) => !hit(a)) }, removed });
}
