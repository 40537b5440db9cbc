// Starts the runbook server on 127.0.0.1 (a free port) until Ctrl-C.
// Run: node examples/run-ts.mjs examples/runbook-server/src/main.ts   (or pnpm start in this folder)
import { startRunbookServer } from './server.js';

const mode = process.env.HEARTBEAT_CHECKLIST_GATE_MODE === 'enforce' ? 'enforce' : 'shadow';
const server = await startRunbookServer({ gateMode: mode });
console.log(`runbook server on ${server.url} (gate mode ${mode})`);
console.log(`  curl -X PUT --data-binary @RUNBOOK.md ${server.url}/runbook`);
console.log(`  curl -X POST -d '{"status": {...}}' ${server.url}/tick`);
process.once('SIGINT', () => void server.close());
process.once('SIGTERM', () => void server.close());
