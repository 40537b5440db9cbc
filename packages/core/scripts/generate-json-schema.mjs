// Writes packages/core/schema/heartbeat-config.schema.json from the zod schema.
// Run: node packages/core/scripts/generate-json-schema.mjs   (a test fails while the file is stale)
// Vite's module runner loads the TypeScript source directly, so no build is needed first.
// The file describes what the CLI reads: core's keys and the built-in scanners' config sections,
// so the sections are loaded from @heartbeat-kit/scanners (a dev-time read; core's code imports no scanner).
import { writeFile } from 'node:fs/promises';
import { stdout } from 'node:process';
import { URL, fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const source = fileURLToPath(new URL('../../scanners/src/builtin-config-json-schema.ts', import.meta.url));
const target = fileURLToPath(new URL('../schema/heartbeat-config.schema.json', import.meta.url));

/** @type {{ module: { builtinConfigJsonSchema: () => Record<string, unknown> } }} */
const loaded = await runnerImport(source, { configFile: false, logLevel: 'silent' });
await writeFile(target, `${JSON.stringify(loaded.module.builtinConfigJsonSchema(), null, 2)}\n`);
stdout.write(`wrote ${target}\n`);
