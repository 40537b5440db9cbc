import type { PipelineStage } from '@heartbeat-kit/core/host';
import type { DashboardNode, PipelineDashboard } from './dashboard-schema.js';
import type { DotGraph } from './dot-parser.js';
import { pythonRound } from './python-round.js';

/** How the dashboard classifies a node for its stage and promise rules. */
export type DashboardNodeClass = 'codergen' | 'hexagon' | 'finalize' | 'other';

/**
 * Classifies a node, first match wins: `handler=codergen`; `handler=wait.human` only (`wait.system3`
 * gates count nowhere); `handler=finalize` or `shape=Msquare`. The shape is only known for parsed
 * files; dashboard JSON rows have none.
 */
export function classifyDashboardNode(handler: string, shape = ''): DashboardNodeClass {
  if (handler === 'codergen') return 'codergen';
  if (handler === 'wait.human') return 'hexagon';
  if (handler === 'finalize' || shape === 'Msquare') return 'finalize';
  return 'other';
}

/** A node as the stage rules see it. */
export interface StageInput {
  readonly nodeClass: DashboardNodeClass;
  readonly status: string;
}

const STARTED = new Set(['active', 'impl_complete', 'failed']);

/**
 * The dashboard's stage rules (reference cobuilder.md §6.7), checked in order: Finalized, Validation,
 * Implementation, else Definition.
 */
export function determinePipelineStage(nodes: readonly StageInput[]): PipelineStage {
  const codergen = nodes.filter((n) => n.nodeClass === 'codergen');
  const hexagons = nodes.filter((n) => n.nodeClass === 'hexagon');
  const finalize = nodes.filter((n) => n.nodeClass === 'finalize');
  if (finalize.some((n) => n.status === 'validated')) return 'Finalized';
  if (hexagons.length > 0 && hexagons.every((n) => n.status === 'validated')) return 'Finalized';
  if (hexagons.some((n) => STARTED.has(n.status) || n.status === 'validated')) return 'Validation';
  if (codergen.length > 0 && codergen.every((n) => n.status === 'impl_complete' || n.status === 'validated')) return 'Validation';
  if (codergen.some((n) => STARTED.has(n.status))) return 'Implementation';
  return 'Definition';
}

/** The promise progress over `wait.human` gates: `percentage` uses Python's `round(…, 1)`. */
export function computePromiseProgress(nodes: readonly StageInput[]): PipelineDashboard['promise_progress'] {
  const hexagons = nodes.filter((n) => n.nodeClass === 'hexagon');
  const total = hexagons.length;
  const validated = hexagons.filter((n) => n.status === 'validated').length;
  const percentage = total > 0 ? pythonRound((validated / total) * 100, 1) : 0;
  return { validated, total, percentage, status_label: `${validated}/${total}` };
}

/**
 * Formats an instant as Python's `datetime.now(timezone.utc).isoformat()`: microseconds (omitted when
 * zero, as Python does) and `+00:00`. An invalid date gives an empty string rather than a throw.
 */
export function formatPythonUtcIso(instant: Date): string {
  const ms = instant.getTime();
  if (!Number.isFinite(ms)) return '';
  const iso = instant.toISOString(); // YYYY-MM-DDTHH:mm:ss.sssZ (or ±YYYYYY-… beyond year 9999)
  const base = iso.slice(0, iso.indexOf('.'));
  const millis = instant.getUTCMilliseconds();
  const fraction = millis === 0 ? '' : `.${String(millis).padStart(3, '0')}000`;
  return `${base}${fraction}+00:00`;
}

function countBy(values: readonly string[]): Record<string, number> {
  // A Map keeps first-seen order and makes keys such as `__proto__` plain data.
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return Object.fromEntries(counts);
}

/**
 * Computes exactly the object `dashboard.py <file.dot> --output json` prints, from a parsed file.
 * Missing `status` is `pending`; missing `handler`/`worker_type`/`bead_id` are empty; in labels both
 * the two-character `\n` and real newlines become a space. Without checkpoint data the estimate is
 * `N/A (no checkpoint data)`, as upstream.
 */
export function computeDashboard(graph: DotGraph, generatedAt: Date): PipelineDashboard {
  const rows: DashboardNode[] = graph.nodes.map((node) => ({
    node_id: node.id,
    handler: node.attributes.get('handler') ?? '',
    status: node.attributes.get('status') ?? 'pending',
    worker_type: node.attributes.get('worker_type') ?? '',
    bead_id: node.attributes.get('bead_id') ?? '',
    label: (node.attributes.get('label') ?? '').replaceAll('\\n', ' ').replaceAll('\n', ' '),
  }));
  const stageInputs = graph.nodes.map((node, index) => ({
    nodeClass: classifyDashboardNode(node.attributes.get('handler') ?? '', node.attributes.get('shape') ?? ''),
    status: rows[index]?.status ?? 'pending',
  }));
  return {
    graph_name: graph.name,
    prd_ref: graph.attributes.get('prd_ref') ?? '',
    pipeline_stage: determinePipelineStage(stageInputs),
    status_distribution: countBy(rows.map((r) => r.status)),
    total_nodes: rows.length,
    promise_progress: computePromiseProgress(stageInputs),
    estimated_completion: 'N/A (no checkpoint data)',
    worker_type_distribution: countBy(rows.map((r) => r.worker_type).filter((w) => w !== '')),
    nodes: rows,
    generated_at: formatPythonUtcIso(generatedAt),
  };
}
