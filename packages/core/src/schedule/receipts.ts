import type { CycleOutcome } from '../cycle/run-cycle.js';
import { cutOffScanners, notLookedAtScanners, outsideHoursScanners, type ScanProblem } from '../cycle/scan-problems.js';
import type { CycleDecision } from '../cycle/evaluate-cycle.js';
import type { RouteDelivery } from '../cycle/deliver-routes.js';
import type { ScanResult } from '../domain/scan-result.js';
import type { SkippedSlots } from './catch-up.js';
import type { Pause } from '../operator/pause-model.js';
import { SKIP_REASONS, type PausedReceipt, type RanReceipt, type Receipt, type ReceiptSource, type SkipReason } from './receipt-schema.js';

export {
  SKIP_REASONS,
  SKIP_REASON_NAMES,
  MAX_SOURCE_DETAIL_CHARS,
  receiptSchema,
  DEFAULT_RECEIPT_BOUNDS,
  sortReceipts,
  pruneReceipts,
  parseReceiptLines,
  type SkipReason,
  type ReceiptSource,
  type Receipt,
  type RanReceipt,
  type PausedReceipt,
  type ReceiptBounds,
} from './receipt-schema.js';

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
  const outsideHours = outsideHoursScanners(cycle.scanResults);
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
    ...(outsideHours.length === 0 ? {} : { outsideHours: outsideHours.slice(0, 50).map((name) => name.slice(0, 100)) }),
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

/**
 * How a receipt's source words its own `ran` receipts in `history` (from its `sourceDetail`);
 * undefined: the cycle's words.
 */
export type DescribeRanReceipt = (receipt: RanReceipt) => string | undefined;

/** One line of `history`; `describeRan` lets a receipt's source word its `ran` receipts. */
export function formatReceipt(receipt: Receipt, describeRan?: DescribeRanReceipt): string {
  const ping = receipt.ping;
  if (ping === undefined) return formatReceiptBody(receipt, describeRan);
  const failed = [ping.start === undefined ? '' : `start: ${ping.start}`, ping.end === undefined ? '' : `end: ${ping.end}`].filter(Boolean);
  return `${formatReceiptBody(receipt, describeRan)} (ping failed: ${failed.join('; ')})`;
}

function formatReceiptBody(receipt: Receipt, describeRan: DescribeRanReceipt | undefined): string {
  const head = `${receipt.slot}  ${receipt.source.padEnd(9)}`;
  const described = receipt.kind === 'ran' ? describeRan?.(receipt) : undefined;
  if (described !== undefined) return `${head} ran      ${described}`;
  if (receipt.kind === 'ran') {
    // Outside active hours is by design, yet a HEARTBEAT_OK must not pass for having looked there.
    const unseen = [
      receipt.notLookedAt === undefined ? '' : `not looked at: ${receipt.notLookedAt.join(', ')}`,
      receipt.outsideHours === undefined ? '' : `outside active hours: ${receipt.outsideHours.join(', ')}`,
    ].filter(Boolean);
    const notLooked = unseen.length === 0 ? '' : ` (${unseen.join('; ')})`;
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
