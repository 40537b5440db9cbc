import { z } from 'zod';
import { heartbeatConfigSchemaFor, type ConfigHost } from './heartbeat-config-schema.js';

/**
 * JSON Schema (draft 2020-12) of the heartbeat configuration, generated from the zod schema so
 * the two cannot drift; `packages/core/schema/heartbeat-config.schema.json` is this, committed. It describes the *input* side: defaulted keys are optional, as they are
 * for anyone writing a configuration object by hand or validating one in an editor. The committed
 * file is made with the built-in scanners' config sections (what the CLI reads).
 */
export function heartbeatConfigJsonSchema(host: ConfigHost = {}): Record<string, unknown> {
  const schema = z.toJSONSchema(heartbeatConfigSchemaFor(host), { io: 'input', target: 'draft-2020-12' }) as Record<string, unknown>;
  return { $schema: schema.$schema, title: 'HeartbeatConfig', ...schema };
}
