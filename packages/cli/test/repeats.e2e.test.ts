import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HEARTBEAT_STATE_VERSION } from '@heartbeat-kit/core/host';
import { WORLD_HEARTBEAT_MD } from './support/world.js';
import { useCliWorlds, type CliWorld } from './support/cli-world.js';

// Issue 15 item 6: change-aware repeats, through the CLI over a real git repository, a real tmux
// server and the fake bd, one `--now` per cycle.

const createCliWorld = useCliWorlds();

function cycle(w: CliWorld, now: string, ...extra: string[]) {
  return w.cycleAt(now, ...extra);
}

const head = (stdout: string): string => stdout.split('\n')[0] ?? '';

describe('change-aware repeats (issue 15 item 6)', () => {
  it('a finding whose content changed is reported inside the dedup window; unchanged, it stays quiet', async () => {
    const world = createCliWorld({ heartbeatMd: `${WORLD_HEARTBEAT_MD}\n## Orchestrators\n- Expected: orch-auth\n` });
    const missing = await cycle(world, '2026-02-19T14:50:00Z');
    expect(missing.stdout).toContain('MISSING: orch-auth (expected in HEARTBEAT.md)');
    expect((await cycle(world, '2026-02-19T14:55:00Z')).stdout).toBe('HEARTBEAT_OK\n');
    // Same session, another situation: its bead is now stranded. Ten minutes into the window.
    world.setInProgress([
      { id: 'beads-a3m9', title: 'JWT middleware', priority: 1, assignee: 'orch-auth', started_at: '2026-02-19T14:00:00Z' },
    ]);
    const crashed = await cycle(world, '2026-02-19T15:00:00Z');
    expect(crashed.code).toBe(0);
    expect(head(crashed.stdout)).toBe('WORK_FOUND: ORCH_FAILURE');
    expect(crashed.stdout).toContain('CRASHED: orch-auth (bead beads-a3m9 still in_progress)');
    // Unchanged again: the window counts from the changed report.
    expect((await cycle(world, '2026-02-19T15:10:00Z')).stdout).toBe('HEARTBEAT_OK\n');
    expect((await cycle(world, '2026-02-19T15:29:00Z')).stdout).toBe('HEARTBEAT_OK\n');
    expect(head((await cycle(world, '2026-02-19T15:30:00Z')).stdout)).toBe('WORK_FOUND: ORCH_FAILURE');
  });

  it('Repeat Immediate: 30m, 2h lets an unchanged P0 decay: reported at 0, 30 min, then every 2 h', async () => {
    const world = createCliWorld({
      ready: [{ id: 'bd-p0', title: 'Prod down', priority: 0 }],
      heartbeatMd: `${WORLD_HEARTBEAT_MD}\n## Heartbeat\n- Repeat Immediate: 30m, 2h\n`,
    });
    const at = ['10:00', '10:20', '10:30', '11:00', '12:00', '12:29', '12:30', '14:00', '14:30'];
    const seen: string[] = [];
    for (const time of at) {
      const run = await cycle(world, `2026-02-19T${time}:00Z`);
      expect(run.code).toBe(0);
      expect(run.stderr).toBe('');
      seen.push(`${time} ${head(run.stdout)}`);
    }
    expect(seen).toEqual([
      '10:00 WORK_FOUND: P0_WORK_READY',
      '10:20 HEARTBEAT_OK',
      '10:30 WORK_FOUND: P0_WORK_READY',
      '11:00 HEARTBEAT_OK',
      '12:00 HEARTBEAT_OK',
      '12:29 HEARTBEAT_OK',
      '12:30 WORK_FOUND: P0_WORK_READY',
      '14:00 HEARTBEAT_OK',
      '14:30 WORK_FOUND: P0_WORK_READY',
    ]);
  });

  it('a schedule that gets shorter is a config error naming file, line, key and fix (exit 2)', async () => {
    const world = createCliWorld({ heartbeatMd: `${WORLD_HEARTBEAT_MD}\n## Heartbeat\n- Repeat Advisory: 2h, 30m\n` });
    const run = await cycle(world, '2026-02-19T10:00:00Z');
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(
      'heartbeat-kit cycle: .claude/HEARTBEAT.md:10: Heartbeat → Repeat Advisory: "2h, 30m" gets shorter (30 minutes after 2 hours)',
    );
    expect(run.stderr).toContain('Fix: write intervals from shortest to longest, separated by commas, such as 30m, 2h, 8h');
  });

  it('a state file from version 1 is migrated: nothing is re-reported, and it is saved in the current version with content hashes', async () => {
    const world = createCliWorld({ ready: [{ id: 'bd-p0', title: 'Prod down', priority: 0 }] });
    const statePath = join(world.root, 'state', 'state.json');
    mkdirSync(join(world.root, 'state'));
    const delivered = Date.parse('2026-02-19T10:00:00Z');
    writeFileSync(
      statePath,
      JSON.stringify({
        version: 1,
        cycle: 7,
        reportsSent: 1,
        reported: { 'P0_WORK_READY:bd-p0': delivered },
        seen: {},
        panes: {},
        pipelines: {},
      }),
    );
    const quiet = await cycle(world, '2026-02-19T10:10:00Z', '--state', statePath);
    expect(quiet.stderr).toBe('');
    expect(quiet.stdout).toBe('HEARTBEAT_OK\n');
    const again = await cycle(world, '2026-02-19T10:30:00Z', '--state', statePath);
    expect(head(again.stdout)).toBe('WORK_FOUND: P0_WORK_READY');
    const saved = JSON.parse(readFileSync(statePath, 'utf8')) as {
      version: number;
      cycle: number;
      reportedContent: Record<string, { hash: string; repeats: number }>;
    };
    expect(saved.version).toBe(HEARTBEAT_STATE_VERSION);
    expect(saved.cycle).toBe(9);
    expect(saved.reportedContent['P0_WORK_READY:bd-p0']).toMatchObject({
      hash: expect.stringMatching(/^[0-9a-f]{28}$/) as unknown,
      repeats: 1,
    });
  });
});
