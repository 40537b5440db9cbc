// Watches a queue whose depth rises, across a restart of the program, and prints each cycle.
// Run: node examples/run-ts.mjs examples/stateful-scanner/src/main.ts   (or pnpm start in this folder)
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { watchQueue } from './watch-queue.js';

const dir = await mkdtemp(join(tmpdir(), 'hk-stateful-'));
try {
  const stateFile = join(dir, 'state.json');
  const write = (line: string): void => console.log(line);
  console.log('first run: depth 5, 8, 3 (fell: the count starts over), 4');
  await watchQueue({ stateFile, depths: [5, 8, 3, 4], start: new Date('2026-02-19T10:00:00Z'), write });
  console.log('restart: the slice (last depth 4, rising 1) comes back from the state file');
  await watchQueue({ stateFile, depths: [6, 9, 12], start: new Date('2026-02-19T10:40:00Z'), write });
} finally {
  await rm(dir, { recursive: true, force: true });
}
