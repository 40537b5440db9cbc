import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DashboardNode, PipelineDashboard } from './dashboard-schema.js';
import {
  nodeFailedFinding,
  observePipeline,
  pipelineFindings,
  pipelineStalledFinding,
  validationStalledFinding,
} from './pipeline-findings.js';
import { dashboardOf as dashboardOfRows, row } from '../../test/support/dashboards.js';

/** A dashboard consistent with its rows, named `name` (PRD reference PRD-REF). */
function dashboardOf(nodes: DashboardNode[], name = 'PRD-1'): PipelineDashboard {
  return dashboardOfRows(nodes, { graph: name, prd: 'PRD-REF' });
}

describe('PIPELINE_NODE_FAILED', () => {
  it('lists sorted failed ids in the subject and line, and names their beads', () => {
    const finding = nodeFailedFinding(
      'P',
      dashboardOf([row('zeta', 'codergen', 'failed', 'bd-2'), row('alpha', 'codergen', 'failed', 'bd-1'), row('ok', 'codergen', 'active')]),
    );
    expect(finding).toMatchObject({
      category: 'PIPELINE_NODE_FAILED',
      priority: 'Immediate',
      subject: 'P:alpha,zeta',
      fingerprint: 'PIPELINE_NODE_FAILED:P:alpha,zeta',
      // Spec 000's PIPELINE_NODE_FAILED block, verbatim.
      line: 'PIPELINE_NODE_FAILED:\n  Pipeline: P\n  Failed nodes: alpha, zeta\n  Recommended: Re-trigger failed nodes or inspect bead bd-1, bd-2',
      action: 'Re-trigger failed nodes or inspect bead bd-1, bd-2',
    });
  });

  it('gives a different fingerprint for a different set of failed nodes in the same stage', () => {
    const one = nodeFailedFinding('P', dashboardOf([row('a', 'codergen', 'failed'), row('b', 'codergen', 'active')]));
    const two = nodeFailedFinding('P', dashboardOf([row('a', 'codergen', 'active'), row('b', 'codergen', 'failed')]));
    expect(one?.fingerprint).not.toBe(two?.fingerprint);
    expect(one?.action).toBe('Re-trigger failed nodes of P');
    expect(one?.line).toBe('PIPELINE_NODE_FAILED:\n  Pipeline: P\n  Failed nodes: a\n  Recommended: Re-trigger failed nodes');
  });

  it('is absent without failed nodes', () => {
    expect(nodeFailedFinding('P', dashboardOf([row('a', 'codergen', 'active')]))).toBeUndefined();
  });

  it('sanitises hostile names in lines but keeps the raw subject', () => {
    const finding = nodeFailedFinding('P\u001b[31m @all', dashboardOf([row('n', 'codergen', 'failed', 'bd-1 [x](http://e.test)')]));
    expect(finding?.subject).toBe('P\u001b[31m @all:n');
    expect(finding?.line).not.toContain('\u001b');
    expect(finding?.line).not.toContain('@all');
    expect(finding?.action).not.toContain('](');
  });
});

describe('PIPELINE_VALIDATION_STALLED', () => {
  it('fires when all codergen work is done (impl_complete or validated) and a gate waits', () => {
    const d = dashboardOf([
      row('a', 'codergen', 'impl_complete'),
      row('b', 'codergen', 'validated'),
      row('g1', 'wait.human', 'validated'),
      row('g2', 'wait.human', 'pending'),
    ]);
    expect(d.pipeline_stage).toBe('Validation');
    expect(validationStalledFinding('P', d)).toMatchObject({
      category: 'PIPELINE_VALIDATION_STALLED',
      priority: 'Advisory',
      subject: 'P:Validation',
      line: 'PIPELINE_VALIDATION_STALLED:\n  Pipeline: P\n  Stage: Validation\n  Promise: 1/2 gates validated\n  Pending gates: g2\n  Recommended: Dispatch validation of the pending gates',
    });
  });

  it.each([
    ['codergen still active', [row('a', 'codergen', 'active'), row('g', 'wait.human', 'pending')]],
    ['no codergen node', [row('g', 'wait.human', 'pending')]],
    ['a gate is active', [row('a', 'codergen', 'impl_complete'), row('g', 'wait.human', 'active'), row('h', 'wait.human', 'pending')]],
    ['no gate pending', [row('a', 'codergen', 'impl_complete'), row('g', 'wait.human', 'failed')]],
    ['all gates validated', [row('a', 'codergen', 'impl_complete'), row('g', 'wait.human', 'validated')]],
    ['only wait.system3 gates', [row('a', 'codergen', 'impl_complete'), row('g', 'wait.system3', 'pending')]],
  ])('does not fire when %s', (_why, nodes) => {
    expect(validationStalledFinding('P', dashboardOf(nodes))).toBeUndefined();
  });
});

describe('PIPELINE_STALLED', () => {
  it('fires in Implementation with no active node, subject pipeline:stage', () => {
    const d = dashboardOf([row('a', 'codergen', 'impl_complete'), row('b', 'codergen', 'pending')]);
    expect(d.pipeline_stage).toBe('Implementation');
    expect(pipelineStalledFinding('P', d)).toMatchObject({
      category: 'PIPELINE_STALLED',
      subject: 'P:Implementation',
      // Spec 000's PIPELINE_STALLED block, verbatim.
      line: 'PIPELINE_STALLED:\n  Pipeline: P\n  Stage: Implementation\n  Active nodes: 0 (expected some)\n  Recommended: Check orchestrators and dispatch pending nodes',
      action: 'Check orchestrators and dispatch pending nodes of P',
    });
  });

  it('matches its rule on random pipelines', () => {
    const handler = fc.constantFrom('codergen', 'wait.human', 'start', 'conditional', '');
    const status = fc.constantFrom('pending', 'active', 'impl_complete', 'validated', 'failed');
    fc.assert(
      fc.property(fc.array(fc.tuple(handler, status), { maxLength: 10 }), (pairs) => {
        const d = dashboardOf(pairs.map(([h, s], i) => row(`n${i}`, h, s)));
        const expected = d.pipeline_stage === 'Implementation' && !pairs.some(([, s]) => s === 'active');
        expect(pipelineStalledFinding('P', d) !== undefined).toBe(expected);
        const categories = pipelineFindings('P', d).map((f) => f.category);
        expect(categories.includes('PIPELINE_NODE_FAILED')).toBe(pairs.some(([, s]) => s === 'failed'));
        expect(categories.includes('PIPELINE_STALLED')).toBe(expected);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('observations and PIPELINE_FINALIZED', () => {
  it('observes stage and promise counts under the given name', () => {
    const d = dashboardOf([row('g', 'wait.human', 'validated')], 'graph');
    expect(observePipeline('graph', d)).toEqual({
      kind: 'pipeline',
      pipeline: 'graph',
      prdRef: 'PRD-REF',
      stage: 'Finalized',
      validated: 1,
      total: 1,
    });
  });
});
