import { z } from 'zod';
import type { Receipt } from '@heartbeat-kit/core';
import { formatReceipt, type RanReceipt, scannerBreakerSchema } from '@heartbeat-kit/core/host';

/** The receipt source WoterClip's beats write (`woterclip history` and `check-liveness --woterclip` read it). */
export const BEAT_RECEIPT_SOURCE = 'woterclip';

/**
 * What a WoterClip beat records in its receipt's `sourceDetail`: what it did and the state it hands
 * to the next beat. Core keeps it whole; WoterClip validates it here when it reads it back.
 */
export const beatDetailSchema = z.object({
  /** The beat's sequence number (counts beats that reached the inbox, for the dispatch breaker's back-off). */
  n: z.number().int().nonnegative(),
  /** How the beat ended: a WoterClip stop reason, `withdrawn` or `breaker-open`. */
  end: z.string().max(40),
  /** Issues worked, with the status each report gave. */
  worked: z
    .array(z.object({ issue: z.number().int().positive(), status: z.string().max(40) }))
    .max(50)
    .optional(),
  /** An issue whose report comment could not be posted. */
  reportNotPosted: z.number().int().positive().optional(),
  /** The agent dispatch's circuit breaker after this beat (absent: closed). */
  breaker: scannerBreakerSchema.optional(),
  /** The breaker's one-line advisory or recovery line, when this beat said one. */
  breakerLine: z.string().max(500).optional(),
});

/** What a beat records in its receipt (see {@link beatDetailSchema}). */
export type BeatDetail = z.infer<typeof beatDetailSchema>;

/**
 * The beat detail of a WoterClip receipt, or undefined when it has none or it does not validate
 * (a hand edit, another writer): such a receipt hands no state on, as one without a detail.
 */
export function beatDetailOf(receipt: Receipt): BeatDetail | undefined {
  if (receipt.source !== BEAT_RECEIPT_SOURCE || receipt.sourceDetail === undefined) return undefined;
  const parsed = beatDetailSchema.safeParse(receipt.sourceDetail);
  return parsed.success ? parsed.data : undefined;
}

/** A `ran` beat receipt in `history`'s words: what it worked, how it stopped, whether the reports were posted. */
function describeBeat(receipt: RanReceipt): string | undefined {
  const beat = beatDetailOf(receipt);
  if (beat === undefined) return undefined;
  const worked = (beat.worked ?? []).map((w) => `#${w.issue} ${w.status}`).join(', ');
  const what = worked === '' ? 'nothing worked' : `worked ${worked}`;
  const report =
    beat.reportNotPosted !== undefined
      ? `, report on #${beat.reportNotPosted} NOT posted`
      : worked === ''
        ? ''
        : `, report${(beat.worked ?? []).length === 1 ? '' : 's'} posted`;
  return `beat #${beat.n} ${what}, stop ${beat.end}${report}${beat.breakerLine === undefined ? '' : ` (${beat.breakerLine})`}`;
}

/** One line of `woterclip history`: core's receipt line, with a `ran` beat worded from its detail. */
export function formatBeatReceipt(receipt: Receipt): string {
  return formatReceipt(receipt, describeBeat);
}

/**
 * A beat receipt as `woterclip history --json` prints it: the detail validated and under `beat`,
 * the name it has always had there (a detail that does not validate is left out).
 */
export function beatReceiptView(receipt: Receipt): Omit<Receipt, 'sourceDetail'> & { beat?: BeatDetail } {
  const { sourceDetail: _detail, ...rest } = receipt;
  const beat = beatDetailOf(receipt);
  return beat === undefined ? rest : { ...rest, beat };
}
