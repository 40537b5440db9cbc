import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runDemo } from './demo.js';

describe('demo-world (what `pnpm demo` shows)', () => {
  it('quiet, quiet, one batched report, dedup, a pipeline transition — and the world is removed', async () => {
    let root = '';
    const steps = await runDemo((_step, world) => {
      root = world.root;
      expect(existsSync(world.project)).toBe(true);
    });
    expect(steps.map((s) => s.code)).toEqual([0, 0, 0, 0, 0]);
    expect(steps.map((s) => s.stderr)).toEqual(['', '', '', '', '']);
    const [first, second, report, dedup, pipeline] = steps.map((s) => s.stdout);
    expect(first).toBe('HEARTBEAT_OK\n');
    expect(second).toBe('HEARTBEAT_OK\n');
    expect(report).toMatch(/^WORK_FOUND: ORCH_FAILURE \+ P1_WORK_READY \+ GIT_STALE\n/);
    expect(report).toContain('CRASHED: orch-auth (bead beads-a3m9 still in_progress)');
    expect(report).toContain("P1 READY: beads-f7k2 'Implement JWT validation'");
    expect(report).toMatch(/STALE: .*wt-docs \(1 uncommitted change, last commit 3h 30m ago\)/);
    expect(report?.match(/WORK_FOUND/g)).toHaveLength(1);
    expect(dedup).toBe('HEARTBEAT_OK\n');
    expect(pipeline).toMatch(/^WORK_FOUND: PIPELINE_FINALIZED\n/);
    expect(pipeline).toContain('Promise: 1/1 gates validated');
    expect(existsSync(root)).toBe(false);
  });
});
