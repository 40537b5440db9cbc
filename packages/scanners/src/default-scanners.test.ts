import { describe, expect, it } from 'vitest';
import { makeContext, scriptedRunner } from '../test/support/context.js';
import { BUILTIN_SCANNERS } from './builtin-scanner-names.js';
import { createDefaultScanners } from './default-scanners.js';
import { formatAge } from './scanner-support.js';

describe('createDefaultScanners', () => {
  it('returns the built-in scanners in scan-target order with the DESIGN.md outside-hours flags', () => {
    const scanners = createDefaultScanners({ runner: scriptedRunner([]), cwd: '/p', fileExists: async () => Promise.resolve(false) });
    const own = scanners.filter((s) => s.name !== 'pipelines');
    expect(own.map((s) => s.name)).toEqual(BUILTIN_SCANNERS.filter((n) => n !== 'pipelines'));
    expect(Object.fromEntries(own.map((s) => [s.name, s.runsOutsideActiveHours]))).toEqual({
      beads: true,
      orchestrators: true,
      git: false,
      'stale-tasks': false,
      'idle-orchestrators': false,
      gchat: true,
    });
  });

  it('shares one bd list per cycle between the orchestrator and stale-task scanners', async () => {
    const runner = scriptedRunner([
      [/^bd list/, { stdout: '[]' }],
      [/^tmux /, { stdout: '' }],
    ]);
    const scanners = createDefaultScanners({ runner, cwd: '/p', fileExists: async () => Promise.resolve(false), tmuxArgs: ['-L', 'x'] });
    const ctx = makeContext();
    await Promise.all(scanners.filter((s) => s.name === 'orchestrators' || s.name === 'stale-tasks').map((s) => s.scan(ctx)));
    expect(runner.calls.filter((c) => c.file === 'bd')).toHaveLength(1);
  });

  it('counts a shared call in the duration of every scanner that waited on it, with one spawn per call', async () => {
    const runner = scriptedRunner([
      [/^bd list/, { stdout: '[]', durationMs: 700 }],
      [/^tmux .*list-sessions/, { stdout: '', durationMs: 300 }],
      [/^git .*worktree list/, { stdout: '', durationMs: 500 }],
    ]);
    const scanners = createDefaultScanners({ runner, cwd: '/p', fileExists: async () => Promise.resolve(false), tmuxArgs: ['-L', 'x'] });
    const ctx = makeContext();
    const names = ['orchestrators', 'stale-tasks', 'git', 'idle-orchestrators'];
    const results = await Promise.all(scanners.filter((s) => names.includes(s.name)).map((s) => s.scan(ctx)));
    const duration = Object.fromEntries(results.map((r) => [r.scanner, r.durationMs]));
    const spawns = (pattern: RegExp): number => runner.calls.filter((c) => pattern.test([c.file, ...c.args].join(' '))).length;
    expect([spawns(/^bd list/), spawns(/list-sessions/), spawns(/worktree list/)]).toEqual([1, 1, 1]);
    // Both tmux scanners waited on list-sessions; both bead readers on bd list.
    expect(duration['idle-orchestrators']).toBeGreaterThanOrEqual(300);
    expect(duration['orchestrators']).toBeGreaterThanOrEqual(300 + 700);
    expect(duration['stale-tasks']).toBeGreaterThanOrEqual(700);
  });

  it('shows a shared call that failed to every scanner that asked, from one spawn', async () => {
    const runner = scriptedRunner([
      [/^bd list/, { exitCode: 1, stderr: 'Error: database is locked\n' }],
      [/^tmux .*list-sessions/, { stdout: 'orch-a\t$0\t1764417600\t1764417600\t0\t1\n' }],
      [/^tmux /, { stdout: '' }],
    ]);
    const scanners = createDefaultScanners({ runner, cwd: '/p', fileExists: async () => Promise.resolve(false), tmuxArgs: ['-L', 'x'] });
    const ctx = makeContext();
    const results = await Promise.all(
      scanners.filter((s) => s.name === 'orchestrators' || s.name === 'stale-tasks').map((s) => s.scan(ctx)),
    );
    expect(runner.calls.filter((c) => c.file === 'bd')).toHaveLength(1);
    for (const result of results) expect(JSON.stringify(result)).toContain('database is locked');
  });

  it('never rejects, whatever the runner does', async () => {
    const scanners = createDefaultScanners({
      runner: scriptedRunner([]),
      cwd: '/p',
      fileExists: async () => Promise.reject(new Error('disk gone')),
    });
    const results = await Promise.all(scanners.filter((s) => s.name !== 'pipelines').map((s) => s.scan(makeContext())));
    for (const result of results) expect(['error', 'skipped', 'ok']).toContain(result.status);
    expect(results.some((r) => r.status === 'error')).toBe(true);
  });
});

describe('formatAge', () => {
  it('formats minutes, hours and days', () => {
    expect(formatAge(45 * 60_000)).toBe('45m');
    expect(formatAge(125 * 60_000)).toBe('2h 5m');
    expect(formatAge((3 * 24 + 4) * 3_600_000)).toBe('3d 4h');
    expect(formatAge(-5)).toBe('0m');
  });
});
