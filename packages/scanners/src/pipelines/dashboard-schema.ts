import { z } from 'zod';

const count = z.number().int().nonnegative();

/** One row of the dashboard's node table. Rows carry no `shape`: callers classify by `handler`. */
export const dashboardNodeSchema = z.object({
  node_id: z.string(),
  handler: z.string(),
  status: z.string(),
  worker_type: z.string(),
  bead_id: z.string(),
  label: z.string(),
});

/**
 * The JSON `dashboard.py <file.dot> --output json` prints (reference cobuilder.md §6.7). Unknown keys
 * are dropped rather than rejected so a newer dashboard with extra fields still parses.
 */
export const pipelineDashboardSchema = z.object({
  graph_name: z.string(),
  prd_ref: z.string(),
  pipeline_stage: z.enum(['Definition', 'Implementation', 'Validation', 'Finalized']),
  status_distribution: z.record(z.string(), count),
  total_nodes: count,
  promise_progress: z.object({
    validated: count,
    total: count,
    percentage: z.number().min(0).max(100),
    status_label: z.string(),
  }),
  estimated_completion: z.string(),
  worker_type_distribution: z.record(z.string(), count),
  nodes: z.array(dashboardNodeSchema),
  generated_at: z.string(),
});

/** One node row of a {@link PipelineDashboard}. */
export type DashboardNode = z.infer<typeof dashboardNodeSchema>;

/** The dashboard of one pipeline, whether computed natively or read from a dashboard command. */
export type PipelineDashboard = z.infer<typeof pipelineDashboardSchema>;
