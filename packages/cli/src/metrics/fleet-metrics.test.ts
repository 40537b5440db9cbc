import type { FleetEvent, FleetJobEvent, FleetQueueName } from '@heartbeat-kit/bullmq/node';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { promtool, samples } from '../../test/support/prometheus-text.js';
import { createFleetMetrics, type FleetMetricsSource } from './fleet-metrics.js';

const M = 'heartbeat_kit_fleet_';
const W = 'worker="w1"';
const counts = { waiting: 3, delayed: 2, active: 1 };
const source = (over: Partial<FleetMetricsSource> = {}): FleetMetricsSource => ({
  workerId: 'w1',
  up: () => true,
  paused: () => false,
  queueCounts: () => Promise.resolve({ ticks: counts, cycles: counts, outbox: counts }),
  registeredHeartbeats: () => Promise.resolve(7),
  ...over,
});
const cycle = (heartbeatId: string, report: boolean): FleetEvent => ({
  type: 'cycle',
  heartbeatId,
  slot: 1,
  cycle: 1,
  fence: 1,
  worker: 'w1',
  dueMs: 1_000,
  startedAtMs: 1_200,
  endedAtMs: 1_500,
  report,
  status: report ? 'report' : 'ok',
  findings: report ? [{ category: 'ORCH_FAILURE', priority: 'Immediate', count: 2 }] : [],
});
const job = (queue: FleetQueueName, startedAtMs: number, endedAtMs: number, dueMs?: number): FleetJobEvent[] => [
  { phase: 'start', queue, startedAtMs, ...(dueMs === undefined ? {} : { dueMs }) },
  { phase: 'end', queue, startedAtMs, endedAtMs, outcome: 'completed', ...(dueMs === undefined ? {} : { dueMs }) },
];

describe('fleet worker figures', () => {
  it('a quiet job exports the same series as a busy one, promtool-clean, with the values it was told', async () => {
    const quiet = createFleetMetrics();
    for (const e of job('cycles', 1_200, 1_500, 1_000)) quiet.onJob(e);
    quiet.onEvent(cycle('quiet', false));
    const busy = createFleetMetrics();
    for (const e of job('cycles', 1_200, 1_500, 1_000)) busy.onJob(e);
    busy.onEvent(cycle('busy', true));
    busy.onEvent({ type: 'delivered', heartbeatId: 'busy', cycle: 1, id: 'busy__1', fence: 1, worker: 'w1' });
    busy.onEvent({ type: 'delivery-failed', heartbeatId: 'busy', cycle: 1, id: 'busy__1', message: 'HTTP 503', worker: 'w1' });
    busy.onEvent({ type: 'sink-breaker', kind: 'held', heartbeatId: 'busy', cycle: 2, id: 'busy__1', line: 'held', worker: 'w1' });
    busy.onEvent({ type: 'skip', heartbeatId: 'busy', slot: 2, reason: 'paused', worker: 'w1' });
    busy.onEvent({ type: 'ticks-restarted', heartbeatId: 'busy', lostTickMs: 900, worker: 'w1' });
    busy.onEvent({ type: 'queue-error', queue: 'ticks', message: 'CLUSTERDOWN', worker: 'w1' });
    busy.onEvent({ type: 'queue-error', queue: 'ticks', message: 'CLUSTERDOWN', worker: 'w1' });
    const quietText = (await quiet.render(source())).text;
    const busyText = (await busy.render(source())).text;
    expect(promtool(quietText)).toEqual({ code: 0, output: '' });
    expect(promtool(busyText)).toEqual({ code: 0, output: '' });
    const q = samples(quietText);
    const b = samples(busyText);
    expect([...q.keys()].sort()).toEqual([...b.keys()].sort());
    expect(q.get(`${M}cycles_total{status="ok",${W}}`)).toBe(1);
    expect(b.get(`${M}cycles_total{status="report",${W}}`)).toBe(1);
    expect(b.get(`${M}findings_total{category="ORCH_FAILURE",priority="Immediate",${W}}`)).toBe(2);
    expect(q.get(`${M}findings_total{category="ORCH_FAILURE",priority="Immediate",${W}}`)).toBe(0);
    for (const state of ['delivered', 'failed', 'held']) expect(b.get(`${M}messages_total{state="${state}",${W}}`)).toBe(1);
    expect(b.get(`${M}ticks_restarted_total{${W}}`)).toBe(1);
    expect(q.get(`${M}ticks_restarted_total{${W}}`)).toBe(0);
    expect(b.get(`${M}queue_errors_total{queue="ticks",${W}}`)).toBe(2);
    expect(q.get(`${M}queue_errors_total{queue="outbox",${W}}`)).toBe(0);
    expect(b.get(`${M}slots_skipped_total{reason="paused",${W}}`)).toBe(1);
    // 0.3 s of work, started 0.2 s after its slot: in the 0.5 s duration bucket and the 0.25 s lag bucket.
    expect(b.get(`${M}job_duration_seconds_bucket{le="0.25",${W},queue="cycles"}`)).toBe(0);
    expect(b.get(`${M}job_duration_seconds_bucket{le="0.5",${W},queue="cycles"}`)).toBe(1);
    expect(b.get(`${M}schedule_lag_seconds_bucket{le="0.1",${W},queue="cycles"}`)).toBe(0);
    expect(b.get(`${M}schedule_lag_seconds_bucket{le="0.25",${W},queue="cycles"}`)).toBe(1);
    expect(b.get(`${M}schedule_lag_seconds_sum{${W},queue="cycles"}`)).toBeCloseTo(0.2);
    expect(b.get(`${M}last_job_end_timestamp_seconds{${W}}`)).toBe(1.5);
    expect(b.get(`${M}queue_jobs{queue="outbox",state="waiting",${W}}`)).toBe(3);
    expect(b.get(`${M}heartbeats_registered{${W}}`)).toBe(7);
  });

  it('says no time before a job ended, and leaves out what Redis could not tell (never a 0 that is not known)', async () => {
    const metrics = createFleetMetrics();
    const failing = await metrics.render(source({ queueCounts: () => Promise.reject(new Error('Connection is closed')) }));
    expect(promtool(failing.text)).toEqual({ code: 0, output: '' });
    expect(failing.text).not.toContain('last_job_end_timestamp_seconds');
    expect(failing.text).not.toContain('queue_jobs');
    expect(failing.text).not.toContain('heartbeats_registered');
    const back = samples((await metrics.render(source())).text);
    expect(back.get(`${M}heartbeats_registered{${W}}`)).toBe(7);
    const down = samples((await metrics.render(source({ up: () => false, paused: () => true }))).text);
    expect(down.get(`${M}worker_up{${W}}`)).toBe(0);
    expect(down.get(`${M}worker_paused{${W}}`)).toBe(1);
    expect(down.has(`${M}heartbeats_registered{${W}}`)).toBe(false);
  });

  it('property: counters never go down, active jobs are the attempts not yet ended, every ended attempt is counted once', async () => {
    const queue = fc.constantFrom<FleetQueueName>('ticks', 'cycles', 'outbox');
    const step = fc.oneof(
      fc.record({
        kind: fc.constant('start' as const),
        queue,
        lagMs: fc.option(fc.integer({ min: -5_000, max: 900_000 }), { nil: undefined }),
      }),
      fc.record({
        kind: fc.constant('end' as const),
        outcome: fc.constantFrom('completed' as const, 'failed' as const, 'delayed' as const),
        ms: fc.nat(400_000),
      }),
      fc.record({ kind: fc.constant('cycle' as const), report: fc.boolean() }),
      fc.record({ kind: fc.constant('render' as const) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 40 }), async (steps) => {
        const metrics = createFleetMetrics();
        const open: { queue: FleetQueueName; startedAtMs: number; dueMs?: number }[] = [];
        let ended = 0;
        let previous = new Map<string, number>();
        const check = async () => {
          const now = samples((await metrics.render(source())).text);
          for (const [key, value] of previous)
            if (key.includes('_total') || key.includes('_bucket') || key.endsWith('_count'))
              expect(now.get(key), key).toBeGreaterThanOrEqual(value);
          for (const q of ['ticks', 'cycles', 'outbox'])
            expect(now.get(`${M}jobs_active{queue="${q}",${W}}`)).toBe(open.filter((o) => o.queue === q).length);
          const total = [...now].filter(([key]) => key.startsWith(`${M}jobs_total`)).reduce((sum, [, v]) => sum + v, 0);
          expect(total).toBe(ended);
          previous = now;
        };
        for (const s of steps) {
          if (s.kind === 'start') {
            const started = { queue: s.queue, startedAtMs: 1_000_000, ...(s.lagMs === undefined ? {} : { dueMs: 1_000_000 - s.lagMs }) };
            open.push(started);
            metrics.onJob({ phase: 'start', ...started });
          } else if (s.kind === 'end') {
            const started = open.shift();
            if (started === undefined) continue;
            ended += 1;
            metrics.onJob({ phase: 'end', ...started, endedAtMs: started.startedAtMs + s.ms, outcome: s.outcome });
          } else if (s.kind === 'cycle') metrics.onEvent(cycle('h', s.report));
          else await check();
        }
        await check();
      }),
      { numRuns: 60 },
    );
  });
});
