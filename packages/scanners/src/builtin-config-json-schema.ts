import { heartbeatConfigJsonSchema } from '@heartbeat-kit/core/host';
import { BUILTIN_CONFIG_SECTIONS } from './builtin-config-sections.js';

/**
 * JSON Schema of the configuration the CLI reads: core's keys and the built-in scanners' sections,
 * in one key order. `@heartbeat-kit/core/schema/heartbeat-config.schema.json` is this, committed.
 */
export function builtinConfigJsonSchema(): Record<string, unknown> {
  return heartbeatConfigJsonSchema({ sections: BUILTIN_CONFIG_SECTIONS });
}
