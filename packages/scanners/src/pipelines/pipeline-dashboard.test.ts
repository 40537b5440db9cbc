import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pipelineDashboardSchema } from './dashboard-schema.js';
import type { DotGraph, DotNode } from './dot-parser.js';
import { parseDot } from './dot-parser.js';
import { classifyDashboardNode, computeDashboard, determinePipelineStage, formatPythonUtcIso } from './pipeline-dashboard.js';

const AT = new Date('2026-11-29T20:48:21.123Z');

function node(id: string, attributes: Record<string, string>): DotNode {
  return { id, attributes: new Map(Object.entries(attributes)) };
}

function graphOf(nodes: DotNode[], attributes: Record<string, string> = {}): DotGraph {
  return { name: 'P', attributes: new Map(Object.entries(attributes)), nodeDefaults: new Map(), edgeDefaults: new Map(), nodes };
}

describe('computeDashboard', () => {
  it('fills defaults, flattens labels and keeps status order of first sight', () => {
    const dashboard = computeDashboard(
      graphOf(
        [
          node('a', { handler: 'codergen', status: 'active', worker_type: 'w1', bead_id: 'bd-1', label: 'one\\ntwo\nthree' }),
          node('b', { handler: 'wait.human' }),
          node('c', { status: 'failed', worker_type: 'w1' }),
          node('d', { status: 'active', worker_type: 'w2' }),
        ],
        { prd_ref: 'PRD-7' },
      ),
      AT,
    );
    expect(Object.keys(dashboard)).toEqual([
      'graph_name',
      'prd_ref',
      'pipeline_stage',
      'status_distribution',
      'total_nodes',
      'promise_progress',
      'estimated_completion',
      'worker_type_distribution',
      'nodes',
      'generated_at',
    ]);
    expect(dashboard.prd_ref).toBe('PRD-7');
    expect(Object.entries(dashboard.status_distribution)).toEqual([
      ['active', 2],
      ['pending', 1],
      ['failed', 1],
    ]);
    expect(dashboard.worker_type_distribution).toEqual({ w1: 2, w2: 1 });
    expect(dashboard.nodes[0]).toEqual({
      node_id: 'a',
      handler: 'codergen',
      status: 'active',
      worker_type: 'w1',
      bead_id: 'bd-1',
      label: 'one two three',
    });
    expect(dashboard.nodes[1]).toEqual({ node_id: 'b', handler: 'wait.human', status: 'pending', worker_type: '', bead_id: '', label: '' });
    expect(dashboard.promise_progress).toEqual({ validated: 0, total: 1, percentage: 0, status_label: '0/1' });
    expect(dashboard.pipeline_stage).toBe('Implementation');
    expect(dashboard.generated_at).toBe('2026-11-29T20:48:21.123000+00:00');
  });

  it('counts hostile status names as plain keys', () => {
    const dashboard = computeDashboard(graphOf([node('a', { status: '__proto__' }), node('b', { status: '__proto__' })]), AT);
    expect(Object.entries(dashboard.status_distribution)).toEqual([['__proto__', 2]]);
    expect(pipelineDashboardSchema.safeParse(JSON.parse(JSON.stringify(dashboard))).success).toBe(true);
  });

  it('rounds the promise percentage like Python (1 of 16 gates = 6.2, not 6.3)', () => {
    const gates = Array.from({ length: 16 }, (_, i) => node(`g${i}`, { handler: 'wait.human', status: i === 0 ? 'validated' : 'pending' }));
    expect(computeDashboard(graphOf(gates), AT).promise_progress).toEqual({
      validated: 1,
      total: 16,
      percentage: 6.2,
      status_label: '1/16',
    });
  });

  it('ignores wait.system3 gates for the promise and the stage', () => {
    const dashboard = computeDashboard(graphOf([node('g', { handler: 'wait.system3', status: 'validated' })]), AT);
    expect(dashboard.promise_progress.total).toBe(0);
    expect(dashboard.pipeline_stage).toBe('Definition');
  });

  it('treats shape=Msquare as a finalize node but not an exit handler without it', () => {
    expect(computeDashboard(graphOf([node('f', { shape: 'Msquare', status: 'validated' })]), AT).pipeline_stage).toBe('Finalized');
    expect(computeDashboard(graphOf([node('f', { handler: 'exit', status: 'validated' })]), AT).pipeline_stage).toBe('Definition');
    expect(computeDashboard(graphOf([node('f', { handler: 'finalize', status: 'validated' })]), AT).pipeline_stage).toBe('Finalized');
    // First match wins: a codergen node with shape Msquare is codergen.
    expect(classifyDashboardNode('codergen', 'Msquare')).toBe('codergen');
  });

  it('always satisfies its own schema', () => {
    const statuses = fc.constantFrom('pending', 'active', 'impl_complete', 'validated', 'failed', 'weird');
    fc.assert(
      fc.property(fc.array(fc.record({ handler: fc.string(), status: statuses, label: fc.string() }), { maxLength: 20 }), (rows) => {
        const dashboard = computeDashboard(graphOf(rows.map((r, i) => node(`n${i}`, r))), AT);
        expect(pipelineDashboardSchema.safeParse(dashboard).success).toBe(true);
        expect(Object.values(dashboard.status_distribution).reduce((a, b) => a + b, 0)).toBe(rows.length);
      }),
    );
  });

  it('never throws on whatever the parser accepts', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (noise) => {
        const result = parseDot(`digraph G { ${noise} }`);
        if (result.isOk()) expect(computeDashboard(result.value, AT).total_nodes).toBe(result.value.nodes.length);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('formatPythonUtcIso', () => {
  it('prints microseconds and +00:00, omitting a zero fraction like Python', () => {
    expect(formatPythonUtcIso(new Date('2026-01-02T03:04:05.007Z'))).toBe('2026-01-02T03:04:05.007000+00:00');
    expect(formatPythonUtcIso(new Date('2026-01-02T03:04:05.000Z'))).toBe('2026-01-02T03:04:05+00:00');
    expect(formatPythonUtcIso(new Date(Number.NaN))).toBe('');
  });
});

// ---- stage rules against an independent oracle ----

const HANDLERS = ['codergen', 'wait.human', 'wait.system3', 'finalize', 'exit', 'start', 'conditional', 'tool', ''] as const;
const SHAPES = ['box', 'hexagon', 'Msquare', 'Mdiamond', 'diamond', ''] as const;
const STATUSES = ['pending', 'active', 'impl_complete', 'validated', 'failed', undefined] as const;

interface Spec {
  handler: (typeof HANDLERS)[number];
  shape: (typeof SHAPES)[number];
  status: (typeof STATUSES)[number];
}

/** The stage, written from the reference's prose as counts per class rather than filters. */
function oracleStage(specs: readonly Spec[]): string {
  const tally = { codergen: new Map<string, number>(), hexagon: new Map<string, number>(), finalize: new Map<string, number>() };
  for (const s of specs) {
    const status = s.status ?? 'pending';
    const cls =
      s.handler === 'codergen'
        ? 'codergen'
        : s.handler === 'wait.human'
          ? 'hexagon'
          : s.handler === 'finalize' || s.shape === 'Msquare'
            ? 'finalize'
            : undefined;
    if (cls !== undefined) tally[cls].set(status, (tally[cls].get(status) ?? 0) + 1);
  }
  const total = (m: Map<string, number>): number => [...m.values()].reduce((a, b) => a + b, 0);
  const n = (m: Map<string, number>, ...keys: string[]): number => keys.reduce((a, k) => a + (m.get(k) ?? 0), 0);
  const { codergen, hexagon, finalize } = tally;
  if (n(finalize, 'validated') > 0) return 'Finalized';
  if (total(hexagon) > 0 && n(hexagon, 'validated') === total(hexagon)) return 'Finalized';
  if (n(hexagon, 'active', 'impl_complete', 'failed', 'validated') > 0) return 'Validation';
  if (total(codergen) > 0 && n(codergen, 'impl_complete', 'validated') === total(codergen)) return 'Validation';
  if (n(codergen, 'active', 'impl_complete', 'failed') > 0) return 'Implementation';
  return 'Definition';
}

describe('determinePipelineStage', () => {
  const spec = fc.record({
    handler: fc.constantFrom(...HANDLERS),
    shape: fc.constantFrom(...SHAPES),
    status: fc.constantFrom(...STATUSES),
  });

  it('matches the oracle on random node sets', () => {
    fc.assert(
      fc.property(fc.array(spec, { maxLength: 12 }), (specs) => {
        const nodes = specs.map((s, i) => {
          const attributes: Record<string, string> = { handler: s.handler, shape: s.shape };
          if (s.status !== undefined) attributes.status = s.status;
          return node(`n${i}`, attributes);
        });
        expect(computeDashboard(graphOf(nodes), AT).pipeline_stage).toBe(oracleStage(specs));
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    [[], 'Definition'],
    [[{ nodeClass: 'codergen', status: 'pending' }], 'Definition'],
    [[{ nodeClass: 'codergen', status: 'failed' }], 'Implementation'],
    [
      [
        { nodeClass: 'codergen', status: 'impl_complete' },
        { nodeClass: 'codergen', status: 'active' },
      ],
      'Implementation',
    ],
    [
      [
        { nodeClass: 'codergen', status: 'validated' },
        { nodeClass: 'hexagon', status: 'pending' },
      ],
      'Validation',
    ],
    [
      [
        { nodeClass: 'codergen', status: 'pending' },
        { nodeClass: 'hexagon', status: 'failed' },
      ],
      'Validation',
    ],
    [
      [
        { nodeClass: 'hexagon', status: 'validated' },
        { nodeClass: 'finalize', status: 'pending' },
      ],
      'Finalized',
    ],
  ] as const)('%j → %s', (nodes, stage) => {
    expect(determinePipelineStage(nodes)).toBe(stage);
  });
});
