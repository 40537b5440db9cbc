import { CATEGORY_INFO, COBUILDER_CATEGORIES } from '@heartbeat-kit/scanners';
import {
  FLEET_QUEUE_NAMES,
  type FleetEvent,
  type FleetJobEvent,
  type FleetQueueCounts,
  type FleetQueueName,
} from '@heartbeat-kit/bullmq/node';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { METRIC_PREFIX } from './metric-figures.js';
import type { MetricsText } from './metrics-export.js';

// The figures of one `fleet worker`, kept live in a prom-client registry of their own: a worker runs
// for days and sees every heartbeat's jobs, so its counters and histograms count this process's work
// (Prometheus' usual counter, reset by a restart), unlike `cycle`'s, which are re-counted from receipts.
// This module is loaded only when a metrics flag is given (prom-client stays out of the bin bundle).

const QUEUES = FLEET_QUEUE_NAMES;
/** Queues whose jobs are for a slot: their schedule lag is measured. */
const SLOT_QUEUES: readonly FleetQueueName[] = ['ticks', 'cycles'];
const OUTCOMES = ['completed', 'failed', 'delayed'] as const;
const SKIP_REASONS = ['already-ran', 'unregistered', 'overlap', 'paused'] as const;
const MESSAGE_STATES = ['delivered', 'held', 'failed'] as const;
const QUEUE_STATES = ['waiting', 'delayed', 'active'] as const;
/** Seconds: a fake scan takes milliseconds, a real project's scanners up to minutes. */
const DURATION_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
/** Seconds: a healthy fleet starts a slot's job within a second; minutes late means too few workers. */
const LAG_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];
/** How long a scrape waits for Redis' counts before leaving them out (Redis down must not hang /metrics). */
const SAMPLE_WAIT_MS = 5_000;

/** What the figures sample from the running worker at each scrape or write. */
export interface FleetMetricsSource {
  readonly workerId: string;
  /** False once the worker has closed (the last textfile says so). */
  readonly up: () => boolean;
  readonly paused: () => boolean;
  readonly queueCounts: () => Promise<Readonly<Record<FleetQueueName, FleetQueueCounts>>>;
  readonly registeredHeartbeats: () => Promise<number>;
}

/** A fleet worker's live figures: fed its events and job attempts, rendered per scrape or write. */
export interface FleetMetrics {
  readonly onEvent: (event: FleetEvent) => void;
  readonly onJob: (event: FleetJobEvent) => void;
  /** The figures now, queue depths and registrations read from Redis (left out when Redis does not answer). */
  readonly render: (source: FleetMetricsSource) => Promise<MetricsText>;
}

const name = (suffix: string): string => `${METRIC_PREFIX}fleet_${suffix}`;

/** A new, empty set of fleet worker figures (every labelled series present at 0, so a quiet worker exports like a busy one). */
export function createFleetMetrics(): FleetMetrics {
  const registry = new Registry();
  const registers = [registry];
  // Created in the order they are exported: prom-client renders metrics in registration order.
  const figures: FleetFigures = { registry, ...jobFigures(registers), ...fleetFigures(registers), lastEndRegistered: false };
  zeroFigures(figures);
  // One render at a time: a scrape and a textfile write at once must not see each other's half-registered gauges.
  let rendering: Promise<unknown> = Promise.resolve();
  const render = (source: FleetMetricsSource): Promise<MetricsText> => {
    const next = rendering.then(() => renderNow(figures, source));
    rendering = next.catch(() => undefined);
    return next;
  };
  return { onEvent: (event) => countEvent(figures, event), onJob: (event) => countJob(figures, event), render };
}

/** The worker's own figures: whether it runs, and its job attempts. */
function jobFigures(registers: Registry[]) {
  return {
    up: new Gauge({
      name: name('worker_up'),
      help: '1 while this fleet worker runs; 0 in the textfile it writes on shutdown.',
      registers,
    }),
    paused: new Gauge({
      name: name('worker_paused'),
      help: '1 while this worker takes no new jobs (its BullMQ workers paused, or shutting down), else 0.',
      registers,
    }),
    jobs: new Counter({
      name: name('jobs_total'),
      help: 'Job attempts this worker finished, by queue and outcome (failed: BullMQ retries it; delayed: held back by a sink breaker).',
      labelNames: ['queue', 'outcome'],
      registers,
    }),
    duration: new Histogram({
      name: name('job_duration_seconds'),
      help: 'How long each job attempt of this worker took, by queue.',
      labelNames: ['queue'],
      buckets: DURATION_BUCKETS,
      registers,
    }),
    lag: new Histogram({
      name: name('schedule_lag_seconds'),
      help: "How late this worker started a slot's job: job start minus the slot's time, by queue (ticks, cycles).",
      labelNames: ['queue'],
      buckets: LAG_BUCKETS,
      registers,
    }),
    active: new Gauge({
      name: name('jobs_active'),
      help: 'Jobs this worker is running now, by queue.',
      labelNames: ['queue'],
      registers,
    }),
  };
}

/** The fleet's figures as this worker sees them: queues, registrations, and what its cycles did. */
function fleetFigures(registers: Registry[]) {
  return {
    depth: new Gauge({
      name: name('queue_jobs'),
      help: "Jobs in the fleet's queue by state (every worker's: the same for each worker of a fleet), read from Redis at scrape or write.",
      labelNames: ['queue', 'state'],
      registers: [],
    }),
    registered: new Gauge({
      name: name('heartbeats_registered'),
      help: 'Heartbeats registered in the fleet, read from Redis at scrape or write.',
      registers: [],
    }),
    cycles: new Counter({
      name: name('cycles_total'),
      help: 'Cycles this worker committed, by status.',
      labelNames: ['status'],
      registers,
    }),
    skipped: new Counter({
      name: name('slots_skipped_total'),
      help: 'Slots this worker ran no cycle for, by reason (already-ran, unregistered, overlap, paused).',
      labelNames: ['reason'],
      registers,
    }),
    failedSlots: new Counter({ name: name('slots_failed_total'), help: 'Slots whose setup failed (recorded as config-error).', registers }),
    staleWrites: new Counter({
      name: name('stale_writes_total'),
      help: 'Cycles whose commit the fence refused (the lock was lost).',
      registers,
    }),
    ticksRestarted: new Counter({
      name: name('ticks_restarted_total'),
      help: "Heartbeats whose ticks had stopped (next tick lost or never scheduled) and this worker's watchdog scheduled again.",
      registers,
    }),
    queueErrors: new Counter({
      name: name('queue_errors_total'),
      help: 'Errors BullMQ reported on this worker, by queue (Redis unreachable, a script refused, a next tick not scheduled).',
      labelNames: ['queue'],
      registers,
    }),
    findings: new Counter({
      name: name('findings_total'),
      help: "Findings in the messages of this worker's cycles, by category and priority (every built-in category listed).",
      labelNames: ['category', 'priority'],
      registers,
    }),
    messages: new Counter({
      name: name('messages_total'),
      help: 'Outbox messages by what became of a delivery attempt (delivered; held by an open sink breaker; failed: retried).',
      labelNames: ['state'],
      registers,
    }),
    // Registered at the first job's end: before it there is no time to say (never "1970").
    lastEnd: new Gauge({
      name: name('last_job_end_timestamp_seconds'),
      help: 'When this worker last finished a job attempt (Unix seconds).',
      registers: [],
    }),
  };
}

/** Every figure of one worker, and whether the last-job-end gauge is registered yet. */
type FleetFigures = { readonly registry: Registry } & ReturnType<typeof jobFigures> &
  ReturnType<typeof fleetFigures> & { lastEndRegistered: boolean };

function zeroFigures(f: FleetFigures): void {
  f.ticksRestarted.inc(0);
  for (const queue of QUEUES) {
    f.queueErrors.inc({ queue }, 0);
    for (const outcome of OUTCOMES) f.jobs.inc({ queue, outcome }, 0);
    f.duration.zero({ queue });
    f.active.set({ queue }, 0);
  }
  for (const queue of SLOT_QUEUES) f.lag.zero({ queue });
  for (const status of ['ok', 'report']) f.cycles.inc({ status }, 0);
  for (const reason of SKIP_REASONS) f.skipped.inc({ reason }, 0);
  for (const state of MESSAGE_STATES) f.messages.inc({ state }, 0);
  for (const category of COBUILDER_CATEGORIES) f.findings.inc({ category, priority: CATEGORY_INFO[category].priority }, 0);
}

function countEvent(f: FleetFigures, event: FleetEvent): void {
  if (event.type === 'cycle') {
    f.cycles.inc({ status: event.status ?? (event.report ? 'report' : 'ok') });
    for (const finding of event.findings ?? []) f.findings.inc({ category: finding.category, priority: finding.priority }, finding.count);
  } else if (event.type === 'skip') f.skipped.inc({ reason: event.reason });
  else if (event.type === 'failed') f.failedSlots.inc();
  else if (event.type === 'stale-write') f.staleWrites.inc();
  else if (event.type === 'ticks-restarted') f.ticksRestarted.inc();
  else if (event.type === 'queue-error') f.queueErrors.inc({ queue: event.queue });
  else if (event.type === 'delivered') f.messages.inc({ state: 'delivered' });
  else if (event.type === 'delivery-failed') f.messages.inc({ state: 'failed' });
  else if (event.type === 'sink-breaker' && event.kind === 'held') f.messages.inc({ state: 'held' });
}

function countJob(f: FleetFigures, event: FleetJobEvent): void {
  const { queue } = event;
  if (event.phase === 'start') {
    f.active.inc({ queue });
    if (event.dueMs !== undefined) f.lag.observe({ queue }, Math.max(0, event.startedAtMs - event.dueMs) / 1000);
    return;
  }
  f.active.dec({ queue });
  f.jobs.inc({ queue, outcome: event.outcome });
  f.duration.observe({ queue }, Math.max(0, event.endedAtMs - event.startedAtMs) / 1000);
  if (!f.lastEndRegistered) {
    f.registry.registerMetric(f.lastEnd);
    f.lastEndRegistered = true;
  }
  f.lastEnd.set(event.endedAtMs / 1000);
}

async function renderNow(f: FleetFigures, source: FleetMetricsSource): Promise<MetricsText> {
  const { registry } = f;
  registry.setDefaultLabels({ worker: source.workerId });
  f.up.set(source.up() ? 1 : 0);
  f.paused.set(source.paused() ? 1 : 0);
  // A closed worker's queues are closed: its last figures say nothing of Redis.
  const sampled = !source.up() ? undefined : await withinSampleWait(Promise.all([source.queueCounts(), source.registeredHeartbeats()]));
  // Registered only while sampled: an unlabelled gauge prom-client has no value for reads as 0, a lie.
  for (const sampledName of [name('queue_jobs'), name('heartbeats_registered')]) registry.removeSingleMetric(sampledName);
  if (sampled !== undefined) {
    const [counts, heartbeats] = sampled;
    for (const queue of QUEUES) for (const state of QUEUE_STATES) f.depth.set({ queue, state }, counts[queue][state]);
    f.registered.set(heartbeats);
    registry.registerMetric(f.depth);
    registry.registerMetric(f.registered);
  }
  return { text: await registry.metrics(), contentType: Registry.PROMETHEUS_CONTENT_TYPE };
}

/** The sample, or undefined when Redis failed or did not answer in time (the figures then leave it out). */
async function withinSampleWait<T>(sample: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), SAMPLE_WAIT_MS);
  });
  try {
    return await Promise.race([sample.catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}
