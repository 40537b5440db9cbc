import { z } from 'zod';
import { scannerBreakerSchema } from '../cycle/scanner-breaker.js';
import type { CycleOutcome } from '../cycle/run-cycle.js';
import { cutOffScanners, notLookedAtScanners, type ScanProblem } from '../cycle/scan-problems.js';
import type { CycleDecision } from '../cycle/evaluate-cycle.js';
import type { RouteDelivery } from '../cycle/deliver-routes.js';
import type { ScanResult } from '../domain/scan-result.js';
import type { SkippedSlots } from './catch-up.js';
import type { Pause } from '../operator/pause-model.js';

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

/** What wrote a receipt. */
export const RECEIPT_SOURCES = ['cycle', 'loop', 'woterclip', 'fleet'] as const;

/** What wrote a receipt. */
export type ReceiptSource = (typeof RECEIPT_SOURCES)[number];

const common = {
  /** Receipt format version. */
  v: z.literal(1),
  /** The slot this receipt closes (ISO instant): the scheduled time, or the invocation time of a cron `cycle`. */
  slot: z.iso.datetime(),
  /** When the receipt was written (ISO instant). */
  at: z.iso.datetime(),
  source: z.enum(RECEIPT_SOURCES),
  /** What a WoterClip beat did and the state it hands to the next beat (source `woterclip`). */
  beat: z
    .object({
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
    })
    .optional(),
  /** Off-host pings of this slot that failed (`--ping`), by event, with the reason; absent when none failed. */
  ping: z.object({ start: z.string().max(300).optional(), end: z.string().max(300).optional() }).optional(),
};

/**
 * One durable record per slot. `ran` is written only after the cycle evaluated and its delivery
 * finished (delivered, failed or nothing to deliver), so "fired" never passes for "ran".
 */
export const receiptSchema = z.discriminatedUnion('kind', [
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

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export function receiptForOutcome(
  outcome: CycleOutcome,
  slot: { readonly slotMs: number; readonly atMs: number; readonly source: ReceiptSource; readonly pause?: Pause | undefined },
  options: { readonly checks?: readonly string[] } = {},
): Receipt {
  if (outcome.dryRun === true || outcome.delivery === 'dry-run') {
    return {
      v: 1,
      slot: iso(slot.slotMs),
      at: iso(slot.atMs),
      source: slot.source,
      kind: 'skipped',
      reason: 'dry-run',
      detail: `would have been cycle ${outcome.decision.cycle} (${outcome.decision.status})`,
    };
  }
  return ranReceipt({ ...outcome, delivery: outcome.delivery }, slot, options);
}

/** What a `ran` receipt records of a cycle: its decision and scans, how its report went. */
export interface RanCycle {
  readonly decision: CycleDecision;
  readonly problems: readonly ScanProblem[];
  readonly scanResults: readonly ScanResult[];
  readonly delivery: RanReceipt['delivery'];
  /** Why the report was held or failed (`cycle --json`'s `deliveryWhy`). */
  readonly deliveryWhy?: string | undefined;
  readonly stateError?: string | undefined;
  readonly routes?: readonly RouteDelivery[] | undefined;
}

/**
 * The `ran` receipt of a cycle that ran (a `cycle`, a `loop` slot, a fleet job): every runner
 * records the same fields — cut-off and not-looked-at scanners, the checks that ran, failed or
 * were skipped (`options.checks`: the check names), routes, acked findings, the pause honoured.
 * A cycle a signal cut short is `ran` with `partial` and the cut-off scanners: it ran (liveness
 * counts it, catch-up does not re-run its slot) but `history` must not show it as HEARTBEAT_OK.
 */
export function ranReceipt(
  cycle: RanCycle,
  slot: { readonly slotMs: number; readonly atMs: number; readonly source: ReceiptSource; readonly pause?: Pause | undefined },
  options: { readonly checks?: readonly string[] } = {},
): RanReceipt {
  const pause = slot.pause;
  const cutOff = cutOffScanners(cycle.problems);
  const notLookedAt = notLookedAtScanners(cycle.problems);
  return {
    v: 1,
    slot: iso(slot.slotMs),
    at: iso(slot.atMs),
    source: slot.source,
    kind: 'ran',
    cycle: cycle.decision.cycle,
    status: cycle.decision.status,
    delivery: cycle.delivery,
    ...(cycle.deliveryWhy === undefined || (cycle.delivery !== 'held' && cycle.delivery !== 'failed')
      ? {}
      : { why: cycle.deliveryWhy.slice(0, 500) }),
    ...(cycle.stateError === undefined ? {} : { stateError: cycle.stateError.slice(0, 500) }),
    ...(cutOff.length === 0 ? {} : { partial: true as const, cutOff: cutOff.slice(0, 50).map((name) => name.slice(0, 100)) }),
    ...(notLookedAt.length === 0 ? {} : { notLookedAt: notLookedAt.slice(0, 50).map((name) => name.slice(0, 100)) }),
    ...checksOf(cycle.scanResults, options.checks ?? []),
    ...(cycle.routes === undefined || cycle.routes.length === 0
      ? {}
      : {
          routes: cycle.routes.slice(0, 8).map((r) => ({
            route: r.route,
            sink: r.sink.slice(0, 60),
            delivery: r.delivery,
            id: r.messageId.slice(0, 100),
            ...(r.error === undefined || r.delivery === 'delivered' ? {} : { why: r.error.slice(0, 500) }),
          })),
        }),
    ...ackedOf(cycle.decision),
    ...(pause === undefined
      ? {}
      : {
          pause: {
            note: pause.note,
            ...(pause.until === undefined ? {} : { until: pause.until }),
            ...(pause.scanners === undefined ? {} : { scanners: pause.scanners }),
            ...(pause.exceptCritical === true ? { exceptCritical: true as const } : {}),
          },
        }),
  };
}

/** The receipt of a slot an operator pause skipped whole. */
export function pausedReceipt(
  pause: Pause,
  slot: { readonly slotMs: number; readonly atMs: number; readonly source: ReceiptSource },
): PausedReceipt {
  return {
    v: 1,
    kind: 'paused',
    slot: iso(slot.slotMs),
    at: iso(slot.atMs),
    source: slot.source,
    note: pause.note,
    since: pause.since,
    ...(pause.until === undefined ? {} : { until: pause.until }),
  };
}

/** The `acked` field of a ran receipt: the findings an ack held this cycle (absent when none). */
function ackedOf(decision: CycleDecision): { acked?: NonNullable<RanReceipt['acked']> } {
  const held = decision.suppressed.filter((s) => s.reason === 'ack' && s.ack !== undefined).slice(0, 50);
  if (held.length === 0) return {};
  return {
    acked: held.map(({ finding, ack }) => ({
      fingerprint: finding.fingerprint.slice(0, 300),
      ack: ack?.id ?? '',
      by: ack?.by.slice(0, 200) ?? '',
      note: ack?.note.slice(0, 500) ?? '',
      ...(ack?.until === undefined ? {} : { until: ack.until }),
    })),
  };
}

/** Which of the named checks ran, failed or were skipped this cycle (nothing when there are none). */
function checksOf(
  scanResults: readonly ScanResult[],
  names: readonly string[],
): { checks?: { ran: string[]; failed: string[]; skipped: string[] } } {
  if (names.length === 0) return {};
  const checks = { ran: [] as string[], failed: [] as string[], skipped: [] as string[] };
  for (const result of scanResults) {
    if (!names.includes(result.scanner)) continue;
    const list = result.status === 'ok' ? checks.ran : result.status === 'skipped' ? checks.skipped : checks.failed;
    if (list.length < 50) list.push(result.scanner.slice(0, 100));
  }
  return { checks };
}

/** A receipt for a slot that did not run. */
export function skippedReceipt(
  reason: SkipReason,
  slot: {
    readonly slotMs: number;
    readonly atMs: number;
    readonly source: ReceiptSource;
    readonly detail?: string;
    readonly throughMs?: number;
    readonly count?: number;
  },
): Receipt {
  const range =
    slot.throughMs !== undefined && slot.throughMs > slot.slotMs ? { through: iso(slot.throughMs), count: slot.count ?? 2 } : {};
  return {
    v: 1,
    kind: 'skipped',
    slot: iso(slot.slotMs),
    at: iso(slot.atMs),
    source: slot.source,
    reason,
    ...range,
    ...(slot.detail === undefined ? {} : { detail: slot.detail.slice(0, 500) }),
  };
}

/** The receipt of a run of skipped slots (see {@link SkippedSlots}). */
export function receiptForSkippedSlots(slots: SkippedSlots, atMs: number, source: ReceiptSource): Receipt {
  return skippedReceipt(slots.reason, {
    slotMs: slots.fromMs,
    throughMs: slots.throughMs,
    count: slots.count,
    atMs,
    source,
    detail: slots.detail,
  });
}

/**
 * The newest slot the receipts close (the end of a range counts), or undefined when there are none.
 * With `atOrBeforeMs` (the current clock), slots later than it are left out: a receipt from the
 * future never closes a slot of the current grid.
 */
export function lastRecordedSlotMs(receipts: readonly Receipt[], atOrBeforeMs?: number): number | undefined {
  let last: number | undefined;
  for (const r of receipts) {
    const ms = Date.parse(r.kind === 'skipped' && r.through !== undefined ? r.through : r.slot);
    if (atOrBeforeMs !== undefined && ms > atOrBeforeMs) continue;
    if (last === undefined || ms > last) last = ms;
  }
  return last;
}

/** The newest slot the receipts record later than `nowMs` (a clock that went back, a rehearsal), or undefined. */
export function futureRecordedSlotMs(receipts: readonly Receipt[], nowMs: number): number | undefined {
  const last = lastRecordedSlotMs(receipts);
  return last !== undefined && last > nowMs ? last : undefined;
}

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

function formatBeat(beat: NonNullable<Receipt['beat']>): string {
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

/** One line of `history`. */
export function formatReceipt(receipt: Receipt): string {
  const ping = receipt.ping;
  if (ping === undefined) return formatReceiptBody(receipt);
  const failed = [ping.start === undefined ? '' : `start: ${ping.start}`, ping.end === undefined ? '' : `end: ${ping.end}`].filter(Boolean);
  return `${formatReceiptBody(receipt)} (ping failed: ${failed.join('; ')})`;
}

function formatReceiptBody(receipt: Receipt): string {
  const head = `${receipt.slot}  ${receipt.source.padEnd(9)}`;
  if (receipt.kind === 'ran' && receipt.beat !== undefined) return `${head} ran      ${formatBeat(receipt.beat)}`;
  if (receipt.kind === 'ran') {
    const notLooked = receipt.notLookedAt === undefined ? '' : ` (not looked at: ${receipt.notLookedAt.join(', ')})`;
    const extra = receipt.stateError === undefined ? '' : ` (state not saved: ${receipt.stateError})`;
    const result =
      receipt.partial === true
        ? `partial (a signal cut off ${receipt.cutOff?.join(', ') || 'scanners'})${receipt.status === 'report' ? ', report' : ''}`
        : receipt.status === 'ok'
          ? `HEARTBEAT_OK${notLooked}`
          : `report${notLooked}`;
    const checks =
      receipt.checks === undefined
        ? ''
        : `; checks ran: ${receipt.checks.ran.join(', ') || 'none'}${receipt.checks.failed.length === 0 ? '' : `, failed: ${receipt.checks.failed.join(', ')}`}${receipt.checks.skipped.length === 0 ? '' : `, skipped: ${receipt.checks.skipped.join(', ')}`}`;
    // With routes, each route's outcome: which one failed is what the operator looks for.
    const routes =
      receipt.routes === undefined
        ? ''
        : ` (${receipt.routes.map((r) => `${r.route} → ${r.sink} ${r.delivery}${r.why === undefined ? '' : `: ${r.why}`}`).join(', ')})`;
    // Held or failed: nobody was told, and the line says why.
    const why = receipt.why === undefined || receipt.routes !== undefined ? '' : ` (${receipt.why})`;
    const acked = (receipt.acked ?? [])
      .map((a) => `; held by ack: ${a.fingerprint} (${a.by}${a.until === undefined ? '' : `, until ${a.until}`}: ${a.note})`)
      .join('');
    const pause =
      receipt.pause === undefined
        ? ''
        : ` (paused${receipt.pause.scanners === undefined ? '' : `, not looked at: ${receipt.pause.scanners.join(', ')}`}${receipt.pause.exceptCritical === true ? ', critical findings only' : ''}: ${receipt.pause.note})`;
    return `${head} ran      cycle #${receipt.cycle} ${result}, delivery ${receipt.delivery}${why}${routes}${extra}${pause}${checks}${acked}`;
  }
  if (receipt.kind === 'paused')
    return `${head} paused   ${receipt.until === undefined ? `since ${receipt.since}, until resume` : `until ${receipt.until}`}: ${receipt.note}`;
  const range = receipt.through === undefined ? '' : ` (${receipt.count ?? '?'} slots through ${receipt.through})`;
  return `${head} skipped  ${receipt.reason}${range}: ${receipt.detail ?? SKIP_REASONS[receipt.reason]}`;
}
