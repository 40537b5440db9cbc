import { context, SpanStatusCode } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { createFinding, DEFAULT_HEARTBEAT_CONFIG, runCycle, type Scanner, scanOk } from '@heartbeat-kit/core';
import { createFakeClock, createFakeCommandRunner, createMemoryStateStore, createRecordingSink } from '@heartbeat-kit/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOtelCycleObserver, tracedCommandRunner } from './index.js';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer('test');

const contextManager = new AsyncLocalStorageContextManager();
beforeAll(() => void context.setGlobalContextManager(contextManager.enable()));
afterAll(() => {
  context.disable();
});

const parentName = (spans: readonly ReadableSpan[], span: ReadableSpan): string | undefined =>
  spans.find((s) => s.spanContext().spanId === span.parentSpanContext?.spanId)?.name;

describe('@heartbeat-kit/otel with the SDK in-memory exporter', () => {
  it('spans cycle → scanner → command → sink, with the decision as attributes', async () => {
    exporter.reset();
    const runner = tracedCommandRunner(
      createFakeCommandRunner((request) => (request.file === 'bd' ? { exitCode: 1, stderr: 'locked' } : { stdout: '' })),
      tracer,
    );
    const stale = createFinding({ category: 'GIT_STALE', subject: '/wt', line: 'STALE: /wt', action: 'Commit /wt', short: 'wt stale' });
    const git: Scanner = {
      name: 'git',
      runsOutsideActiveHours: true,
      scan: async () => {
        await runner.run({ file: '/usr/bin/git', args: ['status', '--porcelain', 'TOKEN=secret'], profile: 'git' });
        return scanOk('git', { findings: [stale] });
      },
    };
    const beads: Scanner = {
      name: 'beads',
      runsOutsideActiveHours: true,
      scan: async () => {
        await runner.run({ file: 'bd', args: ['ready', '--json'], profile: 'bd' });
        return { scanner: 'beads', status: 'error', error: 'bd: locked', durationMs: 1 };
      },
    };
    const clock = createFakeClock(new Date('2026-02-19T10:00:00Z'));
    const outcome = await runCycle(
      {
        clock,
        sleep: clock,
        stateStore: createMemoryStateStore(),
        sink: createRecordingSink(),
        scanners: [git, beads],
        observer: createOtelCycleObserver(tracer),
      },
      { config: DEFAULT_HEARTBEAT_CONFIG, timeZone: 'UTC' },
    );
    expect(outcome.delivery).toBe('delivered');
    const spans = exporter.getFinishedSpans();
    const tree = spans.map((s) => `${parentName(spans, s) ?? '-'} > ${s.name}`).sort();
    expect(tree).toEqual(
      [
        '- > heartbeat.cycle',
        'heartbeat.cycle > heartbeat.scanner git',
        'heartbeat.cycle > heartbeat.scanner beads',
        'heartbeat.cycle > heartbeat.deliver sink',
        'heartbeat.scanner git > heartbeat.command git',
        'heartbeat.scanner beads > heartbeat.command bd',
      ].sort(),
    );
    const byName = (name: string) => spans.find((s) => s.name === name)!;
    expect(byName('heartbeat.cycle').attributes).toMatchObject({
      'heartbeat.cycle': 1,
      'heartbeat.status': 'report',
      'heartbeat.delivery': 'delivered',
      'heartbeat.findings': 1,
      'heartbeat.categories': ['GIT_STALE'],
      'heartbeat.inside_active_hours': true,
    });
    expect(byName('heartbeat.scanner beads').status.code).toBe(SpanStatusCode.ERROR);
    expect(byName('heartbeat.command bd').attributes).toMatchObject({ 'process.exit.code': 1, 'heartbeat.command.profile': 'bd' });
    expect(byName('heartbeat.deliver sink').attributes).toMatchObject({ 'heartbeat.message.kind': 'work_found' });
    // Arguments may hold secrets: never recorded.
    expect(JSON.stringify(spans.map((s) => s.attributes))).not.toContain('secret');
  });
});
