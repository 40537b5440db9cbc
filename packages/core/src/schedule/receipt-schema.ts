import { z } from 'zod';

// The stored form of a receipt and what the stores do with it (parse, sort, bound). Nothing here
// knows a cycle: the ReceiptStore port and its adapters import this, not the receipt builders.

/**
 * Why a slot did not run a cycle: a closed set, each with the sentence `history` prints. A new
 * reason does not compile until it has its sentence.
 */
export const SKIP_REASONS = {
  asleep: 'the machine was asleep or the clock jumped past this slot',
  down: 'no heartbeat process was running at this slot',
  'catch-up-cap': 'missed while down or asleep; more missed slots than the catch-up cap allows',
  overlapping: 'another cycle of this project was still running',
  'lock-unavailable': 'the cycle lock could not be taken (I/O error or unreadable lock file)',
  'quiet-hours': 'inside quiet hours (behaviour: skip)',
  'dry-run': 'a dry run: decided, printed, nothing delivered or saved',
  'config-error': 'the configuration could not be read or is invalid',
  'state-refused': 'the state file was written by a newer heartbeat-kit (or did not fit and no copy could be kept); nothing ran',
  abandoned: 'the run started but never finished (killed, crashed or hung): the next run found its lock left behind',
  'breaker-open': 'held back by an open circuit breaker after repeated identical failures (see its advisory)',
} as const satisfies Record<string, string>;

/** Why a slot was skipped (see {@link SKIP_REASONS}). */
export type SkipReason = keyof typeof SKIP_REASONS;

/** The reasons, for schemas and listings. */
export const SKIP_REASON_NAMES = Object.keys(SKIP_REASONS) as [SkipReason, ...SkipReason[]];

/**
 * What wrote a receipt: `cycle`, `loop` and `fleet` here, any other name (`woterclip`) for a
 * package that keeps its own slots in a receipt store. Core only sorts, bounds and prints it.
 */
export type ReceiptSource = string;

/** The largest `sourceDetail` a receipt keeps, as JSON text: a receipt is one short line. */
export const MAX_SOURCE_DETAIL_CHARS = 4000;

/**
 * What a receipt's source records of its slot for itself (what it did, the state it hands to the
 * next slot). Core keeps it whole and never reads it: the source validates it with its own schema.
 */
const sourceDetailSchema = z.record(z.string(), z.unknown()).refine((detail) => JSON.stringify(detail).length <= MAX_SOURCE_DETAIL_CHARS, {
  message: `a receipt's sourceDetail is at most ${MAX_SOURCE_DETAIL_CHARS} characters of JSON`,
});

const common = {
  /** Receipt format version. */
  v: z.literal(1),
  /** The slot this receipt closes (ISO instant): the scheduled time, or the invocation time of a cron `cycle`. */
  slot: z.iso.datetime(),
  /** When the receipt was written (ISO instant). */
  at: z.iso.datetime(),
  /** What wrote it (see {@link ReceiptSource}). */
  source: z.string().min(1).max(40),
  /** The source's own record of the slot, validated by the source (see `sourceDetailSchema`). */
  sourceDetail: sourceDetailSchema.optional(),
  /** Off-host pings of this slot that failed (`--ping`), by event, with the reason; absent when none failed. */
  ping: z.object({ start: z.string().max(300).optional(), end: z.string().max(300).optional() }).optional(),
};

/** The receipt kinds, before {@link legacyDetail}. */
const receiptUnion = z.discriminatedUnion('kind', [
  z.object({
    ...common,
    kind: z.literal('ran'),
    /** Cycle number the state gave it. */
    cycle: z.number().int().nonnegative(),
    status: z.enum(['ok', 'report']),
    /**
     * `held`: the sink's circuit breaker was open, the report was not tried and stays undelivered.
     * `queued`: handed to a durable outbox (the fleet's) that retries until the sink confirms.
     */
    delivery: z.enum(['none', 'delivered', 'failed', 'held', 'queued']),
    /** Why it was `held` (the breaker, or the sink itself: a busy tmux pane) or `failed`: nobody was told, and why. */
    why: z.string().max(500).optional(),
    /** Set when the cycle ran but its state could not be saved. */
    stateError: z.string().max(500).optional(),
    /** Set when a signal cut scanners off: the cycle ran but did not look everywhere (never HEARTBEAT_OK). */
    partial: z.literal(true).optional(),
    /** The scanners the signal cut off (with `partial`). */
    cutOff: z.array(z.string().max(100)).max(50).optional(),
    /** Scanners that were skipped, failed or timed out: a HEARTBEAT_OK that did not look there. */
    notLookedAt: z.array(z.string().max(100)).max(50).optional(),
    /** Scanners that did not run because the cycle fell outside active hours (by design, not a problem, but not looked at either). */
    outsideHours: z.array(z.string().max(100)).max(50).optional(),
    /** HEARTBEAT.md's checks this cycle: which ran, which failed (a scanner problem), which were skipped (not due, exit 2, breaker, hours). */
    checks: z
      .object({
        ran: z.array(z.string().max(100)).max(50),
        failed: z.array(z.string().max(100)).max(50),
        skipped: z.array(z.string().max(100)).max(50),
      })
      .optional(),
    /** With routes by priority: one entry per route that had something to send (its message id and outcome). */
    routes: z
      .array(
        z.object({
          route: z.string().max(20),
          sink: z.string().max(60),
          delivery: z.enum(['delivered', 'failed', 'held']),
          id: z.string().max(100),
          /** Why this route was held or failed. */
          why: z.string().max(500).optional(),
        }),
      )
      .max(8)
      .optional(),
    /** Findings an operator's ack held back this cycle (`heartbeat-kit ack`), with the ack's who, note and end. */
    acked: z
      .array(
        z.object({
          fingerprint: z.string().max(300),
          ack: z.string().max(100),
          by: z.string().max(200),
          note: z.string().max(500),
          until: z.iso.datetime().optional(),
        }),
      )
      .max(50)
      .optional(),
    /** An operator pause this slot honoured in part: the scanners it stopped, or critical findings only. */
    pause: z
      .object({
        note: z.string().max(500),
        until: z.iso.datetime().optional(),
        scanners: z.array(z.string().max(100)).max(50).optional(),
        exceptCritical: z.literal(true).optional(),
      })
      .optional(),
  }),
  z.object({
    ...common,
    kind: z.literal('paused'),
    /** The operator's note. */
    note: z.string().max(500),
    /** When the pause began (ISO instant). */
    since: z.iso.datetime(),
    /** When it ends by itself (absent: until `resume`). */
    until: z.iso.datetime().optional(),
  }),
  z.object({
    ...common,
    kind: z.literal('skipped'),
    reason: z.enum(SKIP_REASON_NAMES),
    /** Last slot of a run of consecutive grid slots this one record closes (missed in one gap). */
    through: z.iso.datetime().optional(),
    /** How many slots the run covers (with `through`). */
    count: z.number().int().positive().optional(),
    /** Short detail (which lock, which config line). */
    detail: z.string().max(500).optional(),
  }),
]);

/**
 * Receipts written before `sourceDetail` existed kept it under the key `beat` (the only source
 * that had a detail then); they still read, with it moved to `sourceDetail`.
 */
function legacyDetail(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !('beat' in value)) return value;
  const { beat, ...rest } = value as Record<string, unknown>;
  return 'sourceDetail' in rest || beat === undefined ? rest : { ...rest, sourceDetail: beat };
}

/**
 * One durable record per slot. `ran` is written only after the cycle evaluated and its delivery
 * finished (delivered, failed or nothing to deliver), so "fired" never passes for "ran".
 */
export const receiptSchema = z.preprocess(legacyDetail, receiptUnion);

/** One durable record of what happened at a slot. */
export type Receipt = z.infer<typeof receiptSchema>;

/** A `ran` receipt. */
export type RanReceipt = Extract<Receipt, { kind: 'ran' }>;

/** A `paused` receipt: the slot came, an operator pause said not to run it. */
export type PausedReceipt = Extract<Receipt, { kind: 'paused' }>;

/** How many receipts are kept and for how long. */
export interface ReceiptBounds {
  readonly maxCount: number;
  readonly maxAgeMs: number;
}

/** Default bounds: 2,000 records (two weeks of 10-minute slots) and 30 days. */
export const DEFAULT_RECEIPT_BOUNDS: ReceiptBounds = { maxCount: 2000, maxAgeMs: 30 * 24 * 3_600_000 };

/** Receipts in time order (by write time, then slot), oldest first. Stable for equal times. */
export function sortReceipts(receipts: readonly Receipt[]): Receipt[] {
  return receipts
    .map((receipt, index) => ({ receipt, index }))
    .sort(
      (a, b) =>
        Date.parse(a.receipt.at) - Date.parse(b.receipt.at) || Date.parse(a.receipt.slot) - Date.parse(b.receipt.slot) || a.index - b.index,
    )
    .map(({ receipt }) => receipt);
}

/**
 * The receipts worth keeping: at most `maxCount`, none written more than `maxAgeMs` before
 * `nowMs`, oldest first. Receipts "from the future" (a clock that was wrong) are kept.
 */
export function pruneReceipts(receipts: readonly Receipt[], nowMs: number, bounds: ReceiptBounds = DEFAULT_RECEIPT_BOUNDS): Receipt[] {
  const fresh = sortReceipts(receipts).filter((r) => nowMs - Date.parse(r.at) <= bounds.maxAgeMs);
  return fresh.slice(Math.max(0, fresh.length - bounds.maxCount));
}

/**
 * Reads a JSONL text of receipts. A line that is not a valid receipt (a torn last line after a
 * crash, a hand edit) is skipped and counted, never fatal.
 */
export function parseReceiptLines(text: string): { receipts: Receipt[]; invalidLines: number } {
  const receipts: Receipt[] = [];
  let invalidLines = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      invalidLines += 1;
      continue;
    }
    const parsed = receiptSchema.safeParse(value);
    if (parsed.success) receipts.push(parsed.data);
    else invalidLines += 1;
  }
  return { receipts, invalidLines };
}
