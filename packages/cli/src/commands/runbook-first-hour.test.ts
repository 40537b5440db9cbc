/**
 * Issue 11 items 7-9 over real files: the quiet check refuses past dates, boot triage counts only
 * this boot, and the runbook CLI can be started from an empty directory.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../test/support/cli-world.js';
import { runCli } from '../../test/support/run-cli.js';

const tempDir = useTempDirs();

const run = (cwd: string, argv: readonly string[], env: Record<string, string | undefined> = {}) =>
  runCli(argv, { cwd, env: { PATH: process.env.PATH, TZ: 'UTC', ...env } });

/** A temp directory with these files (paths relative to it), removed after the test. */
const workspace = (files: Record<string, string> = {}): string => tempDir('hb-runbook-first-hour-', files);

const REBOOT = 'Auto-failed by reboot sweep: worker session not found after server restart';
const lead = { id: 'lead', name: 'lead', isLead: true, status: 'online' };
const previousChecklist = {
  id: 'chk-1',
  task: 'Heartbeat checklist',
  status: 'completed',
  taskType: 'heartbeat-checklist',
  agentId: 'lead',
  createdAt: '2026-10-20T09:00:00Z',
  lastUpdatedAt: '2026-10-20T09:05:00Z',
  finishedAt: '2026-10-20T09:05:00Z',
  output: 'All clear.',
};
const quietStatus = (generatedAt: string) => JSON.stringify({ version: 1, generatedAt, agents: [lead], tasks: [previousChecklist] });

describe('item 7: runbook quiet refuses the fast path while a tracked item is at or past its date', () => {
  const RUNBOOK =
    '## Standing Orders\n- Keep the pool draining.\n\n## Watch Items\n- Webhook retries since 2026-10-01. Lift when zero retries for 48 h (check 10-15)\n';
  it.each([
    ['the day before', '2026-10-14T10:00:00Z', 0],
    ['on the day', '2026-10-15T10:00:00Z', 1],
    ['the day after', '2026-10-16T10:00:00Z', 1],
    ['five days later', '2026-10-20T10:00:00Z', 1],
  ])('%s', async (_, now, code) => {
    const dir = workspace({ 'runbook.md': RUNBOOK, 'status.json': quietStatus(now) });
    const r = await run(dir, ['runbook', 'quiet', '--runbook', 'runbook.md', '--status', 'status.json', '--now', now, '--tz', 'UTC']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(code);
    if (code === 0) expect(r.stdout).toBe('Quiet. Same as chk-1: 0 failures (triaged), schedule-health 0/0, controls ok.\n');
    else
      expect(r.stdout).toMatch(
        /^not quiet: tracked-item-due\n- line 5 \(Watch Items\) is (due today|past its check date) \(10-15\); prune it or write its new date\n$/,
      );
  });
  it('--json carries the decision and the script results it compared', async () => {
    const dir = workspace({ 'runbook.md': RUNBOOK, 'status.json': quietStatus('2026-10-20T10:00:00Z') });
    const r = await run(dir, [
      'runbook',
      'quiet',
      '--runbook',
      'runbook.md',
      '--status',
      'status.json',
      '--now',
      '2026-10-20T10:00:00Z',
      '--json',
    ]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({
      quiet: false,
      reasons: ['tracked-item-due'],
      scripts: { source: { scheduleHealth: 'status', failureAudit: 'status' } },
    });
  });
  it('script outputs given as files are compared with the previous checklist', async () => {
    const dir = workspace({
      'runbook.md': '## Standing Orders\n- Keep the pool draining.\n',
      'status.json': quietStatus('2026-10-20T10:00:00Z'),
      'health.json': JSON.stringify({
        days: 1,
        threshold: 0.2,
        totalSchedules: 3,
        flaggedCount: 1,
        schedules: [],
        flagged: [{ id: 'nightly', runs: 4, failed: 2 }],
      }),
      'audit.json': JSON.stringify({ days: 1, groupBy: 'reason', totalFailed: 0, clusterCount: 0, groups: [] }),
      'broken.json': JSON.stringify({ error: 'task_list failed with status 500' }),
    });
    const base = ['runbook', 'quiet', '--runbook', 'runbook.md', '--status', 'status.json', '--now', '2026-10-20T10:00:00Z'];
    const flagged = await run(dir, [...base, '--schedule-health', 'health.json', '--failure-audit', 'audit.json']);
    expect(flagged).toMatchObject({ code: 1, stdout: 'not quiet: new-script-finding\n- script finding nightly was not named by chk-1\n' });
    const broken = await run(dir, [...base, '--failure-audit', 'broken.json']);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toBe(
      'heartbeat-kit runbook quiet: broken.json: the script reported an error: task_list failed with status 500; expected {"groups": [{"taskIds": [...]}]}\n',
    );
  });
});

describe('item 8: runbook boot-triage counts only reboot-sweep failures of this boot', () => {
  const started = '2026-10-20T10:00:00Z';
  const now = '2026-10-20T10:01:30Z';
  const earlier = {
    id: 'old-r1',
    task: 'Ship notes',
    status: 'failed',
    failureReason: REBOOT,
    agentId: 'w1',
    createdAt: '2026-10-20T09:00:00Z',
    lastUpdatedAt: '2026-10-20T09:30:05Z',
    finishedAt: '2026-10-20T09:30:05Z',
  };
  const retry = {
    id: 'old-r1-retry',
    task: 'Ship notes',
    status: 'completed',
    parentTaskId: 'old-r1',
    tags: ['reboot-retry', 'auto-generated'],
    createdAt: '2026-10-20T09:30:05Z',
    lastUpdatedAt: '2026-10-20T09:50:00Z',
  };
  const status = (tasks: unknown[], withStart = true) =>
    JSON.stringify({ version: 1, generatedAt: now, ...(withStart ? { serverStartedAt: started } : {}), agents: [lead], tasks });

  it('a clean boot after an earlier failed one creates no boot-triage task', async () => {
    const dir = workspace({ 'status.json': status([earlier, retry]) });
    const r = await run(dir, ['runbook', 'boot-triage', '--status', 'status.json', '--now', now]);
    expect(r).toEqual({ code: 0, stdout: 'skip: clean-boot\n', stderr: '' });
  });
  it("a failure of this boot still creates it, listing only this boot's failure", async () => {
    const mine = { ...earlier, id: 'new-r2', task: 'Deploy', lastUpdatedAt: '2026-10-20T10:00:05Z', finishedAt: '2026-10-20T10:00:05Z' };
    const dir = workspace({ 'status.json': status([earlier, retry, mine]) });
    const r = await run(dir, ['runbook', 'boot-triage', '--status', 'status.json', '--now', now, '--json']);
    const d = JSON.parse(r.stdout) as {
      kind: string;
      findings: { rebootInterrupted: { task: { id: string } }[] };
      task: { prompt: string };
    };
    expect(d.kind).toBe('create');
    expect(d.findings.rebootInterrupted.map((x) => x.task.id)).toEqual(['new-r2']);
    expect(d.task.prompt).not.toContain('[old-r1] "Ship notes" — was on');
  });
  it('without serverStartedAt the last 60 minutes stand in for this boot, and stderr says so', async () => {
    const dir = workspace({
      'status.json': status([{ ...earlier, lastUpdatedAt: '2026-10-19T10:00:05Z', finishedAt: '2026-10-19T10:00:05Z' }], false),
    });
    const r = await run(dir, ['runbook', 'boot-triage', '--status', 'status.json', '--now', now]);
    expect(r.stdout).toBe('skip: clean-boot\n');
    expect(r.stderr).toBe(
      "heartbeat-kit runbook boot-triage: warning: status.json has no serverStartedAt; reboot-sweep failures since 2026-10-20T09:01:30.000Z (the last 60 minutes) were counted as this boot's\n",
    );
  });
});

describe('item 9: the runbook CLI from an empty directory', () => {
  const SUBS = ['init', 'check', 'due', 'prune', 'tick', 'quiet', 'boot-triage', 'gate-report'];

  it("every subcommand's --help gives the file format, an example and the exit codes, without spec numbers", async () => {
    const top = await run('/', ['runbook', '--help']);
    expect(top.code).toBe(0);
    for (const sub of SUBS) expect(top.stdout).toContain(`  ${sub} `);
    const texts = [top.stdout, (await run('/', ['--help'])).stdout];
    for (const sub of SUBS) {
      const r = await run('/', ['runbook', sub, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^Usage: heartbeat-kit runbook ${sub}\\b`));
      expect(r.stdout).toContain('\nExample:\n  heartbeat-kit runbook ');
      expect(r.stdout).toMatch(/\nExit codes:\n {2}0 {2}\S/);
      texts.push(r.stdout);
    }
    for (const sub of ['check', 'due', 'prune', 'tick', 'quiet']) {
      expect((await run('/', ['runbook', sub, '--help'])).stdout).toContain('## Active Blockers, ## Watch Items, ## Open Discussion');
    }
    for (const sub of ['tick', 'quiet', 'boot-triage'])
      expect((await run('/', ['runbook', sub, '--help'])).stdout).toContain('The status file (JSON)');
    for (const text of texts) expect(text).not.toMatch(/\bspec\b|§|\b00[0-3]\b/i);
  });

  it('init writes a commented runbook that check accepts and a status file that tick turns into a first task', async () => {
    const dir = workspace();
    const init = await run(dir, ['runbook', 'init', '--now', '2026-10-20T10:00:00Z']);
    expect(init.code).toBe(0);
    expect((await readdir(dir)).sort()).toEqual(['runbook-status.json', 'runbook.md']);
    const text = await readFile(join(dir, 'runbook.md'), 'utf8');
    expect(text.startsWith('<!--\n')).toBe(true);
    expect(text).toContain('(check 10-27)');
    expect(text).toContain('DELETE 11-03');
    const check = await run(dir, ['runbook', 'check', 'runbook.md', '--now', '2026-10-20T10:00:00Z']);
    expect(check).toMatchObject({ code: 0, stdout: 'runbook.md: accepted (2 tracked item(s), 0 error(s), 0 warning(s))\n' });
    const tick = await run(dir, [
      'runbook',
      'tick',
      '--runbook',
      'runbook.md',
      '--status',
      'runbook-status.json',
      '--now',
      '2026-10-20T10:00:00Z',
    ]);
    expect(tick.code).toBe(0);
    expect(tick.stdout).toMatch(/^create heartbeat-checklist for lead \[checklist, auto-generated\] priority 60\n/);
    const quiet = await run(dir, [
      'runbook',
      'quiet',
      '--runbook',
      'runbook.md',
      '--status',
      'runbook-status.json',
      '--now',
      '2026-10-20T10:00:00Z',
    ]);
    expect(quiet).toMatchObject({
      code: 0,
      stdout: 'Quiet. Same as checklist-1: 0 failures (triaged), schedule-health 1/1, controls ok.\n',
    });
  });

  it('init refuses to overwrite (nothing written, exit 1) and --dry-run writes nothing', async () => {
    const dir = workspace({ 'runbook-status.json': 'mine\n' });
    const refused = await run(dir, ['runbook', 'init']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('runbook-status.json already exists; nothing written');
    expect((await readdir(dir)).sort()).toEqual(['runbook-status.json']);
    expect(await readFile(join(dir, 'runbook-status.json'), 'utf8')).toBe('mine\n');

    const empty = workspace();
    const dry = await run(empty, ['runbook', 'init', 'ops', '--dry-run', '--now', '2026-10-20T10:00:00Z']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`would write ${join(empty, 'ops', 'runbook.md')}:\n<!--`);
    expect(dry.stdout).toContain(`would write ${join(empty, 'ops', 'runbook-status.json')}:\n{`);
    expect(await readdir(empty)).toEqual([]);
    const dryJson = await run(dir, ['runbook', 'init', '--dry-run', '--json']);
    expect(dryJson.code).toBe(1);
    expect(JSON.parse(dryJson.stdout)).toMatchObject({ dryRun: true, written: [], exists: [join(dir, 'runbook-status.json')] });
  });

  it('due never suggests HEARTBEAT.md, and warns when handed the heartbeat config instead of a runbook', async () => {
    const dir = workspace();
    expect((await run(dir, ['init'])).code).toBe(0);
    const noFile = await run(dir, ['runbook', 'due']);
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).not.toContain('HEARTBEAT.md');
    expect(noFile.stderr).toContain('runbook.md');
    const config = await run(dir, ['runbook', 'due', '.claude/HEARTBEAT.md', '--now', '2026-10-20T10:00:00Z']);
    expect(config.code).toBe(0);
    expect(config.stderr).toContain('warning: .claude/HEARTBEAT.md has none of the runbook sections');
  });

  it('tick refuses a runbook that check rejects, with the same line-numbered errors', async () => {
    const dir = workspace({
      'runbook.md': '## Watch Items\n- Cert renewal. Lift when renewed (check 2026-10-25)\n- no trigger at all (check 10-25)\n',
      'status.json': quietStatus('2026-10-20T10:00:00Z'),
    });
    const check = await run(dir, ['runbook', 'check', 'runbook.md']);
    expect(check.code).toBe(1);
    const checkLines = check.stdout.split('\n').filter((l) => /^runbook\.md:\d+: /.test(l));
    expect(checkLines).toHaveLength(2);
    const tick = await run(dir, ['runbook', 'tick', '--runbook', 'runbook.md', '--status', 'status.json', '--now', '2026-10-20T10:00:00Z']);
    expect(tick.code).toBe(2);
    expect(tick.stdout).toBe('');
    expect(tick.stderr).toBe(
      `${checkLines.join('\n')}\nheartbeat-kit runbook tick: runbook.md is rejected by 'heartbeat-kit runbook check' (2 error(s)); fix the lines above\n`,
    );
    const json = await run(dir, ['runbook', 'tick', '--runbook', 'runbook.md', '--status', 'status.json', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      kind: 'refused',
      accepted: false,
      errors: [
        { line: 2, code: 'full-date-only' },
        { line: 3, code: 'no-lift-trigger' },
      ],
    });
    const dry = await run(dir, ['runbook', 'tick', '--runbook', 'runbook.md', '--status', 'status.json', '--dry-run']);
    expect(dry.code).toBe(2);
  });
});
