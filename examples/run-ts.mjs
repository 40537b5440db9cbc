// Runs one TypeScript file of an example without a build: Vite's module runner loads it and the
// workspace packages it imports from their sources (the `source` export condition).
// Usage: node examples/run-ts.mjs <file.ts> [args...]
import { resolve } from 'node:path';
import { argv, exit, stderr } from 'node:process';
import { runnerImport } from 'vite';

const file = argv[2];
if (file === undefined) {
  stderr.write('usage: node examples/run-ts.mjs <file.ts> [args...]\n');
  exit(2);
}
const conditions = ['source', 'module', 'node', 'import', 'default'];
await runnerImport(resolve(file), {
  configFile: false,
  logLevel: 'silent',
  resolve: { conditions },
  ssr: { noExternal: [/^@heartbeat-kit\//, 'heartbeat-kit'], resolve: { conditions, externalConditions: conditions } },
});
