import type { ConfigSection } from '@heartbeat-kit/core/host';
import { z } from 'zod';
import { beadsAlert } from '../config-readers.js';

/**
 * The beads section of the configuration (HEARTBEAT.md `### Beads`): P0/P1 work is always reported;
 * `alertInProgressChanged` adds an alert when the in-progress count changes (the orchestrators scanner counts them).
 */
export const BEADS_CONFIG: ConfigSection<{ readonly alertInProgressChanged: z.ZodDefault<z.ZodBoolean> }> = {
  shape: {
    /** Alert when the number of in-progress beads changed since the last cycle (HEARTBEAT.md Beads). */
    alertInProgressChanged: z.boolean().default(false).describe('Alert when the number of in-progress beads changed since the last cycle.'),
  },
  before: 'envAllow',
  headings: { beads: 'beads' },
  keys: { beads: { 'alert if': beadsAlert } },
  renderAt: 'scan parameters',
  render: ({ alertInProgressChanged }) => [
    '### Beads',
    '<!-- P0/P1 ready work is always reported. The in_progress line adds an alert when that count changes. -->',
    '- Alert if: P0 or P1 tasks found',
    alertInProgressChanged
      ? '- Alert if: in_progress count changed since last check'
      : '<!-- - Alert if: in_progress count changed since last check -->',
    '',
  ],
};
