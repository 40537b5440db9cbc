import type { ConfigSection } from '@heartbeat-kit/core/host';
import { z } from 'zod';
import { command, commandJson } from '../config-readers.js';

/** The GChat section (HEARTBEAT.md `## GChat`): the command that polls for replies. */
export const GCHAT_CONFIG: ConfigSection<{ readonly gchatPollCommand: z.ZodOptional<z.ZodArray<z.ZodString>> }> = {
  shape: {
    /** argv of the GChat poll command; absent = the project's script when present. */
    gchatPollCommand: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .describe('argv of the GChat poll command; absent = .claude/scripts/gchat-poll-replies.py when present.'),
  },
  before: 'envAllow',
  headings: { gchat: 'gchat', 'google chat': 'gchat' },
  keys: { gchat: { 'poll command': command('gchatPollCommand', '["python3", ".claude/scripts/gchat-poll-replies.py"]') } },
  renderAt: 'tools',
  render: ({ gchatPollCommand }) => [
    '## GChat',
    '<!-- Command that polls for replies, as a JSON array. Default: .claude/scripts/gchat-poll-replies.py when present. -->',
    gchatPollCommand
      ? `- Poll command: ${commandJson(gchatPollCommand)}`
      : '<!-- - Poll command: ["python3", ".claude/scripts/gchat-poll-replies.py"] -->',
    '',
  ],
};
