import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBuiltCli, useCliWorlds } from './support/cli-world.js';
import { WORLD_HEARTBEAT_MD } from './support/world.js';

interface CycleJson {
  readonly status: string;
  readonly coverage: { readonly lookedAt: string[]; readonly notLookedAt: string[]; readonly notDue: string[] };
  readonly suppressed: unknown[];
  readonly problems: { readonly scanner: string; readonly fix: string }[];
}
interface ReceiptJson {
  readonly checks?: { readonly ran: string[]; readonly failed: string[]; readonly skipped: string[] };
}
interface PlannedCheckJson {
  readonly name: string;
  readonly every: string;
}
interface CheckRunJson {
  readonly findings: { readonly decision: string; readonly priority: string }[];
}

const newWorld = useCliWorlds();
const cli = useBuiltCli();

// Four checks that keep the contract (quiet, JSON lines, plain text, exit 2) and one that cannot run.
const CHECKS_MD = `${WORLD_HEARTBEAT_MD}
## Checks
- name: quiet
  - run: [.claude/checks/quiet.sh]
- name: ci
  - run: [.claude/checks/ci.sh]
  - priority: Advisory
- name: disk
  - run: [.claude/checks/disk.sh]
  - every: 2 cycles
- name: staging
  - run: [.claude/checks/staging.sh]
- name: broken
  - run: [no-such-check-program, --json]
`;

const SCRIPTS: Readonly<Record<string, string>> = {
  'quiet.sh': 'exit 0',
  // Two findings as JSON lines; one carries terminal escapes and @channel, one a secret.
  'ci.sh': `printf '%s\\n' '{"subject":"run-41","line":"CI failed on main: run 41 \\u001b[31mred\\u001b[0m @channel","short":"CI red"}' '{"subject":"run-42","line":"CI failed: token ghp_abcdefghijklmnopqrstuvwxyz0123456789 leaked","priority":"Immediate"}'`,
  'disk.sh': `echo "disk / is 93% full"; echo "second line is ignored"`,
  'staging.sh': `echo "staging is switched off today" >&2; exit 2`,
};

function writeScripts(project: string): void {
  const dir = join(project, '.claude', 'checks');
  mkdirSync(dir, { recursive: true });
  for (const [name, body] of Object.entries(SCRIPTS)) {
    writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(dir, name), 0o755);
  }
}

describe('## Checks end to end (issue 28, must show)', () => {
  it('four checks and a broken one: the report, the stderr lines, --json, history and plan; the broken one is never silent', async () => {
    const world = newWorld({ heartbeatMd: CHECKS_MD });
    writeScripts(world.project);
    const scope = ['--cwd', world.project, '--tmux-socket', world.tmuxSocket];
    const cycle = (now: string, ...extra: string[]) => cli.runAt(now, ['cycle', ...scope, ...extra], world.env);

    // A dry run first: the same decision, nothing written (history stays empty below).
    const dry = await cycle('2026-02-19T14:00:00Z', '--dry-run', '--json');
    expect(JSON.parse(dry.stdout)).toMatchObject({ status: 'report', dryRun: true });

    const first = await cycle('2026-02-19T14:00:00Z');
    expect(first.code).toBe(0);
    // The report: the JSON-lines findings and the plain-text one, sanitised (no escape, no ping, no secret).
    expect(first.stdout).toContain('WORK_FOUND');
    expect(first.stdout).toContain('CI failed on main: run 41 red @\u2024channel');
    expect(first.stdout).toContain('disk / is 93% full');
    expect(first.stdout).not.toContain('second line is ignored');
    expect(first.stdout).not.toContain('\u001b');
    expect(first.stdout).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789');
    expect(first.stdout).not.toMatch(/@channel/);
    // The stderr lines: exit 2 is a skip (a notice, not a warning); the missing program is a warning with its fix.
    expect(first.stderr).toContain(
      'heartbeat-kit: staging skipped: check staging does not apply now (exit 2): staging is switched off today; fix: none: exit 2 is the check saying it has nothing to look at now\n',
    );
    expect(first.stderr).toMatch(
      /heartbeat-kit: warning: broken failed: check broken could not run: no-such-check-program not found on PATH; fix: install no-such-check-program, or correct "run:" of check broken in HEARTBEAT\.md/,
    );

    // --json, ten minutes later: nothing new to say, disk not due (every 2 cycles), the broken check still said.
    const second = await cycle('2026-02-19T14:10:00Z', '--json');
    expect(second.code).toBe(0);
    const json = JSON.parse(second.stdout) as CycleJson;
    expect(json.status).toBe('ok');
    expect(json.coverage).toMatchObject({ notDue: ['disk'] });
    expect(json.coverage.lookedAt).toEqual(expect.arrayContaining(['quiet', 'ci']));
    expect(json.coverage.notLookedAt).toEqual(expect.arrayContaining(['staging', 'broken']));
    // The CI findings are unchanged: deduplicated like any built-in finding (change-aware repeats).
    expect(json.suppressed).toEqual(expect.arrayContaining([expect.objectContaining({ category: 'CHECK_CI', reason: 'dedup' })]));
    expect(json.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ scanner: 'staging', kind: 'skipped', severity: 'notice', code: 'CHECK_NOT_APPLICABLE' }),
        expect.objectContaining({ scanner: 'broken', kind: 'failed', severity: 'warning' }),
      ]),
    );
    expect(json.problems.find((p) => p.scanner === 'broken')?.fix).toContain('install no-such-check-program');

    // Text mode again: stdout is exactly HEARTBEAT_OK, and never without the line saying broken could not run.
    for (const now of ['2026-02-19T14:20:00Z', '2026-02-19T14:30:00Z', '2026-02-19T14:40:00Z']) {
      const quiet = await cycle(now);
      expect(quiet.code).toBe(0);
      if (quiet.stdout === 'HEARTBEAT_OK\n')
        expect(quiet.stderr).toMatch(/broken (?:failed|skipped): .*no-such-check-program|broken.*breaker/);
      expect(quiet.stderr).toContain('broken');
    }

    // history: every real cycle's receipt names the checks that ran, failed and were skipped (the dry run left none).
    const history = await cli.run(['history', '--cwd', world.project, '--now', '2026-02-19T15:00:00Z', '--json'], world.env);
    const receipts = (JSON.parse(history.stdout) as { receipts: ReceiptJson[] }).receipts;
    expect(receipts).toHaveLength(5);
    expect(receipts[0]!.checks).toEqual({ ran: ['quiet', 'ci', 'disk'], failed: ['broken'], skipped: ['staging'] });
    expect(receipts[1]!.checks).toEqual({ ran: ['quiet', 'ci'], failed: ['broken'], skipped: ['disk', 'staging'] });
    const text = await cli.run(['history', '--cwd', world.project, '--now', '2026-02-19T15:00:00Z'], world.env);
    expect(text.stdout).toContain('checks ran: quiet, ci, disk, failed: broken, skipped: staging');

    // plan: each check's cadence and whether the next slot runs it.
    const plan = await cli.run(['plan', '--cwd', world.project, '--now', '2026-02-19T14:41:00Z', '--hours', '1', '--json'], world.env);
    const planned = (JSON.parse(plan.stdout) as { checks: PlannedCheckJson[] }).checks;
    expect(planned.map((c) => [c.name, c.every])).toEqual([
      ['quiet', 'every cycle'],
      ['ci', 'every cycle'],
      ['disk', 'every 2 cycles'],
      ['staging', 'every cycle'],
      ['broken', 'every cycle'],
    ]);
    expect(planned[0]).toMatchObject({ nextSlot: { at: '2026-02-19T14:50:00.000Z', runs: true } });
    const planText = await cli.run(['plan', '--cwd', world.project, '--now', '2026-02-19T14:41:00Z', '--hours', '1'], world.env);
    expect(planText.stdout).toMatch(/Checks \(5\):\n {2}quiet: every cycle; next slot runs it/);
    expect(planText.stdout).toMatch(/disk: every 2 cycles; next slot (?:runs|skips) it/);
  });

  it('check run NAME shows the findings and the decision, and writes nothing', async () => {
    const world = newWorld({ heartbeatMd: CHECKS_MD });
    writeScripts(world.project);
    const scope = ['--cwd', world.project];
    const run = await cli.run(['check', 'run', 'ci', ...scope, '--now', '2026-02-19T14:00:00Z', '--json'], world.env);
    expect(run.code).toBe(0);
    const shown = JSON.parse(run.stdout) as CheckRunJson;
    expect(shown).toMatchObject({ check: 'ci', category: 'CHECK_CI', status: 'ok', exitCode: 0, form: 'json-lines', wrote: 'nothing' });
    expect(shown.findings.map((f) => [f.decision, f.priority])).toEqual([
      ['report', 'Advisory'],
      ['report', 'Immediate'],
    ]);
    const text = await cli.run(['check', 'run', 'disk', ...scope, '--now', '2026-02-19T14:00:00Z'], world.env);
    expect(text.stdout).toContain('disk / is 93% full — would be reported');
    expect(text.stderr).toContain('nothing was written');
    const broken = await cli.run(['check', 'run', 'broken', ...scope], world.env);
    expect(broken.code).toBe(3);
    expect(broken.stderr).toContain('check broken could not run: no-such-check-program not found on PATH');
    const unknown = await cli.run(['check', 'run', 'disc', ...scope], world.env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown subcommand 'disc'\. Did you mean `disk`\?/);
    // Nothing was written: no receipts, so history is empty.
    const history = await cli.run(['history', '--cwd', world.project, '--now', '2026-02-19T15:00:00Z', '--json'], world.env);
    expect((JSON.parse(history.stdout) as { receipts: unknown[] }).receipts).toEqual([]);
    const help = await cli.run(['help', 'checks'], world.env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('exit 2                    not applicable now');
  });

  it('a bad ## Checks stops the cycle with exit 2 naming file, line, key and fix', async () => {
    const world = newWorld({ heartbeatMd: `${WORLD_HEARTBEAT_MD}\n## Checks\n- name: git\n- run: [true]\n` });
    const bad = await cli.run(['cycle', '--cwd', world.project, '--tmux-socket', world.tmuxSocket], world.env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /HEARTBEAT\.md:\d+: Checks → git → name: "" is the name of a built-in scanner\. Fix: give the check another name, such as git-check/,
    );
    const shell = newWorld({
      heartbeatMd: `${WORLD_HEARTBEAT_MD}\n## Checks\n- name: up\n- run: curl -fsS http://127.0.0.1:1/ | grep ok\n`,
    });
    const refused = await cli.run(['cycle', '--cwd', shell.project, '--tmux-socket', shell.tmuxSocket], shell.env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /Checks → up → run: "curl -fsS http:\/\/127\.0\.0\.1:1\/ \| grep ok" is a shell string.*Fix: write an argv list/,
    );
  });
});
