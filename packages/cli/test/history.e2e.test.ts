import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileLockStore } from '@heartbeat-kit/core/node';
import { useCliWorlds } from './support/cli-world.js';

const createCliWorld = useCliWorlds();

interface ReceiptJson {
  readonly kind: 'ran' | 'skipped';
  readonly slot: string;
  readonly source: string;
  readonly reason?: string;
  readonly cycle?: number;
  readonly status?: string;
  readonly delivery?: string;
}

describe('receipts and heartbeat-kit history', () => {
  it('a HEARTBEAT_OK that could not look everywhere says where in history', async () => {
    const world = createCliWorld();
    rmSync(join(world.fakeBin, 'bd')); // bd is not installed: three scanners cannot look
    const statePath = join(world.root, 'hb', 'state.json');
    const ran = await world.cliAt(
      '2026-02-19T14:00:00Z',
      'cycle',
      '--cwd',
      world.project,
      '--tmux-socket',
      world.tmuxSocket,
      '--state',
      statePath,
    );
    expect(ran.stdout).toBe('HEARTBEAT_OK\n');
    const history = await world.cli('history', '--state', statePath, '--now', '2026-02-19T14:05:00Z');
    expect(history.stdout).toBe(
      '2026-02-19T14:00:00.000Z  cycle     ran      cycle #1 HEARTBEAT_OK (not looked at: beads, orchestrators, stale-tasks), delivery none\n',
    );
  });

  it('a HEARTBEAT_OK outside active hours says in history which scanners the hours left out', async () => {
    const world = createCliWorld();
    const statePath = join(world.root, 'hb', 'state.json');
    // Thursday 23:00 UTC: outside the default active hours (08:00-22:00 on weekdays).
    const ran = await world.cliAt(
      '2026-02-19T23:00:00Z',
      'cycle',
      '--cwd',
      world.project,
      '--tmux-socket',
      world.tmuxSocket,
      '--state',
      statePath,
    );
    expect(ran.stdout).toBe('HEARTBEAT_OK\n');
    expect(ran.stderr).toContain('outside active hours');
    const history = await world.cli('history', '--state', statePath, '--now', '2026-02-19T23:05:00Z');
    expect(history.stdout).toBe(
      '2026-02-19T23:00:00.000Z  cycle     ran      cycle #1 HEARTBEAT_OK (outside active hours: git, stale-tasks, idle-orchestrators, pipelines), delivery none\n',
    );
    const json = await world.cli('history', '--state', statePath, '--now', '2026-02-19T23:05:00Z', '--json');
    expect(json.stdout).toContain('"outsideHours":["git","stale-tasks","idle-orchestrators","pipelines"]');
  });

  it('every cycle invocation leaves exactly one receipt: ran, or skipped with its reason; a dry run (a rehearsal) none', async () => {
    const world = createCliWorld({ ready: [{ id: 'bd-p0', title: 'Prod down', priority: 0 }] });
    const statePath = join(world.root, 'hb', 'state.json');
    // A real cycle at `at` (--dry-run: the rehearsal, with --now).
    const cycle = (at: string, ...extra: string[]) =>
      extra.includes('--dry-run')
        ? world.cli('cycle', '--cwd', world.project, '--tmux-socket', world.tmuxSocket, '--state', statePath, '--now', at, ...extra)
        : world.cliAt(at, 'cycle', '--cwd', world.project, '--tmux-socket', world.tmuxSocket, '--state', statePath, ...extra);

    expect((await cycle('2026-02-19T14:00:00Z', '--sink', `file:${join(world.root, 'out.jsonl')}`)).code).toBe(0);
    expect((await cycle('2026-02-19T14:10:00Z')).code).toBe(0);
    // A dry run is a rehearsal: it writes nothing a real run reads, no receipt either (issue 26).
    expect((await cycle('2026-02-19T14:15:00Z', '--dry-run')).code).toBe(0);
    // Another cycle holds the lock: this one is skipped, and says so.
    const lock = createFileLockStore({ path: join(world.root, 'hb', 'cycle.lock') });
    (await lock.acquire({ owner: 'other', nowMs: Date.now(), staleAfterMs: 3_600_000 }))._unsafeUnwrap();
    expect((await cycle('2026-02-19T14:20:00Z')).code).toBe(4);
    await lock.release('other');
    // A broken HEARTBEAT.md: the slot is skipped with config-error.
    mkdirSync(join(world.root, 'cfg'), { recursive: true });
    writeFileSync(join(world.root, 'cfg', 'HEARTBEAT.md'), '## Active Hours\n- Start: 25\n');
    expect((await cycle('2026-02-19T14:30:00Z', '--config', join(world.root, 'cfg', 'HEARTBEAT.md'))).code).toBe(2);

    const history = await world.cli('history', '--state', statePath, '--now', '2026-02-19T15:00:00Z', '--json');
    expect(history.code).toBe(0);
    const receipts = (JSON.parse(history.stdout) as { receipts: ReceiptJson[] }).receipts;
    expect(receipts.map((r) => [r.slot, r.kind, r.reason ?? `${r.status}/${r.delivery}`])).toEqual([
      ['2026-02-19T14:00:00.000Z', 'ran', 'report/delivered'],
      ['2026-02-19T14:10:00.000Z', 'ran', 'ok/none'],
      ['2026-02-19T14:20:00.000Z', 'skipped', 'overlapping'],
      ['2026-02-19T14:30:00.000Z', 'skipped', 'config-error'],
    ]);

    const text = await world.cli('history', '--state', statePath, '--now', '2026-02-19T15:00:00Z', '--since', '40m');
    expect(text.stderr).toBe('');
    expect(text.stdout.trimEnd().split('\n')).toEqual([
      '2026-02-19T14:20:00.000Z  cycle     skipped  overlapping: ' + join(world.root, 'hb', 'cycle.lock'),
      expect.stringMatching(/^2026-02-19T14:30:00\.000Z {2}cycle {5}skipped {2}config-error: .*Start: "25" has hour 25; hours go 00–23/),
    ]);
  });

  it('an empty history says so; a bad --since is a usage error naming the fix', async () => {
    const world = createCliWorld({});
    const empty = await world.cli('history', '--cwd', world.project, '--state', join(world.root, 'none', 'state.json'));
    expect(empty.code).toBe(0);
    expect(empty.stdout).toMatch(/^no receipts in .*state\.receipts\n$/);
    const bad = await world.cli('history', '--since', 'yesterday-ish');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Fix: e\.g\. --since 24h/);
  });
});
