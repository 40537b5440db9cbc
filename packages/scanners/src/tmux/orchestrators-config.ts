import type { ConfigSection } from '@heartbeat-kit/core/host';
import { z } from 'zod';
import { expected, orchestratorAlert, prefix } from '../config-readers.js';

/**
 * The orchestrators section of the configuration (HEARTBEAT.md `### Orchestrators`): the sessions
 * that must exist and the prefix of every orchestrator's session name (the idle scanner reads it too).
 */
export const ORCHESTRATORS_CONFIG: ConfigSection<{
  readonly expectedOrchestrators: z.ZodDefault<z.ZodArray<z.ZodString>>;
  readonly orchestratorPrefix: z.ZodDefault<z.ZodString>;
}> = {
  shape: {
    /** Orchestrator sessions that must exist (HEARTBEAT.md `Expected:`). */
    expectedOrchestrators: z
      .array(z.string().min(1))
      .default([])
      .describe(
        "Orchestrator tmux sessions that must exist (HEARTBEAT.md Orchestrators → Expected): letters, digits, '.', '_', '-' and spaces inside a name; in HEARTBEAT.md another name is left out with a warning.",
      ),
    /** Prefix of orchestrator session names. */
    orchestratorPrefix: z.string().min(1).default('orch-').describe('Prefix of orchestrator tmux session names.'),
  },
  before: 'operatorIdleMs',
  headings: { orchestrators: 'orchestrators', orchestrator: 'orchestrators' },
  keys: { orchestrators: { expected, 'alert if': orchestratorAlert, prefix } },
  renderAt: 'scan parameters',
  render: ({ expectedOrchestrators, orchestratorPrefix }) => [
    '### Orchestrators',
    "<!-- Expected: tmux sessions that must exist, comma-separated (letters, digits, '.', '_', '-'). Prefix: what orchestrator session names start with. -->",
    expectedOrchestrators.length > 0 ? `- Expected: ${expectedOrchestrators.join(', ')}` : '<!-- - Expected: orch-auth, orch-dashboard -->',
    `- Prefix: ${orchestratorPrefix}`,
    '- Alert if: expected session missing',
    '',
  ],
};
