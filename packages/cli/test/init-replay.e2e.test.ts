import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_HEARTBEAT_CONFIG, parseHeartbeatConfig } from '@heartbeat-kit/core';
import { describe, expect, it } from 'vitest';
import { useCliWorlds, useTempDirs } from './support/cli-world.js';
import { runCli } from './support/run-cli.js';

const newWorld = useCliWorlds();
const tempDir = useTempDirs();

describe('heartbeat-kit init', () => {
  it('writes a commented HEARTBEAT.md that parses to the defaults, and never overwrites without --force', async () => {
    const dir = tempDir('hk-init-');
    const first = await runCli(['init', '--cwd', dir], { cwd: dir });
    expect(first.code).toBe(0);
    const file = join(dir, '.claude', 'HEARTBEAT.md');
    const parsed = parseHeartbeatConfig(readFileSync(file, 'utf8'));
    expect(parsed.isOk() && parsed.value.config).toEqual(DEFAULT_HEARTBEAT_CONFIG);
    writeFileSync(file, '# mine\n');
    const second = await runCli(['init', '--cwd', dir, '--json'], { cwd: dir });
    expect(second.code).toBe(1);
    expect(JSON.parse(second.stdout)).toEqual({ status: 'exists', file, stateDir: null });
    expect(readFileSync(file, 'utf8')).toBe('# mine\n');
    const forced = await runCli(['init', '--cwd', dir, '--force'], { cwd: dir });
    expect(forced.code).toBe(0);
    expect(readFileSync(file, 'utf8')).not.toBe('# mine\n');
  });
});

describe('heartbeat-kit replay', () => {
  it('reproduces cycles recorded with --record and flags a tampered one', async () => {
    const world = newWorld({ ready: [{ id: 'bd-1', title: 'One', priority: 1 }], sessions: ['orch-x'] });
    const record = join(world.root, 'cycles.jsonl');
    for (const at of ['2026-02-19T14:00:00Z', '2026-02-19T14:10:00Z', '2026-02-19T14:40:00Z']) {
      const run = await world.cycleAt(at, '--record', record);
      expect(run.code).toBe(0);
    }
    const ok = await runCli(['replay', record], { cwd: world.root });
    expect(ok.stdout).toBe('3/3 decisions reproduced\n');
    expect(ok.code).toBe(0);
    const lines = readFileSync(record, 'utf8').trim().split('\n');
    const tampered = JSON.parse(lines[1]!) as { decision: { estimatedTokens: number } };
    tampered.decision.estimatedTokens += 1;
    lines[1] = JSON.stringify(tampered);
    writeFileSync(record, lines.join('\n') + '\n');
    const bad = await runCli(['replay', record, '--json'], { cwd: world.root });
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toMatchObject({ total: 3, matched: 2, mismatches: [{ line: 2, paths: ['estimatedTokens'] }] });
    expect(existsSync(record)).toBe(true);
  });

  it('says plainly that records were decided by another category table instead of listing every decision as differing', async () => {
    const world = newWorld({ ready: [{ id: 'bd-1', title: 'One', priority: 1 }], sessions: ['orch-x'] });
    const record = join(world.root, 'cycles.jsonl');
    for (const at of ['2026-02-19T14:00:00Z', '2026-02-19T14:10:00Z']) {
      const run = await world.cycleAt(at, '--record', record);
      expect(run.code).toBe(0);
    }
    // What an embedder's runner records: the same cycles, decided by its own table (another fingerprint).
    const lines = readFileSync(record, 'utf8').trim().split('\n');
    const embedded = lines.map((line) => {
      const parsed = JSON.parse(line) as { context: { categories?: string } };
      expect(parsed.context.categories).toMatch(/^ct-[0-9a-f]{12}$/);
      parsed.context.categories = 'ct-0123456789ab';
      return JSON.stringify(parsed);
    });
    writeFileSync(record, embedded.join('\n') + '\n');
    const run = await runCli(['replay', record], { cwd: world.root });
    expect(run.stdout).toBe(
      '0/2 decisions reproduced\n' +
        '2 record(s) from line 1 were decided by another category table (ct-0123456789ab), not the default table: not compared. ' +
        'Fix: replay them with the table that recorded them (replayCycleRecords(text, { categories }) from @heartbeat-kit/core).\n',
    );
    expect(run.code).toBe(1);
  });

  it('every command answers --help with exit 0 and unknown commands with exit 2', async () => {
    for (const command of ['cycle', 'loop', 'init', 'replay']) {
      const run = await runCli([command, '--help'], { cwd: tmpdir() });
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`^Usage: heartbeat-kit ${command}`));
    }
    const top = await runCli(['--help'], { cwd: tmpdir() });
    expect(top.stdout).toMatch(/cycle/);
    const version = await runCli(['--version'], { cwd: tmpdir() });
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const unknown = await runCli(['frobnicate'], { cwd: tmpdir() });
    expect(unknown.code).toBe(2);
  });
});
