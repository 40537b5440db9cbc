import type { ConfigSection } from '@heartbeat-kit/core/host';
import { BEADS_CONFIG } from './beads/beads-config.js';
import { GCHAT_CONFIG } from './gchat/gchat-config.js';
import { GIT_CONFIG } from './git/git-config.js';
import { STALE_TASKS_CONFIG } from './git/stale-tasks-config.js';
import { PIPELINES_CONFIG } from './pipelines/pipeline-config.js';
import { IDLE_ORCHESTRATORS_CONFIG } from './tmux/idle-orchestrators-config.js';
import { ORCHESTRATORS_CONFIG } from './tmux/orchestrators-config.js';

export { BEADS_CONFIG, GCHAT_CONFIG, GIT_CONFIG, IDLE_ORCHESTRATORS_CONFIG, ORCHESTRATORS_CONFIG, PIPELINES_CONFIG, STALE_TASKS_CONFIG };

/**
 * The built-in scanners' config sections, in the order HEARTBEAT.md writes them (sections placed
 * before one core key keep this order there too, so the schema's key order is the one it always had).
 * A host passes them to `parseHeartbeatConfig`, `heartbeatConfigSchemaFor` and `renderHeartbeatMarkdown` as `sections`.
 */
export const BUILTIN_CONFIG_SECTIONS: readonly ConfigSection[] = [
  BEADS_CONFIG,
  ORCHESTRATORS_CONFIG,
  GIT_CONFIG,
  STALE_TASKS_CONFIG,
  IDLE_ORCHESTRATORS_CONFIG,
  GCHAT_CONFIG,
  PIPELINES_CONFIG,
];
