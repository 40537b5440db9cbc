import { chmod, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../test/support/cli-world.js';
import { captureIo, type CapturedIo } from '../../test/support/run-cli.js';
import { main } from '../main.js';

const tempDir = useTempDirs();

/** An io started in `cwd` whose output the test reads afterwards (PATH, plus `env`). */
const makeIo = (cwd: string, env: Record<string, string | undefined> = {}): CapturedIo =>
  captureIo({ cwd, env: { PATH: process.env.PATH, ...env } });

/** A temp directory with these files, removed after the test. */
const workspace = (files: Record<string, string>): string => tempDir('hb-cli-runbook-', files);

const NOW = ['--now', '2026-10-20T10:00:00Z', '--tz', 'UTC'];
const SPEC_RUNBOOK = `## Standing Orders
- Stalled task (no progress for 45 min): read its last progress, steer it or cancel and recreate.

## Watch Items
- Linear webhook retries since 2026-08-18. Lift when zero retries for 48 h (check 08-22).
`;

const STATUS = {
  version: 1,
  generatedAt: '2026-10-20T10:00:00Z',
  agents: [{ id: 'lead', name: 'lead', isLead: true, status: 'online' }],
  tasks: [],
};

describe('heartbeat-kit runbook check', () => {
  it('accepts the spec example (exit 0) and rejects a full-date-only line (exit 1) with its line number', async () => {
    const dir = workspace({
      'ok.md': SPEC_RUNBOOK,
      'bad.md': '## Watch Items\n- Same item, re-verified 2026-10-20 ~10:45Z. Lift when quiet.\n',
    });
    const ok = makeIo(dir);
    expect(await main(['runbook', 'check', 'ok.md', ...NOW], ok)).toBe(0);
    expect(ok.out()).toContain('ok.md: accepted (1 tracked item(s)');
    const bad = makeIo(dir);
    expect(await main(['runbook', 'check', 'bad.md', ...NOW], bad)).toBe(1);
    expect(bad.out()).toContain('bad.md:2: error: line 2 (Watch Items): the only date is the full date 2026-10-20');
  });
  it('--json prints the validation', async () => {
    const dir = workspace({ 'bad.md': '## Active Blockers\n- no trigger (check 01-02)\n' });
    const io = makeIo(dir);
    expect(await main(['runbook', 'check', 'bad.md', '--json'], io)).toBe(1);
    const json = JSON.parse(io.out()) as { accepted: boolean; errors: { code: string; line: number }[] };
    expect(json.accepted).toBe(false);
    expect(json.errors).toEqual([expect.objectContaining({ code: 'no-lift-trigger', line: 2 })]);
  });
  it('usage errors are one line on stderr with exit 2', async () => {
    const dir = workspace({});
    for (const argv of [
      ['runbook', 'check'],
      ['runbook', 'check', 'x.md', '--tz', 'Mars/Base'],
      ['runbook', 'check', 'x.md', '--now', 'yesterday'],
      ['runbook', 'check', 'x.md', '--bogus'],
      ['runbook', 'nope'],
      ['runbook', 'check', 'missing.md'],
    ]) {
      const io = makeIo(dir);
      expect(await main(argv, io)).toBe(2);
      expect(io.err().trim().split('\n')).toHaveLength(1);
      expect(io.out()).toBe('');
    }
  });
  it('every subcommand has --help', async () => {
    for (const sub of ['check', 'due', 'prune', 'tick', 'boot-triage', 'gate-report']) {
      const io = makeIo('/');
      expect(await main(['runbook', sub, '--help'], io)).toBe(0);
      expect(io.out()).toContain(`heartbeat-kit runbook ${sub}`);
    }
  });
});

describe('heartbeat-kit runbook due', () => {
  it('shows the spec Watch Item on 08-22 in the given zone only', async () => {
    const dir = workspace({ 'HEARTBEAT.md': SPEC_RUNBOOK });
    const io = makeIo(dir);
    expect(await main(['runbook', 'due', 'HEARTBEAT.md', '--now', '2026-08-22T08:00:00Z', '--tz', 'UTC'], io)).toBe(0);
    expect(io.out()).toBe(
      'HEARTBEAT.md:5: check-today 08-22: - Linear webhook retries since 2026-08-18. Lift when zero retries for 48 h (check 08-22).\n',
    );
    const la = makeIo(dir);
    await main(['runbook', 'due', 'HEARTBEAT.md', '--now', '2026-08-22T05:00:00Z', '--tz', 'America/Los_Angeles', '--json'], la);
    expect((JSON.parse(la.out()) as { due: unknown[] }).due).toEqual([]);
  });
  it('at the year end reads today in the zone: just before midnight UTC Tokyo is in the new year, Los Angeles is not', async () => {
    const dir = workspace({
      'HEARTBEAT.md':
        '## Watch Items\n- New-year rollover. Lift when it went fine (check 01-01).\n- Holiday freeze. Lift when over, DELETE 12-31\n- Leap-day audit. Lift when done (check 02-29).\n',
    });
    const due = async (now: string, tz: string): Promise<string> => {
      const io = makeIo(dir);
      expect(await main(['runbook', 'due', 'HEARTBEAT.md', '--now', now, '--tz', tz], io)).toBe(0);
      return io.out();
    };
    expect(await due('2026-12-31T23:30:00Z', 'Asia/Tokyo')).toBe(
      'HEARTBEAT.md:2: check-today 01-01: - New-year rollover. Lift when it went fine (check 01-01).\n' +
        'HEARTBEAT.md:3: delete-past 12-31: - Holiday freeze. Lift when over, DELETE 12-31\n',
    );
    expect(await due('2026-12-31T23:30:00Z', 'America/Los_Angeles')).toBe(
      'HEARTBEAT.md:3: delete-past 12-31: - Holiday freeze. Lift when over, DELETE 12-31\n',
    );
    // 2027 has no 02-29: its check is due on 02-28, the day a DELETE 02-29 would be past.
    expect(await due('2027-02-28T12:00:00Z', 'UTC')).toBe(
      'HEARTBEAT.md:3: delete-past 12-31: - Holiday freeze. Lift when over, DELETE 12-31\n' +
        'HEARTBEAT.md:4: check-today 02-29: - Leap-day audit. Lift when done (check 02-29).\n',
    );
  });
  it("reads --tz the way the heartbeat config's zone is read (core's resolveTimeZone): trimmed, any letter case", async () => {
    const dir = workspace({ 'HEARTBEAT.md': SPEC_RUNBOOK });
    const loose = makeIo(dir);
    const argv = ['runbook', 'due', 'HEARTBEAT.md', '--now', '2026-08-22T05:00:00Z', '--json', '--tz'];
    expect(await main([...argv, ' america/los_angeles '], loose)).toBe(0);
    expect((JSON.parse(loose.out()) as { due: unknown[] }).due).toEqual([]);
    const empty = makeIo(dir);
    expect(await main([...argv, ' '], empty)).toBe(2);
    expect(empty.err()).toContain('is not an IANA time zone');
  });
});

describe('heartbeat-kit runbook prune', () => {
  const TEXT =
    '## Watch Items\n- Old flag DELETE 10-18\n- Deploy freeze. Lift when #41 merges (check 10-25)\n- Keep. Lift when ok (check 10-25)\n';
  it('plans without writing, then --write rewrites atomically; PR states come from gh', async () => {
    const dir = workspace({ 'HEARTBEAT.md': TEXT });
    const bin = join(dir, 'bin');
    await (await import('node:fs/promises')).mkdir(bin);
    await writeFile(
      join(bin, 'gh'),
      '#!/bin/sh\n[ "$1 $2 $3" = "pr view 41" ] || exit 1\necho \'{"mergedAt":"2026-10-19T08:00:00Z","state":"MERGED"}\'\n',
    );
    await chmod(join(bin, 'gh'), 0o755);
    const env = { PATH: `${bin}:${process.env.PATH ?? ''}` };
    const plan = makeIo(dir, env);
    expect(await main(['runbook', 'prune', 'HEARTBEAT.md', ...NOW], plan)).toBe(0);
    expect(plan.out()).toContain('HEARTBEAT.md:2: remove (delete-date-past)');
    expect(plan.out()).toContain('HEARTBEAT.md:3: remove (pr-merged)');
    expect(plan.out()).toContain('run again with --write');
    expect(await readFile(join(dir, 'HEARTBEAT.md'), 'utf8')).toBe(TEXT);
    const write = makeIo(dir, env);
    expect(await main(['runbook', 'prune', 'HEARTBEAT.md', '--write', ...NOW], write)).toBe(0);
    expect(await readFile(join(dir, 'HEARTBEAT.md'), 'utf8')).toBe('## Watch Items\n- Keep. Lift when ok (check 10-25)\n');
    expect((await readdir(dir)).sort()).toEqual(['HEARTBEAT.md', 'bin']);
  });
  it('--offline keeps PR items and a gh failure keeps them with a warning', async () => {
    const dir = workspace({ 'HEARTBEAT.md': TEXT });
    const offline = makeIo(dir);
    await main(['runbook', 'prune', 'HEARTBEAT.md', '--offline', '--json', ...NOW], offline);
    expect((JSON.parse(offline.out()) as { entries: { reason: string }[] }).entries.map((e) => e.reason)).toEqual(['delete-date-past']);
    const noGh = makeIo(dir, { PATH: '/nonexistent' });
    await main(['runbook', 'prune', 'HEARTBEAT.md', '--json', ...NOW], noGh);
    const json = JSON.parse(noGh.out()) as { entries: unknown[]; warnings: { line: number }[] };
    expect(json.entries).toHaveLength(1);
    expect(json.warnings.map((w) => w.line)).toEqual([3]);
  });
});

describe('heartbeat-kit runbook tick', () => {
  it('creates the checklist task with no gate selected', async () => {
    const dir = workspace({ 'HEARTBEAT.md': SPEC_RUNBOOK, 'status.json': JSON.stringify(STATUS) });
    const io = makeIo(dir);
    expect(await main(['runbook', 'tick', '--runbook', 'HEARTBEAT.md', '--status', 'status.json', '--json', ...NOW], io)).toBe(0);
    const d = JSON.parse(io.out()) as { kind: string; task: { tags: string[]; priority: number; prompt: string } };
    expect(d.kind).toBe('create');
    expect(d.task.tags).toEqual(['checklist', 'auto-generated']);
    expect(d.task.prompt).toContain('(check 08-22)');
  });
  it('enforce + the rules gate skips a quiet tick; a crashing command gate fails open', async () => {
    const dir = workspace({
      'HEARTBEAT.md': SPEC_RUNBOOK,
      'status.json': JSON.stringify(STATUS),
      'crash.sh': '#!/bin/sh\nkill -9 $$\n',
    });
    await chmod(join(dir, 'crash.sh'), 0o755);
    const quiet = makeIo(dir, { HEARTBEAT_CHECKLIST_GATE_SCRIPT: 'heartbeat-rules-gate', HEARTBEAT_CHECKLIST_GATE_MODE: 'enforce' });
    await main(['runbook', 'tick', '--runbook', 'HEARTBEAT.md', '--status', 'status.json', ...NOW], quiet);
    expect(quiet.out()).toBe('skip: gate-quiet (nothing new since the previous checklist)\n');
    const crash = makeIo(dir, { HEARTBEAT_CHECKLIST_GATE_SCRIPT: './crash.sh', HEARTBEAT_CHECKLIST_GATE_MODE: 'enforce' });
    await main(['runbook', 'tick', '--runbook', 'HEARTBEAT.md', '--status', 'status.json', '--json', ...NOW], crash);
    expect(JSON.parse(crash.out())).toMatchObject({
      kind: 'create',
      verdict: { kind: 'error' },
      task: { tags: ['checklist', 'auto-generated', 'heartbeat-gate:error'] },
    });
  });
  it('the default model gate is not shipped: with a credential it fails open in shadow mode', async () => {
    const dir = workspace({ 'HEARTBEAT.md': SPEC_RUNBOOK, 'status.json': JSON.stringify(STATUS) });
    const io = makeIo(dir, { TYPESAFE_API_KEY: 'k' });
    await main(['runbook', 'tick', '--runbook', 'HEARTBEAT.md', '--status', 'status.json', '--json', ...NOW], io);
    expect(JSON.parse(io.out())).toMatchObject({
      gate: 'heartbeat-jev-gate',
      task: { tags: ['checklist', 'auto-generated', 'heartbeat-gate:error'] },
    });
  });
  it('--dry-run previews the verdict without a task', async () => {
    const dir = workspace({
      'HEARTBEAT.md': '## Watch Items\n- x. Lift when y (check 10-20)\n',
      'status.json': JSON.stringify(STATUS),
    });
    const io = makeIo(dir);
    await main(['runbook', 'tick', '--runbook', 'HEARTBEAT.md', '--status', 'status.json', '--gate', 'rules', '--dry-run', ...NOW], io);
    expect(io.out()).toBe('dry run: heartbeat-rules-gate → wake: 1 tracked item(s) due\n');
  });
  it('an invalid status file is a usage error naming the file and key', async () => {
    const dir = workspace({
      'HEARTBEAT.md': SPEC_RUNBOOK,
      'status.json': JSON.stringify({ ...STATUS, agents: [{ id: 'lead', status: 'asleep' }] }),
    });
    const io = makeIo(dir);
    expect(await main(['runbook', 'tick', '--runbook', 'HEARTBEAT.md', '--status', 'status.json', ...NOW], io)).toBe(2);
    expect(io.err()).toMatch(/status\.json: agents\.0\.status/);
  });
});

describe('heartbeat-kit runbook boot-triage and gate-report', () => {
  it('a clean boot creates nothing; a reboot-interrupted task creates the triage task', async () => {
    const failed = {
      id: 'r1',
      task: 'Ship',
      status: 'failed',
      failureReason: 'Auto-failed by reboot sweep: worker session not found after server restart',
      createdAt: '2026-10-20T09:00:00Z',
      lastUpdatedAt: '2026-10-20T09:59:00Z',
    };
    const dir = workspace({ 'clean.json': JSON.stringify(STATUS), 'dirty.json': JSON.stringify({ ...STATUS, tasks: [failed] }) });
    const clean = makeIo(dir);
    await main(['runbook', 'boot-triage', '--status', 'clean.json', ...NOW], clean);
    expect(clean.out()).toBe('skip: clean-boot\n');
    const dirty = makeIo(dir);
    await main(['runbook', 'boot-triage', '--status', 'dirty.json', '--json', ...NOW], dirty);
    expect(JSON.parse(dirty.out())).toMatchObject({ kind: 'create', task: { taskType: 'boot-triage', priority: 70 } });
    const disabled = makeIo(dir, { HEARTBEAT_CHECKLIST_DISABLE: '0' });
    await main(['runbook', 'boot-triage', '--status', 'dirty.json', ...NOW], disabled);
    expect(disabled.out()).toBe('skip: disabled\n');
  });
  it('gate-report computes agreement from a JSONL log', async () => {
    const lines = [
      { taskId: 'a', verdict: 'quiet', outcome: 'quiet' },
      { taskId: 'b', verdict: 'wake', outcome: 'work' },
      { taskId: 'c', verdict: 'quiet', outcome: 'work' },
    ].map((l) => JSON.stringify(l));
    const dir = workspace({ 'gate.jsonl': `${lines.join('\n')}\nnot json\n` });
    const io = makeIo(dir);
    expect(await main(['runbook', 'gate-report', 'gate.jsonl', '--min-samples', '2', '--json'], io)).toBe(0);
    expect(JSON.parse(io.out())).toMatchObject({ compared: 3, skipped: 1, quietPrecision: 0.5, enforceAdvisable: false });
    expect(io.err()).toContain('gate.jsonl:4: not JSON');
  });
});
