import { sanitizeForMessage } from '@heartbeat-kit/core';
import { describeDotParseError, parseDot } from './dot-parser.js';
import { computeDashboard } from './pipeline-dashboard.js';
import { PIPELINE_DIR, type PipelineFiles } from './pipeline-scanner.js';

/** An active pipeline node that names a bead: the engine runs its orchestrator as `orch-<nodeId>[-<pid>]`. */
export interface PipelineBeadNode {
  readonly nodeId: string;
  readonly beadId: string;
}

/** The active bead-carrying nodes of every readable pipeline, and one line per file that could not be read. */
export interface PipelineOwners {
  readonly nodes: readonly PipelineBeadNode[];
  readonly problems: readonly string[];
}

/**
 * Reads `<cwd>/.pipelines/pipelines/*.dot` natively and returns the `active` nodes carrying a
 * `bead_id`. Only active nodes have an engine session to expect; a pending, finished or failed
 * node does not (PIPELINE_NODE_FAILED reports the failed ones).
 */
export async function readPipelineOwners(cwd: string, files: PipelineFiles, now: Date): Promise<PipelineOwners> {
  const dir = cwd.endsWith('/') ? `${cwd}${PIPELINE_DIR}` : `${cwd}/${PIPELINE_DIR}`;
  const nodes: PipelineBeadNode[] = [];
  const problems: string[] = [];
  let names: string[];
  try {
    names = await files.list(dir);
  } catch (caught) {
    return {
      nodes,
      problems: [`cannot list ${PIPELINE_DIR}: ${sanitizeForMessage(caught instanceof Error ? caught.message : 'unknown error')}`],
    };
  }
  for (const name of names.filter((n) => n.endsWith('.dot') && !n.startsWith('.')).sort()) {
    let text: string;
    try {
      text = await files.read(`${dir}/${name}`);
    } catch (caught) {
      problems.push(
        `${sanitizeForMessage(name, { maxLength: 120 })}: cannot read: ${sanitizeForMessage(caught instanceof Error ? caught.message : 'unknown error')}`,
      );
      continue;
    }
    const graph = parseDot(text);
    if (graph.isErr()) {
      problems.push(
        `${sanitizeForMessage(name, { maxLength: 120 })}: cannot parse: ${sanitizeForMessage(describeDotParseError(graph.error))}`,
      );
      continue;
    }
    for (const node of computeDashboard(graph.value, now).nodes) {
      if (node.status === 'active' && node.bead_id !== '') nodes.push({ nodeId: node.node_id, beadId: node.bead_id });
    }
  }
  return { nodes, problems };
}
