import { z } from 'zod';
import { findingSchema, type Finding } from '../domain/finding.js';

/** One finding held by a reply inbox: its id within the inbox and when it was read. */
export interface InboxEntry {
  readonly id: string;
  readonly receivedAtMs: number;
  readonly finding: Finding;
}

/** Schema of a stored inbox entry (the file adapter checks what it reads back). */
export const inboxEntrySchema = z.object({
  id: z.string().min(1),
  receivedAtMs: z.number(),
  finding: findingSchema,
});

function sameFinding(a: Finding, b: Finding): boolean {
  return a.fingerprint === b.fingerprint && JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The inbox after adding `findings` read at `receivedAtMs`: a finding identical to one already
 * held (a poller that hands the same reply out twice) is not added again. Ids are unique within
 * the inbox and sort in arrival order.
 */
export function addToInbox(
  entries: readonly InboxEntry[],
  findings: readonly Finding[],
  receivedAtMs: number,
): { entries: InboxEntry[]; added: InboxEntry[] } {
  const next = [...entries];
  const added: InboxEntry[] = [];
  let sequence = entries.reduce((max, e) => Math.max(max, Number(/-(\d+)$/.exec(e.id)?.[1] ?? 0)), 0);
  for (const finding of findings) {
    if (next.some((e) => sameFinding(e.finding, finding))) continue;
    sequence += 1;
    const entry: InboxEntry = { id: `${receivedAtMs}-${sequence}`, receivedAtMs, finding };
    next.push(entry);
    added.push(entry);
  }
  return { entries: next, added };
}

/**
 * The entries a cycle may remove once its state is saved: those it evaluated this cycle whose
 * fingerprint the saved state records as reported (delivered now, or suppressed by the dedup
 * window) or keeps among its undelivered findings. Anything else stays and is offered again.
 */
export function settledInboxIds(
  entries: readonly InboxEntry[],
  evaluated: ReadonlySet<string>,
  saved: { readonly reported: Readonly<Record<string, number>>; readonly undelivered?: readonly Finding[] | undefined },
): string[] {
  const kept = new Set((saved.undelivered ?? []).map((f) => f.fingerprint));
  return entries
    .filter(
      (e) =>
        evaluated.has(e.finding.fingerprint) && (saved.reported[e.finding.fingerprint] !== undefined || kept.has(e.finding.fingerprint)),
    )
    .map((e) => e.id);
}
