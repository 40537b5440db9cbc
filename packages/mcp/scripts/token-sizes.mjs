// Measures what each MCP tool costs an agent, in tokens of the repository's tokenizer
// (@heartbeat-kit/core/tokenizer, o200k_base): the tool list the client injects, and each tool's
// output on the project given. Builds nothing: run `node scripts/build-changed.mjs` first.
// Usage: node packages/mcp/scripts/token-sizes.mjs PROJECT_DIR
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { loadTiktokenEstimator } from '../../core/dist/tokenizer/index.js';

const project = process.argv[2];
if (project === undefined) throw new Error('usage: node packages/mcp/scripts/token-sizes.mjs PROJECT_DIR');
const estimator = await loadTiktokenEstimator('o200k_base');
if (estimator.isErr()) throw new Error(estimator.error.message);
const tokens = estimator.value;
const bin = join(import.meta.dirname, '../../cli/bin/heartbeat-kit.js');
const client = new Client({ name: 'token-sizes', version: '0' });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', '--cwd', project], stderr: 'inherit' }));
const listed = await client.listTools();
console.log(`tools/list (injected into every agent run): ${tokens(JSON.stringify(listed.tools))} tokens for ${listed.tools.length} tools`);
const calls = [
  ['status', {}],
  ['plan', { hours: 24 }],
  ['history', { limit: 10 }],
  ['explain', {}],
  ['cycle_dry_run', {}],
  ['ack', { selector: 'X', note: 'n' }],
];
for (const [name, args] of calls) {
  const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 3_600_000 });
  const text = result.content.map((c) => c.text).join('');
  console.log(`${name.padEnd(14)} ${String(tokens(text)).padStart(5)} tokens${result.isError ? ' (a tool error: read-only server)' : ''}`);
}
for (const uri of ['heartbeat://config', 'heartbeat://last-report']) {
  const read = await client.readResource({ uri });
  console.log(`${uri.padEnd(24)} ${tokens(read.contents[0].text)} tokens`);
}
await client.close();
