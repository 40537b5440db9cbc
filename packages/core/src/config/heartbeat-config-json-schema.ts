import { z } from 'zod';
import { heartbeatConfigSchema } from './heartbeat-config-schema.js';

/**
 * JSON Schema (draft 2020-12) of the heartbeat configuration, generated from the zod schema so
 * the two cannot drift; `packages/core/schema/heartbeat-config.schema.json` is this, committed. It describes the *input* side: defaulted keys are optional, as they are
 * for anyone writing a configuration object by hand or validating one in an editor.
 */
export function heartbeatConfigJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(heartbeatConfigSchema, { io: 'input', target: 'draft-2020-12' }) as Record<string, unknown>;
  return { $schema: schema.$schema, title: 'HeartbeatConfig', ...schema };
}
