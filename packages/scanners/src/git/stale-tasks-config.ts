import { type ConfigSection, durationSetter, formatDuration } from '@heartbeat-kit/core/host';
import { z } from 'zod';

const MINUTE = 60_000;

/** The stale-tasks section (HEARTBEAT.md `### Stale Tasks`): how long a bead may be in progress with no commits. */
export const STALE_TASKS_CONFIG: ConfigSection<{ readonly staleTaskMs: z.ZodDefault<z.ZodNumber> }> = {
  shape: {
    /** In progress this long with no commits is STALE_TASK (4 h). */
    staleTaskMs: z
      .number()
      .int()
      .positive()
      .default(240 * MINUTE)
      .describe('A bead in progress this long (ms) with no commits is STALE_TASK.'),
  },
  before: 'operatorIdleMs',
  headings: { 'stale tasks': 'stale tasks', 'stale task': 'stale tasks' },
  keys: { 'stale tasks': { threshold: durationSetter('staleTaskMs', 'h', '4 hours with no commits') } },
  // Upstream's settings table (reference cobuilder.md §5), read under any heading.
  legacyKeys: { 'stale threshold hours': durationSetter('staleTaskMs', 'h', '4 (hours) or 90 minutes', 'value') },
  renderAt: 'scan parameters',
  render: ({ staleTaskMs }) => [
    '### Stale Tasks',
    '<!-- An in-progress bead with no commits for this long is reported (bare number = hours). -->',
    `- Threshold: ${formatDuration(staleTaskMs)} with no commits`,
    '',
  ],
};
