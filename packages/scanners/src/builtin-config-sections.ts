import type { ConfigSection } from '@heartbeat-kit/core';
import { GIT_CONFIG } from './git/git-config.js';

export { GIT_CONFIG } from './git/git-config.js';

/**
 * The built-in scanners' config sections, in the order HEARTBEAT.md writes them. A host passes them
 * to `parseHeartbeatConfig`, `heartbeatConfigSchemaFor` and `renderHeartbeatMarkdown` as `sections`.
 */
export const BUILTIN_CONFIG_SECTIONS: readonly ConfigSection[] = [GIT_CONFIG];
