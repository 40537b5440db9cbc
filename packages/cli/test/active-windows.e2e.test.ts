import { describe, expect, it } from 'vitest';
import { useCliWorlds, useTempDirs } from './support/cli-world.js';
import { runCli } from './support/run-cli.js';

// Issue 15 item 7: active hours with HH:MM bounds and a Days list, under --now.
const OFFICE = '## Active Hours\n- Start: 08:30\n- End: 18:15\n- Days: Mon-Fri\n- Timezone: Europe/Berlin\n';

const newWorld = useCliWorlds();
const tempDir = useTempDirs();

/** A project directory (no git repository) with this HEARTBEAT.md. */
const project = (heartbeatMd: string): string => tempDir('hk-windows-', { '.claude/HEARTBEAT.md': heartbeatMd });

interface PlanJson {
  slots: { at: string; verdict: string; reason: string }[];
}

describe('active hours with minutes and days', () => {
  it('plan --now: the 08:30 boundary on a weekday, a Saturday is not an active day, Monday 08:30 runs again', async () => {
    const dir = project(OFFICE);
    // Friday 2026-02-20, 08:20 Berlin (07:20 UTC), slots every 5 minutes.
    const friday = await runCli(['plan', '--cwd', dir, '--now', '2026-02-20T07:20:00Z', '--hours', '1', '--interval', '300'], { cwd: dir });
    expect(friday.stderr).toBe('');
    expect(friday.code).toBe(0);
    expect(friday.stdout.split('\n').slice(0, 3)).toEqual([
      'Plan from 2026-02-20T07:20:00.000Z for 1 h, every 300 s: 12 slots',
      '2026-02-20T07:20:00.000Z … 2026-02-20T07:25:00.000Z (2 slots)  critical-only: outside active hours 08:30–18:15 Mon-Fri Europe/Berlin: only P0/P1 beads, orchestrator failures and GChat replies',
      '2026-02-20T07:30:00.000Z … 2026-02-20T08:15:00.000Z (10 slots)  runs: inside active hours 08:30–18:15 Mon-Fri Europe/Berlin',
    ]);
    // Friday 18:10 Berlin to Monday 08:40: 18:10 runs, 18:15 closes, the weekend is named by its day.
    const weekend = JSON.parse(
      (
        await runCli(
          ['plan', '--cwd', dir, '--now', '2026-02-20T17:10:00Z', '--hours', '63', '--interval', '3600', '--jitter', '0', '--json'],
          { cwd: dir },
        )
      ).stdout,
    ) as PlanJson;
    const at = (iso: string) => weekend.slots.find((s) => s.at === iso);
    expect(at('2026-02-21T11:00:00.000Z')).toEqual({
      at: '2026-02-21T11:00:00.000Z',
      verdict: 'critical-only',
      reason: 'Sat is not an active day (Mon-Fri): only P0/P1 beads, orchestrator failures and GChat replies',
    });
    expect(at('2026-02-22T11:00:00.000Z')?.reason).toMatch(/^Sun is not an active day/);
    expect(at('2026-02-23T07:00:00.000Z')?.verdict).toBe('critical-only'); // Monday 08:00 Berlin
    const monday = JSON.parse(
      (await runCli(['plan', '--cwd', dir, '--now', '2026-02-23T07:29:00Z', '--hours', '1', '--interval', '60', '--json'], { cwd: dir }))
        .stdout,
    ) as PlanJson;
    expect(monday.slots.slice(0, 2).map((s) => [s.at, s.verdict])).toEqual([
      ['2026-02-23T07:29:00.000Z', 'critical-only'], // 08:29 Berlin
      ['2026-02-23T07:30:00.000Z', 'runs'], // 08:30 Berlin
    ]);
  });

  it('a window crossing midnight on Sun only: Sunday 23:00 runs, Monday 01:00 (another day) does not', async () => {
    const dir = project('## Active Hours\n- Start: 22:00\n- End: 02:30\n- Days: Sun\n- Timezone: UTC\n');
    const plan = JSON.parse(
      (await runCli(['plan', '--cwd', dir, '--now', '2026-02-22T21:00:00Z', '--hours', '6', '--interval', '3600', '--json'], { cwd: dir }))
        .stdout,
    ) as PlanJson;
    expect(plan.slots.map((s) => [s.at.slice(8, 16), s.verdict])).toEqual([
      ['22T21:00', 'critical-only'],
      ['22T22:00', 'runs'],
      ['22T23:00', 'runs'],
      ['23T00:00', 'critical-only'],
      ['23T01:00', 'critical-only'],
      ['23T02:00', 'critical-only'],
    ]);
  });

  it('cycle --now: the scan is critical-only at 08:29 and full at 08:30 on a weekday, critical-only on Saturday', async () => {
    const w = newWorld({ mainCommitAt: new Date('2026-02-19T10:00:00Z'), heartbeatMd: OFFICE });
    const cycle = async (now: string) => {
      const run = await w.cliIn(w.project, 'cycle', '--tmux-socket', w.tmuxSocket, '--now', now, '--json');
      expect(run.code, run.stderr).toBe(0);
      return JSON.parse(run.stdout) as { insideActiveHours: boolean };
    };
    expect((await cycle('2026-02-23T07:29:00Z')).insideActiveHours).toBe(false); // Monday 08:29 Berlin
    expect((await cycle('2026-02-23T07:30:00Z')).insideActiveHours).toBe(true); // Monday 08:30
    expect((await cycle('2026-02-23T17:14:00Z')).insideActiveHours).toBe(true); // Monday 18:14
    expect((await cycle('2026-02-23T17:15:00Z')).insideActiveHours).toBe(false); // Monday 18:15
    expect((await cycle('2026-02-28T10:00:00Z')).insideActiveHours).toBe(false); // Saturday 11:00
  });

  it('a value that cannot be used stops with file, line, key and fix (08:60, Funday)', async () => {
    const minutes = project('## Active Hours\n- Start: 08:60\n');
    const bad = await runCli(['plan', '--cwd', minutes, '--now', '2026-02-20T07:20:00Z'], { cwd: minutes });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      '.claude/HEARTBEAT.md:2: Active Hours → Start: "08:60" has minutes 60; minutes go 00–59. Fix: write a time HH:MM on the 24-hour clock, such as 08:30.',
    );
    const days = project('## Active Hours\n- Days: Mon-Funday\n');
    const funday = await runCli(['plan', '--cwd', days, '--now', '2026-02-20T07:20:00Z'], { cwd: days });
    expect(funday.code).toBe(2);
    expect(funday.stderr).toContain(
      '.claude/HEARTBEAT.md:2: Active Hours → Days: "Mon-Funday" holds "Funday", which is not a day of the week. Fix: write days such as Mon-Fri, Sun, or Mon, Wed, Fri (a range may wrap: Fri-Mon).',
    );
  });
});
