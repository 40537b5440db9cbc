import { type ConfigSection, durationSetter, formatDuration } from '@heartbeat-kit/core/host';
import { z } from 'zod';

const MINUTE = 60_000;

/** The idle-orchestrators section (HEARTBEAT.md `### Idle Orchestrators`): how long a pane may stay unchanged. */
export const IDLE_ORCHESTRATORS_CONFIG: ConfigSection<{ readonly orchIdleMs: z.ZodDefault<z.ZodNumber> }> = {
  shape: {
    /** A pane unchanged this long is ORCH_IDLE (30 min). */
    orchIdleMs: z
      .number()
      .int()
      .positive()
      .default(30 * MINUTE)
      .describe('An orchestrator pane unchanged this long (ms) is ORCH_IDLE.'),
  },
  before: 'operatorIdleMs',
  headings: { 'idle orchestrators': 'idle orchestrators' },
  keys: { 'idle orchestrators': { threshold: durationSetter('orchIdleMs', 'm', '30 minutes with no tool calls') } },
  // Upstream's settings table (reference cobuilder.md §5), read under any heading.
  legacyKeys: { 'idle threshold minutes': durationSetter('orchIdleMs', 'm', '30 (minutes) or 2 hours', 'value') },
  renderAt: 'scan parameters',
  render: ({ orchIdleMs }) => [
    '### Idle Orchestrators',
    '<!-- An orchestrator pane unchanged for this long is reported (bare number = minutes). -->',
    `- Threshold: ${formatDuration(orchIdleMs)} with no tool calls`,
    '',
  ],
};
