import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CycleDecision } from '@heartbeat-kit/core';
import { watchQueue } from './watch-queue.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hk-stateful-test-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Per cycle: reported, suppressed as a repeat, or nothing found. */
function verdicts(decisions: readonly CycleDecision[]): string[] {
  return decisions.map((d) =>
    d.reportable.some((f) => f.category === 'QUEUE_RISING')
      ? 'reported'
      : d.suppressed.some((s) => s.finding.category === 'QUEUE_RISING')
        ? `suppressed:${d.suppressed.map((s) => s.reason).join(',')}`
        : 'quiet',
  );
}

const write = (): void => undefined;
const thursday10 = new Date('2026-02-19T10:00:00Z');

describe('examples/stateful-scanner', () => {
  it('reports QUEUE_RISING exactly when the depth has risen 3 cycles in a row, not before; a fall starts the count over', async () => {
    const decisions = await watchQueue({ stateFile: join(dir, 'state.json'), depths: [5, 6, 7, 3, 4, 5, 6, 9], start: thursday10, write });
    // Rises: -, 1, 2, fell, 1, 2, 3 (reported), 4 (the same situation inside the dedup window).
    expect(verdicts(decisions)).toEqual(['quiet', 'quiet', 'quiet', 'quiet', 'quiet', 'quiet', 'reported', 'suppressed:dedup']);
    expect(decisions[6]?.message?.content).toContain('QUEUE RISING: emails at 6 jobs, up 3 cycles in a row');
    expect(decisions[6]?.message?.content).toContain('Queue depth rising.'); // the brief from the category table
    expect(decisions.every((d) => d.warnings.length === 0)).toBe(true);
  });

  it('the slice survives a restart: the count goes on from the state file on disk', async () => {
    const stateFile = join(dir, 'state.json');
    const first = await watchQueue({ stateFile, depths: [5, 6], start: thursday10, write });
    expect(verdicts(first)).toEqual(['quiet', 'quiet']);
    const stored = JSON.parse(await readFile(stateFile, 'utf8')) as { scannerSlices?: Record<string, unknown> };
    expect(stored.scannerSlices?.['queue-depth:emails']).toEqual({ version: 1, data: { lastDepth: 6, rising: 1 } });

    // A new process (new loop, new clock, new scanner object) on the same file: two more rises make three.
    const second = await watchQueue({ stateFile, depths: [7, 8], start: new Date('2026-02-19T10:20:00Z'), write });
    expect(verdicts(second)).toEqual(['quiet', 'reported']);

    // Control: the same two cycles on a fresh file see only one rise, so the memory above came from disk.
    const fresh = await watchQueue({ stateFile: join(dir, 'fresh.json'), depths: [7, 8], start: new Date('2026-02-19T10:20:00Z'), write });
    expect(verdicts(fresh)).toEqual(['quiet', 'quiet']);
  });

  it("the embedder's category table reaches the cycle through runLoop: QUEUE_RISING is reported outside active hours", async () => {
    // 03:00 UTC is outside the default 08–22; a custom category without a table would be suppressed there.
    const night = new Date('2026-02-19T03:00:00Z');
    const decisions = await watchQueue({ stateFile: join(dir, 'state.json'), depths: [1, 2, 3, 4], start: night, write });
    expect(decisions.every((d) => !d.insideActiveHours)).toBe(true);
    expect(verdicts(decisions)).toEqual(['quiet', 'quiet', 'quiet', 'reported']);
    expect(decisions[3]?.reportable[0]?.priority).toBe('Advisory');
  });
});
