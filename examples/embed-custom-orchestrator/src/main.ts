// Runs the custom orchestrator for six cycles and prints what the heartbeat decided.
// Run: node examples/run-ts.mjs examples/embed-custom-orchestrator/src/main.ts   (or pnpm start in this folder)
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runOrchestrator } from './orchestrator.js';

const dir = await mkdtemp(join(tmpdir(), 'hk-embed-'));
try {
  // 10:00 quiet, 10:10 backlog (reported), 10:20 same backlog (dedup), 10:30 drained,
  // 10:40 backlog (the 30-minute window of 10:10 is over: reported again), 10:50 (dedup).
  await runOrchestrator({ queueFile: join(dir, 'queue-length'), queueLengths: [0, 12, 14, 3, 25, 25], write: (line) => console.log(line) });
} finally {
  await rm(dir, { recursive: true, force: true });
}
