/**
 * Pipeline dashboards built from their rows, for tests of the pipeline findings and the spec 000
 * report blocks (each kept a copy of these two builders before).
 */
import type { DashboardNode, PipelineDashboard } from '../../src/pipelines/dashboard-schema.js';
import { classifyDashboardNode, computePromiseProgress, determinePipelineStage } from '../../src/pipelines/pipeline-dashboard.js';

/** One dashboard row; its label is its node id. */
export function row(node_id: string, handler: string, status: string, bead_id = ''): DashboardNode {
  return { node_id, handler, status, worker_type: '', bead_id, label: node_id };
}

/** A dashboard consistent with its rows (stage and promise computed by the dashboard rules). */
export function dashboardOf(nodes: DashboardNode[], names: { readonly graph: string; readonly prd: string }): PipelineDashboard {
  const inputs = nodes.map((n) => ({ nodeClass: classifyDashboardNode(n.handler), status: n.status }));
  return {
    graph_name: names.graph,
    prd_ref: names.prd,
    pipeline_stage: determinePipelineStage(inputs),
    status_distribution: {},
    total_nodes: nodes.length,
    promise_progress: computePromiseProgress(inputs),
    estimated_completion: 'N/A (no checkpoint data)',
    worker_type_distribution: {},
    nodes,
    generated_at: '',
  };
}
