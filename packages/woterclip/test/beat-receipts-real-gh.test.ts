import { afterAll, expect } from 'vitest';
import { useTrackerBackend } from './beat-harness.js';
import { createGhBackedTracker } from './support/gh-backed-tracker.js';
import { startRealGhWorld } from './support/real-gh.js';

// Issue 31 item 2: the beat receipts suite (src/beat/beat-receipts.test.ts, every scenario, the
// same assertions) a second time with its IssueTracker being the gh adapter running the real gh
// 2.23.0 against the GitHub API double (one double for the file, reset per harness). The suite's
// own file runs it on the memory tracker.
const world = await startRealGhWorld();
useTrackerBackend((options) => createGhBackedTracker(world, options));
afterAll(async () => {
  const unknown = world.double.unknown;
  await world.close();
  expect(unknown).toEqual([]);
});

await import('../src/beat/beat-receipts.test.js');
