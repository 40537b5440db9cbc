import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { builtinConfigJsonSchema } from './builtin-config-json-schema.js';

const SCHEMA_FILE = new URL('../../core/schema/heartbeat-config.schema.json', import.meta.url);

describe('builtinConfigJsonSchema', () => {
  // Moved from core: the committed file describes what the CLI reads, core's keys and the built-in sections'.
  it('matches the committed schema file (regenerate: node packages/core/scripts/generate-json-schema.mjs)', () => {
    const committed = readFileSync(SCHEMA_FILE, 'utf8');
    expect(committed).toBe(`${JSON.stringify(builtinConfigJsonSchema(), null, 2)}\n`);
  });
});
