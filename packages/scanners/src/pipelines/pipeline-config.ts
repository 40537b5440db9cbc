import type { ConfigSection } from '@heartbeat-kit/core/host';
import { z } from 'zod';
import { command, commandJson } from '../config-readers.js';

/** The pipelines section (HEARTBEAT.md `## Pipelines`): a dashboard command instead of native DOT reading. */
export const PIPELINES_CONFIG: ConfigSection<{ readonly pipelineDashboardCommand: z.ZodOptional<z.ZodArray<z.ZodString>> }> = {
  shape: {
    /** argv prefix of a dashboard command run as `… <file.dot> --output json`; absent = native DOT reading. */
    pipelineDashboardCommand: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .describe('argv prefix of a dashboard command run as `<argv> <file.dot> --output json`; absent = native DOT reading.'),
  },
  before: 'checks',
  headings: { pipelines: 'pipelines', pipeline: 'pipelines', 'pipeline status': 'pipelines' },
  keys: { pipelines: { 'dashboard command': command('pipelineDashboardCommand', '["python3", "dashboard.py"]') } },
  renderAt: 'tools',
  render: ({ pipelineDashboardCommand }) => [
    '## Pipelines',
    '<!-- Command run as `<command> <file.dot> --output json`. Default: read the DOT files natively. -->',
    pipelineDashboardCommand
      ? `- Dashboard command: ${commandJson(pipelineDashboardCommand)}`
      : '<!-- - Dashboard command: ["python3", "cobuilder/pipeline/dashboard.py"] -->',
    '',
  ],
};
