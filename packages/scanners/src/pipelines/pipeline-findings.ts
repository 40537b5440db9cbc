import { type Finding, sanitizeForMessage, type ScannerSliceSpec } from '@heartbeat-kit/core';
import { z } from 'zod';
import type { PipelineDashboard } from './dashboard-schema.js';
import { classifyDashboardNode, type PipelineStage } from './pipeline-dashboard.js';
import { createCoBuilderFinding } from '../categories/cobuilder-categories.js';

/** One pipeline's stage and promise this cycle; the scanner keeps the stages in its slice (PIPELINE_FINALIZED). */
export interface PipelineObservation {
  readonly kind: 'pipeline';
  readonly pipeline: string;
  readonly prdRef: string;
  readonly stage: PipelineStage;
  readonly validated: number;
  readonly total: number;
}

const STAGES = ['Definition', 'Implementation', 'Validation', 'Finalized'] as const satisfies readonly PipelineStage[];

/** The pipeline scanner's slice: each pipeline's stage at the last cycle that saw it. */
export const pipelineSliceSchema = z.object({ stages: z.record(z.string(), z.enum(STAGES)) });

/** What the pipeline scanner remembers across cycles. */
export type PipelineSlice = z.infer<typeof pipelineSliceSchema>;

/** The slice spec of the pipeline scanner (version 1 is state version 2's `pipelines`, migrated by core). */
export const PIPELINE_SLICE: ScannerSliceSpec<PipelineSlice> = {
  version: 1,
  schema: pipelineSliceSchema,
  initial: () => ({ stages: {} }),
  // The scanner reads at most 200 pipelines by default; a name is sanitised nowhere here, so leave room.
  maxBytes: 64 * 1024,
};

/** Names in messages are untrusted file content: sanitised and kept short. */
function safe(text: string, maxLength = 80): string {
  return sanitizeForMessage(text, { maxLength });
}

function listed(ids: readonly string[], max = 10): string {
  const shown = ids.slice(0, max).map((id) => safe(id, 60));
  return ids.length > max ? `${shown.join(', ')} (+${ids.length - max} more)` : shown.join(', ');
}

/**
 * PIPELINE_FINALIZED on the transition to Finalized. A pipeline first seen already Finalized is
 * reported once (DESIGN.md); dedup stops repeats. Pipelines not seen this cycle are forgotten.
 */
export function derivePipelineFinalized(
  previous: PipelineSlice,
  observations: readonly PipelineObservation[],
): { readonly next: PipelineSlice; readonly findings: Finding[] } {
  const stages: [string, PipelineStage][] = [];
  const findings: Finding[] = [];
  for (const obs of observations) {
    stages.push([obs.pipeline, obs.stage]);
    const before = Object.hasOwn(previous.stages, obs.pipeline) ? previous.stages[obs.pipeline] : undefined;
    if (obs.stage === 'Finalized' && before !== 'Finalized') {
      const pipeline = safe(obs.pipeline);
      const prd = safe(obs.prdRef);
      findings.push(
        createCoBuilderFinding({
          category: 'PIPELINE_FINALIZED',
          subject: `${obs.pipeline}:Finalized`,
          line: `PIPELINE_FINALIZED:\n  Pipeline: ${pipeline}\n  PRD: ${prd}\n  Stage: Finalized\n  Promise: ${obs.validated}/${obs.total} gates validated`,
          action: `Review finalized pipeline ${pipeline} and close out ${prd}`,
          short: `${pipeline} finalized`,
          details: { pipeline: obs.pipeline, prdRef: obs.prdRef, validated: obs.validated, total: obs.total },
        }),
      );
    }
  }
  return { next: { stages: Object.fromEntries(stages) }, findings };
}

/** The observation of one pipeline's dashboard; `pipeline` is the name the findings use. */
export function observePipeline(pipeline: string, dashboard: PipelineDashboard): PipelineObservation {
  return {
    kind: 'pipeline',
    pipeline,
    prdRef: dashboard.prd_ref,
    stage: dashboard.pipeline_stage,
    validated: dashboard.promise_progress.validated,
    total: dashboard.promise_progress.total,
  };
}

/**
 * PIPELINE_NODE_FAILED when any node has status `failed`. The subject is the set of failed node ids
 * (sorted), so a second failure in the same stage is a new finding (reference Q14).
 */
export function nodeFailedFinding(pipeline: string, dashboard: PipelineDashboard): Finding | undefined {
  const failed = dashboard.nodes.filter((n) => n.status === 'failed');
  if (failed.length === 0) return undefined;
  const ids = [...new Set(failed.map((n) => n.node_id))].sort();
  const beads = [...new Set(failed.map((n) => n.bead_id).filter((b) => b !== ''))].sort();
  const name = safe(pipeline);
  return createCoBuilderFinding({
    category: 'PIPELINE_NODE_FAILED',
    subject: `${pipeline}:${ids.join(',')}`,
    // Spec 000's block: one indented line per field, like PIPELINE_FINALIZED.
    line: `PIPELINE_NODE_FAILED:\n  Pipeline: ${name}\n  Failed nodes: ${listed(ids)}\n  Recommended: ${beads.length > 0 ? `Re-trigger failed nodes or inspect bead ${listed(beads)}` : 'Re-trigger failed nodes'}`,
    action: beads.length > 0 ? `Re-trigger failed nodes or inspect bead ${listed(beads)}` : `Re-trigger failed nodes of ${name}`,
    short: `${name}: ${ids.length} node${ids.length === 1 ? '' : 's'} failed`,
    details: { pipeline, prdRef: dashboard.prd_ref, stage: dashboard.pipeline_stage, failedNodes: ids, beadIds: beads },
  });
}

/**
 * PIPELINE_VALIDATION_STALLED (reference Q4, decided here): promise below 100 %, at least one codergen
 * node and every one `impl_complete` or `validated` (validated work is done work), at least one
 * `wait.human` gate `pending`, and no gate `active` (an active gate means validation is moving).
 */
export function validationStalledFinding(pipeline: string, dashboard: PipelineDashboard): Finding | undefined {
  const codergen = dashboard.nodes.filter((n) => classifyDashboardNode(n.handler) === 'codergen');
  const gates = dashboard.nodes.filter((n) => classifyDashboardNode(n.handler) === 'hexagon');
  const pending = gates.filter((n) => n.status === 'pending').map((n) => n.node_id);
  const stalled =
    dashboard.promise_progress.percentage < 100 &&
    codergen.length > 0 &&
    codergen.every((n) => n.status === 'impl_complete' || n.status === 'validated') &&
    pending.length > 0 &&
    !gates.some((n) => n.status === 'active');
  if (!stalled) return undefined;
  const name = safe(pipeline);
  const { validated, total } = dashboard.promise_progress;
  return createCoBuilderFinding({
    category: 'PIPELINE_VALIDATION_STALLED',
    subject: `${pipeline}:${dashboard.pipeline_stage}`,
    // Spec 000 gives this category no block; it follows the shape of the other PIPELINE_* blocks.
    line: `PIPELINE_VALIDATION_STALLED:\n  Pipeline: ${name}\n  Stage: ${dashboard.pipeline_stage}\n  Promise: ${validated}/${total} gates validated\n  Pending gates: ${listed(pending)}\n  Recommended: Dispatch validation of the pending gates`,
    action: `Dispatch validation of the pending gates of ${name}: ${listed(pending)}`,
    short: `${name} validation stalled`,
    details: { pipeline, prdRef: dashboard.prd_ref, stage: dashboard.pipeline_stage, validated, total, pendingGates: pending },
  });
}

/**
 * PIPELINE_STALLED when the stage is Implementation and no node is `active`. Emitted on every cycle
 * it holds; the cycle evaluator applies the 2-cycle confirmation from core's category table.
 */
export function pipelineStalledFinding(pipeline: string, dashboard: PipelineDashboard): Finding | undefined {
  if (dashboard.pipeline_stage !== 'Implementation') return undefined;
  if (dashboard.nodes.some((n) => n.status === 'active')) return undefined;
  const name = safe(pipeline);
  return createCoBuilderFinding({
    category: 'PIPELINE_STALLED',
    subject: `${pipeline}:${dashboard.pipeline_stage}`,
    line: `PIPELINE_STALLED:\n  Pipeline: ${name}\n  Stage: ${dashboard.pipeline_stage}\n  Active nodes: 0 (expected some)\n  Recommended: Check orchestrators and dispatch pending nodes`,
    action: `Check orchestrators and dispatch pending nodes of ${name}`,
    short: `${name} stalled in ${dashboard.pipeline_stage}`,
    details: { pipeline, prdRef: dashboard.prd_ref, stage: dashboard.pipeline_stage },
  });
}

/** Every finding one dashboard gives this cycle. PIPELINE_FINALIZED needs stage history, so core's `evaluateCycle` derives it from the observation. */
export function pipelineFindings(pipeline: string, dashboard: PipelineDashboard): Finding[] {
  return [nodeFailedFinding, validationStalledFinding, pipelineStalledFinding]
    .map((rule) => rule(pipeline, dashboard))
    .filter((finding): finding is Finding => finding !== undefined);
}
