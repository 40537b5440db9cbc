import type { CycleOutcome, HeartbeatState, Receipt } from '@heartbeat-kit/core';
import { type PauseDecision, SKIP_REASON_NAMES } from '@heartbeat-kit/core/host';
import { CATEGORY_INFO, COBUILDER_CATEGORIES } from '@heartbeat-kit/scanners';

/** One sample of a metric family: its labels and value. */
export interface MetricSample {
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** One metric family, as the exposition format has it (no library types: the figures stay pure). */
export interface MetricFamily {
  readonly name: string;
  readonly help: string;
  readonly type: 'gauge' | 'counter';
  readonly labelNames: readonly string[];
  readonly samples: readonly MetricSample[];
}

/** What the figures are derived from: the receipts (every process's), and this process's last cycle. */
export interface MetricInputs {
  /** The receipts beside the state, oldest first (all writers: `cycle`, `loop`, fleet). */
  readonly receipts: readonly Receipt[];
  /** The last cycle this process ran (absent: none ran, e.g. a paused slot of a one-shot `cycle`). */
  readonly outcome?: CycleOutcome | undefined;
  /** The state after it (breakers); defaults to the outcome's. */
  readonly state?: HeartbeatState | undefined;
  /** The next slot this process will run (loop, or `cycle --cron`); absent: not known. */
  readonly nextSlotMs?: number | undefined;
  /** The operator's pause as read at the last slot. */
  readonly pause?: PauseDecision | undefined;
}

/** The prefix of every metric name. */
export const METRIC_PREFIX = 'heartbeat_kit_';

const SCANNER_STATUSES = ['ok', 'degraded', 'skipped', 'error', 'timeout'] as const;
const LAST_STATUSES = ['ok', 'report', 'partial', 'paused', 'skipped'] as const;
const DELIVERY_STATES = ['delivered', 'failed', 'held', 'queued'] as const;

const seconds = (iso: string): number => Date.parse(iso) / 1000;

function family(
  name: string,
  type: MetricFamily['type'],
  help: string,
  labelNames: readonly string[],
  samples: readonly MetricSample[],
): MetricFamily {
  return { name: `${METRIC_PREFIX}${name}`, type, help, labelNames, samples };
}

function single(name: string, type: MetricFamily['type'], help: string, value: number | undefined): MetricFamily {
  return family(name, type, help, [], value === undefined ? [] : [{ labels: {}, value }]);
}

function counts(keys: readonly string[]): Map<string, number> {
  return new Map(keys.map((k) => [k, 0]));
}

function add(map: Map<string, number>, key: string, by = 1): void {
  map.set(key, (map.get(key) ?? 0) + by);
}

/** What a receipt says of its slot, for `last_status` and `cycles_total`. */
function statusOf(receipt: Receipt): (typeof LAST_STATUSES)[number] {
  if (receipt.kind !== 'ran') return receipt.kind;
  return receipt.partial === true ? 'partial' : receipt.status;
}

/**
 * The counters, from the receipts alone: a textfile written by one-shot `cycle` runs counts what
 * every earlier run recorded, so it only grows (until the receipt store's own bound drops old ones:
 * Prometheus then sees a counter reset, which `rate()` and `increase()` handle).
 */
function receiptCounters(receipts: readonly Receipt[]): MetricFamily[] {
  const cycles = counts(['ok', 'report', 'partial']);
  const skipped = counts(SKIP_REASON_NAMES);
  const deliveries = new Map<string, number>(DELIVERY_STATES.map((state) => [`default\u0000${state}`, 0]));
  const messages = counts(DELIVERY_STATES);
  let paused = 0;
  for (const receipt of receipts) {
    if (receipt.kind === 'paused') paused += 1;
    else if (receipt.kind === 'skipped') add(skipped, receipt.reason, receipt.count ?? 1);
    else {
      add(cycles, statusOf(receipt));
      if (receipt.delivery !== 'none') add(messages, receipt.delivery);
      if (receipt.routes === undefined || receipt.routes.length === 0) {
        if (receipt.delivery !== 'none') add(deliveries, `default\u0000${receipt.delivery}`);
      } else for (const route of receipt.routes) add(deliveries, `${route.sink}\u0000${route.delivery}`);
    }
  }
  const byKey = (map: Map<string, number>, label: string): MetricSample[] =>
    [...map].map(([key, value]) => ({ labels: { [label]: key }, value }));
  return [
    family(
      'cycles_total',
      'counter',
      'Cycles that ran, by status (partial: a signal cut scanners off), from the receipts.',
      ['status'],
      byKey(cycles, 'status'),
    ),
    family(
      'slots_skipped_total',
      'counter',
      'Slots that did not run a cycle, by cause, from the receipts.',
      ['cause'],
      byKey(skipped, 'cause'),
    ),
    single('slots_paused_total', 'counter', 'Slots an operator pause skipped whole, from the receipts.', paused),
    family(
      'messages_total',
      'counter',
      'Report messages, by what became of their delivery, from the receipts.',
      ['state'],
      byKey(messages, 'state'),
    ),
    family(
      'deliveries_total',
      'counter',
      'Deliveries by sink (default: the --sink or ## Delivery sink; else the route sink) and state, from the receipts.',
      ['sink', 'state'],
      [...deliveries].map(([key, value]) => {
        const [sink = '', state = ''] = key.split('\u0000');
        return { labels: { sink, state }, value };
      }),
    ),
  ];
}

/** The gauges of the newest receipt: when the last cycle ran, and what the last slot did. */
function lastSlotGauges(receipts: readonly Receipt[]): MetricFamily[] {
  const lastRan = receipts.findLast((r) => r.kind === 'ran');
  const last = receipts.at(-1);
  const status = last === undefined ? undefined : statusOf(last);
  return [
    single(
      'last_cycle_start_timestamp_seconds',
      'gauge',
      'The slot the last cycle that ran started for (Unix seconds).',
      lastRan && seconds(lastRan.slot),
    ),
    single(
      'last_cycle_end_timestamp_seconds',
      'gauge',
      'When the last cycle that ran finished: its receipt was written (Unix seconds).',
      lastRan && seconds(lastRan.at),
    ),
    single(
      'last_cycle_number',
      'gauge',
      'The cycle number of the last cycle that ran.',
      lastRan?.kind === 'ran' ? lastRan.cycle : undefined,
    ),
    family(
      'last_status',
      'gauge',
      'What the newest slot did: 1 for its status, 0 for the others (no samples before the first receipt).',
      ['status'],
      status === undefined ? [] : LAST_STATUSES.map((s) => ({ labels: { status: s }, value: s === status ? 1 : 0 })),
    ),
  ];
}

/** The gauges of this process's last cycle: findings, the message and its tokens, each scanner. */
function cycleGauges(outcome: CycleOutcome | undefined, state: HeartbeatState | undefined): MetricFamily[] {
  const findings = new Map<string, number>();
  for (const category of COBUILDER_CATEGORIES) findings.set(`${category}\u0000${CATEGORY_INFO[category].priority}`, 0);
  for (const finding of outcome?.decision.reportable ?? []) add(findings, `${finding.category}\u0000${finding.priority}`);
  const scanners = outcome?.decision.scanners ?? [];
  const breakers = state?.breakers ?? {};
  const breakerNames = [...new Set([...scanners.map((s) => s.name), ...Object.keys(breakers)])];
  const problemsOf = (name: string): boolean => outcome?.problems.some((p) => p.scanner === name && p.severity === 'warning') ?? false;
  const scannerStatus = (name: string, status: string): string => (status === 'ok' && problemsOf(name) ? 'degraded' : status);
  const message = outcome?.decision.message;
  return [
    family(
      'last_cycle_findings',
      'gauge',
      "Findings in the last cycle's message, by category and priority (every built-in category is listed, 0 when quiet).",
      ['category', 'priority'],
      outcome === undefined
        ? []
        : [...findings].map(([key, value]) => {
            const [category = '', priority = ''] = key.split('\u0000');
            return { labels: { category, priority }, value };
          }),
    ),
    single(
      'last_cycle_messages',
      'gauge',
      'Messages the last cycle decided to send (report and cost alert; 0 when quiet).',
      outcome && (message ? 1 : 0) + (outcome.decision.costAlert ? 1 : 0),
    ),
    single(
      'last_cycle_message_tokens',
      'gauge',
      'Estimated tokens the last cycle put before a model (0 when quiet).',
      outcome?.decision.estimatedTokens,
    ),
    family(
      'scanner_duration_seconds',
      'gauge',
      'How long each scanner took in the last cycle.',
      ['scanner'],
      scanners.map((s) => ({ labels: { scanner: s.name }, value: s.durationMs / 1000 })),
    ),
    family(
      'scanner_status',
      'gauge',
      "Each scanner's status in the last cycle: 1 for its status, 0 for the others (degraded: ran with a warning).",
      ['scanner', 'status'],
      scanners.flatMap((s) =>
        SCANNER_STATUSES.map((status) => ({
          labels: { scanner: s.name, status },
          value: scannerStatus(s.name, s.status) === status ? 1 : 0,
        })),
      ),
    ),
    family(
      'scanner_breaker_open',
      'gauge',
      "1 while a scanner's circuit breaker is tripped (its runs are backed off), else 0.",
      ['scanner'],
      breakerNames.map((name) => ({ labels: { scanner: name }, value: (breakers[name]?.backoff ?? 0) > 0 ? 1 : 0 })),
    ),
    family(
      'scanner_breaker_failures',
      'gauge',
      'Consecutive cycles a scanner failed the same way (0: not failing).',
      ['scanner'],
      breakerNames.map((name) => ({ labels: { scanner: name }, value: breakers[name]?.failures ?? 0 })),
    ),
  ];
}

/**
 * Every figure `--metrics-textfile` and `--metrics-listen` export, derived from the receipts and the
 * last cycle's outcome (never from hooks inside the cycle). A quiet cycle emits every family a busy one
 * does, with zeros.
 */
export function metricFigures(inputs: MetricInputs): readonly MetricFamily[] {
  const state = inputs.state ?? inputs.outcome?.state;
  const pause = inputs.pause;
  return [
    ...lastSlotGauges(inputs.receipts),
    single(
      'next_slot_timestamp_seconds',
      'gauge',
      'The next slot this heartbeat will run (Unix seconds; absent when not scheduled by it).',
      inputs.nextSlotMs === undefined ? undefined : inputs.nextSlotMs / 1000,
    ),
    single('paused', 'gauge', '1 while an operator pause skips whole slots, else 0.', pause?.kind === 'skip' ? 1 : 0),
    single(
      'paused_partially',
      'gauge',
      '1 while an operator pause stops some scanners or reports critical findings only, else 0.',
      pause?.kind === 'partial' ? 1 : 0,
    ),
    ...receiptCounters(inputs.receipts),
    ...cycleGauges(inputs.outcome, state),
  ];
}
