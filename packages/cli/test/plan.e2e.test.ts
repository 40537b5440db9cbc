import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from './support/cli-world.js';
import { runCli } from './support/run-cli.js';

const tempDir = useTempDirs();

/** A project directory (no git repository) with this HEARTBEAT.md and, if given, this WoterClip config. */
function project(heartbeatMd: string, woterclip?: string): string {
  return tempDir('hk-plan-', {
    '.claude/HEARTBEAT.md': heartbeatMd,
    ...(woterclip === undefined ? {} : { '.woterclip/config.yaml': woterclip }),
  });
}

const BERLIN = '## Active Hours\n- Start: 8\n- End: 22\n- Weekend: false\n- Timezone: Europe/Berlin\n';
const WOTERCLIP = `version: 2
github:
  board_user: "octocat"
  repo: "owner/name"
heartbeat:
  quiet_hours:
    enabled: true
    timezone: "Europe/Berlin"
    start: "23:00"
    end: "07:00"
    behavior: "triage-only"
labels:
  working: "agent-working"
personas:
  orchestrator: {path: "personas/orchestrator", label: null, is_default: true}
`;

interface PlanJson {
  from: string;
  hours: number;
  schedule: Record<string, unknown>;
  slots: { at: string; verdict: string; reason: string; woterclip?: { verdict: string }; runbook?: { verdict: string; reason: string } }[];
}

describe('heartbeat-kit plan', () => {
  it('--now: the loop grid for the coming hours, each slot with its verdict and reason (text and --json)', async () => {
    const dir = project(BERLIN);
    // Friday 2026-02-20 20:55 Berlin (19:55 UTC): active until 22:00, then critical-only into the weekend.
    const text = await runCli(['plan', '--cwd', dir, '--now', '2026-02-20T19:55:00Z', '--hours', '3'], { cwd: dir });
    expect(text.stderr).toBe('');
    expect(text.code).toBe(0);
    expect(text.stdout).toBe(
      [
        'Plan from 2026-02-20T19:55:00.000Z for 3 h, every 600 s: 18 slots',
        '2026-02-20T20:00:00.000Z … 2026-02-20T20:50:00.000Z (6 slots)  runs: inside active hours 08:00–22:00 Europe/Berlin',
        '2026-02-20T21:00:00.000Z … 2026-02-20T22:50:00.000Z (12 slots)  critical-only: outside active hours 08:00–22:00 Europe/Berlin: only P0/P1 beads, orchestrator failures and GChat replies',
        '',
      ].join('\n'),
    );
    const json = await runCli(['plan', '--cwd', dir, '--now', '2026-02-20T22:55:00Z', '--hours', '1', '--json'], { cwd: dir });
    const plan = JSON.parse(json.stdout) as PlanJson;
    expect(plan.schedule).toEqual({ kind: 'interval', intervalMs: 600_000, offsetMs: 0 });
    expect(plan.slots[0]).toEqual({
      at: '2026-02-20T23:00:00.000Z',
      verdict: 'critical-only',
      reason: 'weekend (Sat): only P0/P1 beads, orchestrator failures and GChat replies',
    });
    // Deterministic: the same --now prints the same plan.
    expect((await runCli(['plan', '--cwd', dir, '--now', '2026-02-20T22:55:00Z', '--hours', '1', '--json'], { cwd: dir })).stdout).toBe(
      json.stdout,
    );
  });

  it('--cron plans a cron-driven cycle in the active hours zone; --interval/--jitter move the loop grid', async () => {
    const dir = project(BERLIN);
    const cron = await runCli(
      ['plan', '--cwd', dir, '--now', '2026-02-20T06:00:00Z', '--hours', '2', '--cron', '0 8-21 * * 1-5', '--json'],
      { cwd: dir },
    );
    expect(cron.code).toBe(0);
    const plan = JSON.parse(cron.stdout) as PlanJson;
    expect(plan.schedule).toEqual({ kind: 'cron', expression: '0 8-21 * * 1-5', timeZone: 'Europe/Berlin' });
    // 08:00 Berlin is 07:00 UTC: the only fire time in [06:00, 08:00) UTC.
    expect(plan.slots.map((s) => [s.at, s.verdict])).toEqual([['2026-02-20T07:00:00.000Z', 'runs']]);

    const grid = JSON.parse(
      (
        await runCli(
          ['plan', '--cwd', dir, '--now', '2026-02-20T10:00:00Z', '--hours', '1', '--interval', '1800', '--jitter', '600', '--json'],
          { cwd: dir },
        )
      ).stdout,
    ) as PlanJson;
    const offsetMs = grid.schedule['offsetMs'] as number;
    expect(offsetMs).toBeGreaterThanOrEqual(0);
    expect(offsetMs).toBeLessThan(600_000);
    expect(grid.slots.map((s) => (Date.parse(s.at) - offsetMs) % 1_800_000)).toEqual([0, 0]);
  });

  it('WoterClip quiet hours and a runbook tick per slot', async () => {
    const dir = project(BERLIN, WOTERCLIP);
    writeFileSync(join(dir, 'runbook.md'), '# Runbook\n\n## Watch Items\n- renew the TLS certificate 02-21\n');
    const run = await runCli(
      ['plan', '--cwd', dir, '--now', '2026-02-20T21:30:00Z', '--hours', '2', '--interval', '3600', '--runbook', 'runbook.md', '--json'],
      { cwd: dir },
    );
    expect(run.stderr).toBe('');
    const slots = (JSON.parse(run.stdout) as PlanJson).slots;
    expect(slots.map((s) => [s.at, s.woterclip?.verdict, s.runbook?.verdict])).toEqual([
      ['2026-02-20T22:00:00.000Z', 'triage-only', 'not-due'], // 23:00 Friday in Berlin
      ['2026-02-20T23:00:00.000Z', 'triage-only', 'due'], // 00:00 Saturday 21 Feb in Berlin: the item's day
    ]);
    expect(slots[1]?.runbook?.reason).toBe('1 tracked item due 2026-02-21 (line 4)');
  });

  it('usage errors name the fix; --help documents every flag', async () => {
    const dir = project(BERLIN);
    expect(await runCli(['plan', '--cwd', dir, '--cron', 'bogus'], { cwd: dir })).toMatchObject({ code: 2, stdout: '' });
    expect((await runCli(['plan', '--cwd', dir, '--cron', 'bogus'], { cwd: dir })).stderr).toMatch(
      /^heartbeat-kit plan: --cron "bogus" is not a cron expression: .* Fix: five fields such as/,
    );
    expect((await runCli(['plan', '--cwd', dir, '--cron', '* * * * *', '--interval', '60'], { cwd: dir })).stderr).toMatch(
      /Fix: give one or the other/,
    );
    expect((await runCli(['plan', '--cwd', dir, '--hours', '0'], { cwd: dir })).stderr).toBe(
      'heartbeat-kit plan: --hours "0" is not a number from 1 to 744. Fix: e.g. --hours 24.\n',
    );
    expect((await runCli(['plan', '--cwd', dir, '--now', 'tomorrow'], { cwd: dir })).stderr).toMatch(
      /--now "tomorrow" .* Fix: use an ISO-8601 instant/,
    );
    expect((await runCli(['plan', '--cwd', dir, '--runbook', 'missing.md'], { cwd: dir })).stderr).toMatch(
      /cannot read runbook .*missing\.md.* Fix: pass an existing file to --runbook/,
    );
    expect((await runCli(['plan', '--cwd', dir, '--config', 'nope.md'], { cwd: dir })).stderr).toMatch(
      /config file .*nope\.md does not exist/,
    );
    const help = await runCli(['plan', '--help'], { cwd: dir });
    expect(help.code).toBe(0);
    for (const flag of ['--cwd', '--config', '--hours', '--interval', '--jitter', '--cron', '--runbook', '--now', '--json'])
      expect(help.stdout).toContain(flag);
  });
});
