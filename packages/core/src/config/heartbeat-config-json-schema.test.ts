import { describe, expect, it } from 'vitest';
import { heartbeatConfigJsonSchema } from './heartbeat-config-json-schema.js';
import { DEFAULT_HEARTBEAT_CONFIG, heartbeatConfigSchema } from './heartbeat-config-schema.js';

interface PropertySchema {
  readonly default?: unknown;
  readonly description?: string;
  readonly properties?: Readonly<Record<string, PropertySchema>>;
}

describe('heartbeatConfigJsonSchema', () => {
  it('describes every configuration key, with the same defaults as the zod schema', () => {
    const schema = heartbeatConfigJsonSchema() as {
      properties: Record<string, PropertySchema>;
      additionalProperties: unknown;
      required?: unknown;
    };
    expect(Object.keys(schema.properties).sort()).toEqual(Object.keys(heartbeatConfigSchema.shape).sort());
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toBeUndefined(); // input side: every key may be left out
    for (const [key, property] of Object.entries(schema.properties)) {
      expect(property.description, key).toBeTruthy();
      const expected = (DEFAULT_HEARTBEAT_CONFIG as Record<string, unknown>)[key];
      if (key !== 'activeHours' && key !== 'catchUp' && key !== 'breaker' && property.default !== undefined)
        expect(property.default, key).toEqual(expected);
    }
    const activeHours = schema.properties.activeHours?.properties ?? {};
    expect(activeHours.start?.default).toBe(DEFAULT_HEARTBEAT_CONFIG.activeHours.start);
    expect(activeHours.end?.default).toBe(DEFAULT_HEARTBEAT_CONFIG.activeHours.end);
    expect(activeHours.weekend?.default).toBe(DEFAULT_HEARTBEAT_CONFIG.activeHours.weekend);
    const catchUp = schema.properties.catchUp?.properties ?? {};
    expect(catchUp.policy?.default).toBe(DEFAULT_HEARTBEAT_CONFIG.catchUp.policy);
    expect(catchUp.cap?.default).toBe(DEFAULT_HEARTBEAT_CONFIG.catchUp.cap);
    const breaker = schema.properties.breaker?.properties ?? {};
    expect(breaker.after?.default).toBe(DEFAULT_HEARTBEAT_CONFIG.breaker.after);
    expect(breaker.backoffCap?.default).toBe(DEFAULT_HEARTBEAT_CONFIG.breaker.backoffCap);
  });
});
